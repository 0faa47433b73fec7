// The audit log (docs/audit-log.md): Backend API changes recorded with the secret key's fingerprint and
// no secret, nothing for a call that failed, security events from the Frontend API (sign-in failures,
// lockouts), the table refusing edits, the JSON-lines export, the retention purge and tenant isolation.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { secretKeyFingerprint } from '../src/audit/audit-context.ts';
import { purgeExpired } from '../src/retention/purge.ts';
import { RETENTION_RULES } from '../src/retention/rules.ts';
import { forEachBackend } from './support/backends.ts';
import { cli } from './support/cli.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { enrolTotp } from './support/second-factors.ts';
import { BAPI, Harness, uniqueEmail, type Json } from './support/harness.ts';

const OTHER_SECRET_KEY = 'sk_live_otherauditlogkey0000000000000000000000';
const NEW_PASSWORD = 'An0ther-Secret-Passphrase!';
const DAY = 24 * 3600;

forEachBackend('audit log', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend, { config: { lockout: { maxFailedAttempts: 3, durationSeconds: 600 } } });
  });
  after(() => h.close());

  const bapi = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    payload?: unknown,
    key = h.identity.secretKey,
  ) =>
    h.app.inject({
      method,
      url: `${BAPI}${path}`,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'user-agent': 'audit-test/1.0',
      },
      remoteAddress: '203.0.113.7',
      payload: payload === undefined ? undefined : JSON.stringify(payload),
    });
  const events = async (
    query = '',
    key = h.identity.secretKey,
  ): Promise<{ data: Json[]; total_count: number }> => {
    const res = await bapi('GET', `/v1/audit_events${query}`, undefined, key);
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  const rawEvents = () => h.identity.deps.db.query<{ id: string }>('SELECT id FROM audit_events');

  it('records a Backend API update with the secret key’s fingerprint, the fields, and no secret', async () => {
    const { userId } = await signUp(h, h.browser(), uniqueEmail('audited'));
    const res = await bapi('PATCH', `/v1/users/${userId}`, {
      first_name: 'Ada',
      password: NEW_PASSWORD,
      private_metadata: { salary: 'secret-salary-value' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const { data } = await events(`?action=user.updated&object_id=${userId}`);
    assert.equal(data.length, 1);
    const event = data[0]!;
    assert.equal(event.object, 'audit_event');
    assert.deepEqual(event.actor, { type: 'secret_key', id: secretKeyFingerprint(h.identity.secretKey) });
    assert.deepEqual(event.subject, { type: 'user', id: userId });
    assert.deepEqual(event.summary.fields, ['first_name', 'password', 'private_metadata']);
    assert.deepEqual(event.summary.after, { first_name: 'Ada' });
    assert.equal(event.ip_address, '203.0.113.7');
    assert.equal(event.user_agent, 'audit-test/1.0');
    assert.equal(typeof event.request_id, 'string');
    // The password change is also a security event, in the same transaction, by the same actor.
    const changed = await events(`?action=password.changed&object_id=${userId}`);
    assert.equal(changed.data.length, 1);
    assert.equal(changed.data[0]!.actor.type, 'secret_key');
    assert.equal(changed.data[0]!.request_id, event.request_id);
    const everything = JSON.stringify(await events('?limit=500'));
    for (const secret of [h.identity.secretKey, NEW_PASSWORD, 'secret-salary-value']) {
      assert.ok(!everything.includes(secret), `the log holds ${secret}`);
    }
  });

  it('records nothing for a call that failed and rolled back', async () => {
    const username = `taken${Date.now()}`;
    await signUp(h, h.browser(), uniqueEmail('taken'), { username });
    const { userId } = await signUp(h, h.browser(), uniqueEmail('refused'));
    const before = (await rawEvents()).length;
    const refused = await bapi('PATCH', `/v1/users/${userId}`, { first_name: 'Eve', username });
    assert.equal(refused.statusCode, 422, refused.body);
    const missing = await bapi('PATCH', '/v1/users/user_doesnotexist', { first_name: 'Eve' });
    assert.equal(missing.statusCode, 404);
    const malformed = await bapi('PATCH', `/v1/users/${userId}`, { first_name: 42 });
    assert.equal(malformed.statusCode, 422);
    assert.equal((await rawEvents()).length, before);
    const user = await bapi('GET', `/v1/users/${userId}`);
    assert.notEqual(user.json().first_name, 'Eve');
  });

  it('records sign-in failures and the lockout they cause, with the browser’s address', async () => {
    const email = uniqueEmail('lockout');
    const { userId } = await signUp(h, h.browser(), email);
    const browser = h.browser({ ip: '198.51.100.9' });
    const created = await browser.post('/client/sign_ins', { identifier: email });
    const id = created.body.response.id;
    for (let i = 1; i <= 3; i++) {
      h.clock.advance(1);
      const res = await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, {
        strategy: 'password',
        password: `wrong ${i}`,
      });
      assert.equal(res.status, 422);
    }
    const failed = await events(`?action=sign_in.failed&object_id=${userId}`);
    assert.equal(failed.data.length, 3);
    assert.deepEqual(failed.data[0]!.actor, { type: 'user', id: userId });
    assert.equal(failed.data[0]!.ip_address, '198.51.100.9');
    assert.equal(failed.data[0]!.summary.failed_verification_attempts, 3);
    const locked = await events(`?action=user.locked_out&object_id=${userId}`);
    assert.equal(locked.data.length, 1);
    assert.ok(!JSON.stringify(failed).includes('wrong 1'));
    // A successful sign-in elsewhere is recorded too.
    const otherEmail = uniqueEmail('signin');
    const other = await signUp(h, h.browser(), otherEmail);
    h.clock.advance(1);
    const signIn = await h.browser().post('/client/sign_ins', {
      identifier: otherEmail,
      password: PASSWORD,
      strategy: 'password',
    });
    assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
    assert.equal((await events(`?action=sign_in.succeeded&object_id=${other.userId}`)).data.length, 2);
  });

  it('records second factors added and removed, and API keys created and revoked, without their secrets', async () => {
    const browser = h.browser({ ip: '192.0.2.44' });
    const { userId } = await signUp(h, browser, uniqueEmail('factors'));
    const enrolled = await enrolTotp(h, browser);
    const added = await events(`?action=second_factor.added&object_id=${userId}`);
    assert.equal(added.data.length, 1);
    assert.deepEqual(added.data[0]!.actor, { type: 'user', id: userId });
    assert.equal(added.data[0]!.ip_address, '192.0.2.44');
    assert.deepEqual(added.data[0]!.summary, { type: 'totp' });
    assert.equal((await bapi('DELETE', `/v1/users/${userId}/totp`)).statusCode, 200);
    const removed = await events(`?action=second_factor.removed&object_id=${userId}`);
    assert.equal(removed.data.length, 1);
    assert.equal(removed.data[0]!.actor.type, 'secret_key');

    const created = await bapi('POST', '/api_keys', { name: 'audited key', subject: userId });
    assert.equal(created.statusCode, 200, created.body);
    const key = created.json() as Json;
    const revoked = await bapi('POST', `/api_keys/${key.id}/revoke`, { revocation_reason: 'done' });
    assert.equal(revoked.statusCode, 200, revoked.body);
    for (const action of ['api_key.created', 'api_key.revoked']) {
      const found = await events(`?action=${action}&object_id=${key.id}`);
      assert.equal(found.data.length, 1, action);
      assert.equal(found.data[0]!.summary.name, 'audited key');
      assert.equal(found.data[0]!.actor.type, 'secret_key');
    }
    const everything = JSON.stringify(await events('?limit=500'));
    for (const secret of [enrolled.secret, ...enrolled.backupCodes, key.secret as string].filter(Boolean)) {
      assert.ok(!everything.includes(secret), 'the log holds a secret');
    }
  });

  it('refuses UPDATE, DELETE and TRUNCATE of its rows; no route edits or deletes them', async () => {
    const [row] = await rawEvents();
    assert.ok(row);
    const db = h.identity.deps.db;
    await assert.rejects(
      db.query(`UPDATE audit_events SET action = 'x' WHERE id = $1`, [row.id]),
      /append-only/,
    );
    await assert.rejects(db.query(`DELETE FROM audit_events WHERE id = $1`, [row.id]), /append-only/);
    await assert.rejects(db.query(`TRUNCATE audit_events`), /append-only/);
    for (const method of ['PATCH', 'DELETE', 'POST'] as const) {
      const res = await bapi(method, `/v1/audit_events/${row.id}`, method === 'DELETE' ? undefined : {});
      assert.equal(res.statusCode, 404);
    }
    assert.equal(
      (await db.query(`SELECT 1 FROM audit_events WHERE id = $1 AND action <> 'x'`, [row.id])).length,
      1,
    );
  });

  it('filters by actor, action, object and time, newest first, and refuses bad filters', async () => {
    const all = await events('?limit=500');
    const times = all.data.map((e) => e.created_at as number);
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
    );
    const users = await events('?actor_type=user&limit=500');
    assert.ok(users.data.length > 0 && users.data.every((e) => e.actor.type === 'user'));
    const future = await events(`?created_at_after=${h.clock.now.getTime() + 3600_000}`);
    assert.equal(future.total_count, 0);
    const page = await events('?limit=1&offset=1');
    assert.equal(page.data.length, 1);
    assert.equal(page.data[0]!.id, all.data[1]!.id);
    assert.equal((await bapi('GET', '/v1/audit_events?actor_type=robot')).statusCode, 422);
    assert.equal((await bapi('GET', '/v1/audit_events?created_at_after=yesterday')).statusCode, 422);
    assert.equal((await bapi('GET', '/v1/audit_events', undefined, 'sk_live_wrong')).statusCode, 401);
  });

  const injected = () => ({
    openDatabase: async () => ({ db: h.identity.deps.db, close: async () => {} }),
    openSettings: async () => ({ db: h.identity.deps.db, close: async () => {} }),
  });

  it('records a command-line change and exports the log as JSON lines between two dates', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { env: {}, out: (l: string) => out.push(l), err: (l: string) => err.push(l), ...injected() };
    const { runCli } = await import('../src/cli/run-cli.ts');
    assert.equal(
      await runCli(['settings', 'set', 'auditLog', '{"retentionDays": 30}'], io),
      0,
      err.join('\n'),
    );
    const changed = await events('?actor_type=cli');
    assert.equal(changed.data.length, 1);
    assert.equal(changed.data[0]!.action, 'cli.settings.set');
    out.length = 0;
    assert.equal(await runCli(['audit', 'export'], io), 0, err.join('\n'));
    const lines = out.flatMap((chunk) => chunk.split('\n')).filter(Boolean);
    const exported = lines.map((line) => JSON.parse(line) as Json);
    assert.equal(exported.length, (await events()).total_count);
    const times = exported.map((e) => e.created_at as number);
    assert.deepEqual(
      times,
      [...times].sort((a, b) => a - b),
    );
    out.length = 0;
    const tomorrow = new Date(h.clock.now.getTime() + DAY * 1000).toISOString();
    assert.equal(await runCli(['audit', 'export', '--since', tomorrow], io), 0);
    assert.equal(out.filter(Boolean).length, 0);
    const bad = await cli(['audit', 'export', '--since', 'soon'], {});
    assert.equal(bad.status, 2);
  });

  it('is purged after the retention period of the instance settings, and only then', async () => {
    const db = h.identity.deps.db;
    const count = async () => (await rawEvents()).length;
    const before = await count();
    assert.ok(before > 0);
    const rules = RETENTION_RULES.filter((r) => r.table === 'audit_events');
    assert.equal(rules.length, 1);
    const kept = await purgeExpired(db, new Date(h.clock.now.getTime() + 29 * DAY * 1000), rules);
    assert.equal(kept.audit_events, 0);
    assert.equal(await count(), before);
    const purged = await purgeExpired(db, new Date(h.clock.now.getTime() + 31 * DAY * 1000), rules);
    assert.equal(purged.audit_events, before);
    assert.equal(await count(), 0);
    // The purge's permission does not outlive its statement.
    await db.query(
      `INSERT INTO audit_events (id, actor_kind, action, created_at) VALUES ('aud_left', 'system', 'x', now())`,
    );
    await assert.rejects(db.query(`DELETE FROM audit_events WHERE id = 'aud_left'`), /append-only/);
  });

  it('shows another instance none of this one’s events', async () => {
    await bapi('PATCH', `/v1/users/${(await signUp(h, h.browser(), uniqueEmail('iso'))).userId}`, {
      first_name: 'Iso',
    });
    assert.ok((await events()).total_count > 0);
    const other = await Harness.start(backend, { config: { secretKey: OTHER_SECRET_KEY } });
    try {
      const res = await other.app.inject({
        method: 'GET',
        url: `${BAPI}/v1/audit_events?limit=500`,
        headers: { authorization: `Bearer ${OTHER_SECRET_KEY}` },
      });
      assert.equal(res.statusCode, 200);
      const theirs = res.json() as { data: Json[] };
      const ours = new Set((await events('?limit=500')).data.map((e) => e.id));
      assert.ok(theirs.data.every((e) => !ours.has(e.id)));
      // Our key on their instance: refused.
      const crossed = await other.app.inject({
        method: 'GET',
        url: `${BAPI}/v1/audit_events`,
        headers: { authorization: `Bearer ${h.identity.secretKey}` },
      });
      assert.equal(crossed.statusCode, 401);
    } finally {
      await other.close();
    }
  });
});
