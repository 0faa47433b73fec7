import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { createClerkClient, type ClerkClient } from '@clerk/backend';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { purgeExpired } from '../src/retention/purge.ts';
import { BAPI, Harness } from './support/harness.ts';

/**
 * `machines` and `m2m` of @clerk/backend 2.10.1 (docs/backend-api.md), through the SDK: machines, their
 * secret keys and scopes, and the machine-to-machine tokens made, verified (also by
 * `authenticateRequest({ acceptsToken: 'm2m_token' })`) and revoked with them.
 */

const OTHER_SECRET_KEY = 'sk_live_otherinstancekey000000000000000000000';

forEachBackend('Backend API machines and M2M tokens through @clerk/backend 2.10.1', (backend) => {
  let h: Harness;
  let other: Harness;
  let clerk: ClerkClient;
  let otherClerk: ClerkClient;
  let apiUrl: string;

  before(async () => {
    h = await Harness.start(backend);
    other = await Harness.start(backend, { config: { secretKey: OTHER_SECRET_KEY } });
    clerk = await backendApiClient(h);
    otherClerk = await backendApiClient(other);
    apiUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}${BAPI}`;
  });
  after(async () => {
    await other.close();
    await h.close();
  });

  const count = async (table: string) =>
    (await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;

  /** A client that calls with a machine's secret key and no instance key, as a machine's service would. */
  const machineClient = (machineSecretKey: string) =>
    createClerkClient({ apiUrl, machineSecretKey, publishableKey: h.identity.publishableKey });

  it('create, get, list, update and delete machines, with their scopes', async () => {
    const b = await clerk.machines.create({ name: 'billing-worker' });
    assert.match(b.id, /^mch_/);
    assert.equal(b.name, 'billing-worker');
    assert.equal(b.defaultTokenTtl, 3600);
    assert.match(b.secretKey!, /^ak_[0-9A-Za-z]{48}$/);
    assert.deepEqual(b.scopedMachines, []);
    h.clock.advance(1);
    const a = await clerk.machines.create({
      name: 'api-gateway',
      scopedMachines: [b.id],
      defaultTokenTtl: 120,
    });
    assert.deepEqual(
      a.scopedMachines.map((m) => m.id),
      [b.id],
    );
    assert.equal(a.defaultTokenTtl, 120);

    const got = await clerk.machines.get(a.id);
    assert.equal(got.name, 'api-gateway');
    assert.equal(got.secretKey, undefined, 'the key is not in a read');
    assert.equal(got.scopedMachines[0]!.name, 'billing-worker');

    const list = await clerk.machines.list({ query: 'gateway' });
    assert.equal(list.totalCount, 1);
    assert.equal(list.data[0]!.id, a.id);
    const page = await clerk.machines.list({ limit: 1 });
    assert.equal(page.data.length, 1);
    assert.ok(page.totalCount >= 2);
    assert.equal(page.data[0]!.id, a.id, 'newest first');

    const updated = await clerk.machines.update({ machineId: a.id, name: 'gateway', defaultTokenTtl: 60 });
    assert.equal(updated.name, 'gateway');
    assert.equal(updated.defaultTokenTtl, 60);

    const c = await clerk.machines.create({ name: 'reports' });
    const scope = await clerk.machines.createScope(a.id, c.id);
    assert.equal(scope.fromMachineId, a.id);
    assert.equal(scope.toMachineId, c.id);
    assert.equal(typeof scope.createdAt, 'number');
    assert.deepEqual(
      (await clerk.machines.get(a.id)).scopedMachines.map((m) => m.id).sort(),
      [b.id, c.id].sort(),
    );
    const removed = await clerk.machines.deleteScope(a.id, c.id);
    assert.equal(removed.deleted, true);
    assert.deepEqual(
      (await clerk.machines.get(a.id)).scopedMachines.map((m) => m.id),
      [b.id],
    );
    await rejectsWith(clerk.machines.deleteScope(a.id, c.id), 404, 'resource_not_found');

    const deleted = await clerk.machines.delete(c.id);
    assert.equal(deleted.id, c.id);
    await rejectsWith(clerk.machines.get(c.id), 404, 'resource_not_found');
  });

  it('refuses malformed input in Clerk’s envelope and changes nothing', async () => {
    const machines = await count('machines');
    const scopes = await count('machine_scopes');
    await rejectsWith(clerk.machines.create({ name: '' }), 422, 'form_param_value_invalid', 'name');
    await rejectsWith(
      clerk.machines.create({ name: 'x'.repeat(256) }),
      422,
      'form_param_max_length_exceeded',
    );
    await rejectsWith(
      clerk.machines.create({ name: 'ttl', defaultTokenTtl: 0 }),
      422,
      'form_param_value_invalid',
    );
    const raw = await h.bapi('/v1/machines'); // sanity: the raw route answers the paginated shape
    assert.equal(typeof raw.json().total_count, 'number');
    const wrongType = await h.app.inject({
      method: 'POST',
      url: `${BAPI}/v1/machines`,
      headers: { authorization: `Bearer ${h.identity.secretKey}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 7 }),
    });
    assert.equal(wrongType.statusCode, 422);
    assert.equal(wrongType.json().errors[0].code, 'form_param_format_invalid');
    // A scope to a machine this instance does not have: 404, and the machine is not made either.
    await rejectsWith(
      clerk.machines.create({ name: 'orphan', scopedMachines: ['mch_doesnotexist'] }),
      404,
      'resource_not_found',
    );
    const m = await clerk.machines.create({ name: 'self' });
    await rejectsWith(clerk.machines.createScope(m.id, m.id), 422, 'form_param_value_invalid');
    await rejectsWith(
      clerk.machines.update({ machineId: m.id, name: '  ' }),
      422,
      'form_param_value_invalid',
    );
    assert.equal((await clerk.machines.get(m.id)).name, 'self');
    assert.equal(await count('machines'), machines + 1);
    assert.equal(await count('machine_scopes'), scopes);
  });

  it('another instance’s machines are unknown here, and its keys are refused', async () => {
    const theirs = await otherClerk.machines.create({ name: 'theirs' });
    const ours = await clerk.machines.create({ name: 'ours' });
    await rejectsWith(clerk.machines.get(theirs.id), 404, 'resource_not_found');
    await rejectsWith(clerk.machines.update({ machineId: theirs.id, name: 'x' }), 404, 'resource_not_found');
    await rejectsWith(clerk.machines.delete(theirs.id), 404, 'resource_not_found');
    await rejectsWith(clerk.machines.getSecretKey(theirs.id), 404, 'resource_not_found');
    await rejectsWith(clerk.machines.createScope(ours.id, theirs.id), 404, 'resource_not_found');
    assert.equal((await otherClerk.machines.get(theirs.id)).name, 'theirs');
    // Their machine's key makes no token here.
    await rejectsWith(machineClient(theirs.secretKey!).m2m.createToken(), 401, 'clerk_key_invalid');
    // A machine's key is no instance key: it reads no machine, no user.
    const asMachine = createClerkClient({ apiUrl, secretKey: ours.secretKey! });
    await rejectsWith(asMachine.machines.list(), 401, 'clerk_key_invalid');
    await rejectsWith(asMachine.users.getUserList(), 401, 'clerk_key_invalid');
  });

  it('M2M tokens: made with a machine’s key, verified by the machines it is scoped to, revoked', async () => {
    const receiver = await clerk.machines.create({ name: 'receiver' });
    const outsider = await clerk.machines.create({ name: 'outsider' });
    const sender = await clerk.machines.create({ name: 'sender', scopedMachines: [receiver.id] });

    const made = await machineClient(sender.secretKey!).m2m.createToken({
      secondsUntilExpiration: 600,
      claims: { job: 'nightly' },
    });
    assert.match(made.token!, /^mt_[0-9A-Za-z]{48}$/);
    assert.equal(made.subject, sender.id);
    assert.deepEqual(made.scopes, [receiver.id]);
    assert.deepEqual(made.claims, { job: 'nightly' });
    assert.equal(made.revoked, false);
    assert.ok(Math.abs(made.expiration! - (h.clock.now.getTime() + 600_000)) < 60_000);
    // Stored hashed: the token is nowhere in the database.
    const stored = await h.db.query<{ t: string }>('SELECT row_to_json(m)::text AS t FROM m2m_tokens m');
    assert.ok(stored.every((r) => !r.t.includes(made.token!.slice(3))));

    // The machine it is scoped to accepts it; the instance's key too; a machine not scoped does not.
    const seen = await machineClient(receiver.secretKey!).m2m.verifyToken({ token: made.token! });
    assert.equal(seen.id, made.id);
    assert.equal(seen.token, undefined);
    assert.equal((await clerk.m2m.verifyToken({ token: made.token! })).subject, sender.id);
    await rejectsWith(
      machineClient(outsider.secretKey!).m2m.verifyToken({ token: made.token! }),
      404,
      'resource_not_found',
    );
    // Nor may the token's own machine verify it on behalf of others (it is not scoped to itself).
    await rejectsWith(
      machineClient(sender.secretKey!).m2m.verifyToken({ token: made.token! }),
      404,
      'resource_not_found',
    );

    // authenticateRequest, as a receiving service runs it.
    const request = new Request('https://receiver.example/jobs', {
      headers: { authorization: `Bearer ${made.token}` },
    });
    const asReceiver = createClerkClient({
      apiUrl,
      machineSecretKey: receiver.secretKey!,
      publishableKey: h.identity.publishableKey,
    });
    const state = await asReceiver.authenticateRequest(request, { acceptsToken: 'm2m_token' });
    assert.equal(state.isAuthenticated, true, JSON.stringify(state.reason));
    const auth = state.toAuth() as { machineId: string; claims: unknown; tokenType: string };
    assert.equal(auth.tokenType, 'm2m_token');
    assert.equal(auth.machineId, sender.id);
    assert.deepEqual(auth.claims, { job: 'nightly' });
    const asOutsider = createClerkClient({
      apiUrl,
      machineSecretKey: outsider.secretKey!,
      publishableKey: h.identity.publishableKey,
    });
    const refused = await asOutsider.authenticateRequest(request.clone(), { acceptsToken: 'm2m_token' });
    assert.equal(refused.isAuthenticated, false);

    // Another machine cannot revoke it; its machine can, with a reason; then nobody accepts it.
    await rejectsWith(
      machineClient(receiver.secretKey!).m2m.revokeToken({ m2mTokenId: made.id }),
      404,
      'resource_not_found',
    );
    const revoked = await machineClient(sender.secretKey!).m2m.revokeToken({
      m2mTokenId: made.id,
      revocationReason: 'rotated',
    });
    assert.equal(revoked.revoked, true);
    assert.equal(revoked.revocationReason, 'rotated');
    await rejectsWith(
      machineClient(receiver.secretKey!).m2m.verifyToken({ token: made.token! }),
      404,
      'resource_not_found',
    );
    assert.equal(
      (await asReceiver.authenticateRequest(request.clone(), { acceptsToken: 'm2m_token' })).isAuthenticated,
      false,
    );

    // A scope removed stops the sender's live tokens at once.
    const second = await machineClient(sender.secretKey!).m2m.createToken();
    assert.ok(
      Math.abs(second.expiration! - (h.clock.now.getTime() + 3_600_000)) < 60_000,
      'the machine’s default ttl',
    );
    await clerk.machines.deleteScope(sender.id, receiver.id);
    await rejectsWith(
      machineClient(receiver.secretKey!).m2m.verifyToken({ token: second.token! }),
      404,
      'resource_not_found',
    );
    // The instance's key revokes any token.
    assert.equal((await clerk.m2m.revokeToken({ m2mTokenId: second.id })).revoked, true);
  });

  it('M2M abuse: the instance key makes no token, bad input changes nothing, expired and forged tokens fail', async () => {
    const receiver = await clerk.machines.create({ name: 'r2' });
    const sender = await clerk.machines.create({ name: 's2', scopedMachines: [receiver.id] });
    const tokens = await count('m2m_tokens');
    await rejectsWith(clerk.m2m.createToken(), 403, 'not_allowed_access');
    const asSender = machineClient(sender.secretKey!);
    await rejectsWith(
      asSender.m2m.createToken({ secondsUntilExpiration: 0 }),
      422,
      'form_param_value_invalid',
    );
    await rejectsWith(
      asSender.m2m.createToken({ claims: { big: 'x'.repeat(5000) } }),
      422,
      'form_param_value_invalid',
    );
    assert.equal(await count('m2m_tokens'), tokens);
    await rejectsWith(asSender.m2m.verifyToken({ token: `mt_${'A'.repeat(48)}` }), 404, 'resource_not_found');
    await rejectsWith(asSender.m2m.verifyToken({ token: 'not-a-token' }), 404, 'resource_not_found');
    await rejectsWith(clerk.m2m.revokeToken({ m2mTokenId: 'm2m_doesnotexist' }), 404, 'resource_not_found');

    const short = await asSender.m2m.createToken({ secondsUntilExpiration: 30 });
    h.clock.advance(31);
    try {
      await rejectsWith(
        machineClient(receiver.secretKey!).m2m.verifyToken({ token: short.token! }),
        404,
        'resource_not_found',
      );
    } finally {
      h.clock.advance(-31);
    }
    // Another instance knows nothing of this one's tokens.
    await rejectsWith(otherClerk.m2m.verifyToken({ token: short.token! }), 404, 'resource_not_found');
  });

  it('the purge deletes tokens a day after they expired or were revoked, and keeps the live ones', async () => {
    const receiver = await clerk.machines.create({ name: 'r-purge' });
    const sender = await clerk.machines.create({ name: 's-purge', scopedMachines: [receiver.id] });
    const asSender = machineClient(sender.secretKey!);
    const expiring = await asSender.m2m.createToken({ secondsUntilExpiration: 30 });
    const revoked = await asSender.m2m.createToken();
    await asSender.m2m.revokeToken({ m2mTokenId: revoked.id });
    const present = async (id: string) =>
      (await h.db.query('SELECT 1 FROM m2m_tokens WHERE id = $1', [id])).length === 1;
    const step = 86_400 + 60;
    try {
      // Within the day after: nothing goes yet.
      await purgeExpired(h.db, h.clock.now);
      assert.ok((await present(expiring.id)) && (await present(revoked.id)));
      h.clock.advance(step);
      const live = await asSender.m2m.createToken();
      await purgeExpired(h.db, h.clock.now);
      assert.equal(await present(expiring.id), false, 'expired a day ago: purged');
      assert.equal(await present(revoked.id), false, 'revoked a day ago: purged');
      assert.equal(await present(live.id), true, 'live: kept');
      const verified = await machineClient(receiver.secretKey!).m2m.verifyToken({ token: live.token! });
      assert.equal(verified.id, live.id);
    } finally {
      h.clock.advance(-step);
    }
  });

  it('getSecretKey shows the key; a rotation replaces it, the old one kept only for the delay asked', async () => {
    const receiver = await clerk.machines.create({ name: 'rot-r' });
    const m = await clerk.machines.create({ name: 'rot', scopedMachines: [receiver.id] });
    assert.equal((await clerk.machines.getSecretKey(m.id)).secret, m.secretKey);
    const rotate = (delay?: number) =>
      h.app.inject({
        method: 'POST',
        url: `${BAPI}/v1/machines/${m.id}/secret_key/rotate`,
        headers: { authorization: `Bearer ${h.identity.secretKey}`, 'content-type': 'application/json' },
        payload: JSON.stringify(delay === undefined ? {} : { previous_token_delay: delay }),
      });
    const first = await rotate(300);
    assert.equal(first.statusCode, 200, first.body);
    const key2 = first.json().secret as string;
    assert.notEqual(key2, m.secretKey);
    assert.equal((await clerk.machines.getSecretKey(m.id)).secret, key2);
    // Within the delay both keys make tokens.
    assert.ok((await machineClient(m.secretKey!).m2m.createToken()).token);
    assert.ok((await machineClient(key2).m2m.createToken()).token);
    // A rotation without a delay: the key before stops at once.
    const second = await rotate();
    const key3 = second.json().secret as string;
    await rejectsWith(machineClient(key2).m2m.createToken(), 401, 'clerk_key_invalid');
    await rejectsWith(machineClient(m.secretKey!).m2m.createToken(), 401, 'clerk_key_invalid');
    assert.ok((await machineClient(key3).m2m.createToken()).token);
    const bad = await rotate(-1);
    assert.equal(bad.statusCode, 422);
    assert.equal((await clerk.machines.getSecretKey(m.id)).secret, key3);
    // A machine deleted: its key and its tokens stop.
    const token = await machineClient(key3).m2m.createToken();
    await clerk.machines.delete(m.id);
    await rejectsWith(machineClient(key3).m2m.createToken(), 401, 'clerk_key_invalid');
    await rejectsWith(clerk.m2m.verifyToken({ token: token.token! }), 404, 'resource_not_found');
  });
});
