import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONSOLE_ROUTES } from '../src/console/console-api.ts';
import { isRecentlyVerified } from '../src/console/reverification.ts';
import {
  sessionToken,
  signUpUser,
  signUpWithOrganization,
  startEmbeddedServer,
  type ApiBody,
  type EmbeddedServer,
  type User,
} from './support/embedded-server.ts';
import { newWebhookSecret } from '../../identity/src/webhooks/signing.ts';
import { WebhookReceiver } from '../../identity/test/support/webhook-receiver.ts';
import { enrolTotp } from './support/totp.ts';

/**
 * The operator console's API (docs/console.md) against the real server and its embedded provider: who
 * gets nothing (no token, a non-operator, another organisation's admin, an operator without a second
 * factor, an impersonation), malformed input, re-verification of destructive actions, and every change
 * recorded in the audit log with the operator as its actor.
 */
const backends = [
  { name: 'pglite', databaseUrl: undefined },
  ...(process.env.TEST_DATABASE_URL
    ? [{ name: 'postgres', databaseUrl: process.env.TEST_DATABASE_URL }]
    : []),
];

const RECEIVER_SECRET_ENV = 'CONSOLE_API_TEST_WEBHOOK_SECRET';
const USER_ZERO = 'user_0000000000000000000000000000';
const ORG_ZERO = 'org_0000000000000000000000000000';

/** Every console route with its path filled in for `target` (a user) and `organization`. */
function requests(target: string, organization: string) {
  return CONSOLE_ROUTES.map((route) => ({
    method: route.method,
    url: `/console/api${route.path
      .replace(':userId', target)
      .replace(':organizationId', organization)
      .replace(':sessionId', 'sess_0000000000000000000000000000')
      .replace(':deliveryId', 'msg_0000000000000000000000000000')}`,
    body: route.method === 'POST' ? { reason: 'support ticket 42' } : undefined,
  }));
}

for (const backend of backends) {
  describe(`console API [${backend.name}]`, () => {
    let server: EmbeddedServer;
    let operator: User;
    let enrolling: User;
    let orgAdmin: User & { organizationId: string };
    let target: User & { organizationId: string };
    let receiver: WebhookReceiver;
    const token = (user: User, org: string | null = null) => sessionToken(user, org);
    const get = async (user: User, url: string) => server.api(await token(user), 'GET', url);

    before(async () => {
      const secret = newWebhookSecret();
      process.env[RECEIVER_SECRET_ENV] = secret;
      receiver = await WebhookReceiver.start(secret);
      server = await startEmbeddedServer({ databaseUrl: backend.databaseUrl });
      operator = await signUpUser(server, 'operator');
      await enrolTotp(operator);
      enrolling = await signUpUser(server, 'enrolling');
      orgAdmin = await signUpWithOrganization(server, 'org-admin', 'Admin Org');
      target = await signUpWithOrganization(server, 'target', 'Target Org');
      const settings = server.app.identity!.settings;
      // One by id, one by (verified) address.
      await settings.set({
        ...settings.settings,
        console: { operators: [operator.userId, enrolling.email] },
        webhooks: {
          endpoints: {
            ep_console: { url: receiver.url, events: ['user.created'], secret: { env: RECEIVER_SECRET_ENV } },
          },
        },
      });
    });
    after(async () => {
      await server.stop();
      await receiver.close();
    });

    const events = async (query: string): Promise<ApiBody[]> => {
      const res = await get(operator, `/console/api/audit-events?${query}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data;
    };

    it('answers 401 without a session token, or with one that is not, on every route', async () => {
      for (const r of requests(target.userId, target.organizationId)) {
        for (const bearer of [null, 'not-a-token', `${await token(operator)}x`]) {
          const res = await server.api(bearer, r.method, r.url, r.body);
          assert.equal(res.status, 401, `${r.method} ${r.url}: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.errors[0].code, 'unauthenticated');
        }
      }
    });

    it('answers 403 not_an_operator to a non-operator, another organisation’s admin included, and changes nothing', async () => {
      for (const r of requests(target.userId, target.organizationId)) {
        for (const bearer of [
          await token(orgAdmin, orgAdmin.organizationId),
          await token(target, target.organizationId),
        ]) {
          const res = await server.api(bearer, r.method, r.url, r.body);
          assert.equal(res.status, 403, `${r.method} ${r.url}: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.errors[0].code, 'not_an_operator');
        }
      }
      const user = await get(operator, `/console/api/users/${target.userId}`);
      assert.equal(user.body.user.locked, false);
      assert.equal(user.body.user.banned, false);
      assert.equal((await events(`object_id=${target.userId}&actor_type=operator`)).length, 0);
    });

    it('tells an operator without a second factor to set one up, and gives them no data', async () => {
      const me = await get(enrolling, '/console/api/me');
      assert.equal(me.status, 200, JSON.stringify(me.body));
      assert.deepEqual(me.body, { userId: enrolling.userId, twoFactorEnabled: false });
      for (const r of requests(target.userId, target.organizationId).filter((r) => !r.url.endsWith('/me'))) {
        const res = await server.api(await token(enrolling), r.method, r.url, r.body);
        assert.equal(res.status, 403, `${r.method} ${r.url}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.errors[0].code, 'second_factor_required');
      }
    });

    it('lets an operator with a second factor find a user, lock them, and records it as the operator’s', async () => {
      const me = await get(operator, '/console/api/me');
      assert.deepEqual(me.body, { userId: operator.userId, twoFactorEnabled: true });
      const found = await get(
        operator,
        `/console/api/users?query=${encodeURIComponent(target.email.split('+')[0]!)}`,
      );
      assert.equal(found.status, 200, JSON.stringify(found.body));
      assert.deepEqual(
        found.body.data.map((u: ApiBody) => u.id),
        [target.userId],
      );
      assert.equal(found.body.total_count, 1);
      const page = await get(operator, `/console/api/users/${target.userId}`);
      assert.equal(page.status, 200);
      assert.equal(page.body.user.id, target.userId);
      assert.equal(page.body.sessions[0].user_id, target.userId);
      assert.equal(page.body.organization_memberships[0].organization.id, target.organizationId);

      const locked = await server.api(
        await token(operator),
        'POST',
        `/console/api/users/${target.userId}/lock`,
      );
      assert.equal(locked.status, 200, JSON.stringify(locked.body));
      assert.equal(locked.body.locked, true);
      const [event] = await events(`action=user.lock&object_id=${target.userId}`);
      assert.deepEqual(event.actor, { type: 'operator', id: operator.userId });
      const unlocked = await server.api(
        await token(operator),
        'POST',
        `/console/api/users/${target.userId}/unlock`,
      );
      assert.equal(unlocked.body.locked, false);

      const org = await get(operator, `/console/api/organizations/${target.organizationId}`);
      assert.equal(org.status, 200);
      assert.equal(org.body.organization.id, target.organizationId);
      assert.equal(org.body.memberships[0].public_user_data.user_id, target.userId);
      const orgs = await get(operator, '/console/api/organizations?query=Target');
      assert.ok(orgs.body.data.some((o: ApiBody) => o.id === target.organizationId));
    });

    it('records an impersonation’s reason, and refuses one without a reason', async () => {
      const url = `/console/api/users/${target.userId}/impersonate`;
      for (const body of [
        {},
        { reason: '' },
        { reason: 'x'.repeat(501) },
        { reason: 'a\nb' },
        { reason: 'ok', extra: 1 },
      ]) {
        const res = await server.api(await token(operator), 'POST', url, body);
        assert.equal(res.status, 422, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.errors[0].code, 'invalid_request');
      }
      const reason = 'Ticket n°42 : l’utilisatrice ne voit pas ses factures';
      const res = await server.api(await token(operator), 'POST', url, { reason });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.match(res.body.url, /ticket=/);
      const [event] = await events(`action=actor_token.created&actor_id=${operator.userId}`);
      assert.equal(event.summary.reason, reason);
      assert.deepEqual(event.actor, { type: 'operator', id: operator.userId });
      const self = await server.api(
        await token(operator),
        'POST',
        `/console/api/users/${operator.userId}/impersonate`,
        { reason },
      );
      assert.equal(self.status, 422);
    });

    it('refuses malformed ids and queries (422) and unknown ones (404), and reads no other user’s session', async () => {
      const bearer = await token(operator);
      for (const url of [
        '/console/api/users/not-a-user',
        '/console/api/users/user_%00',
        `/console/api/users?limit=0`,
        `/console/api/users?limit=1000`,
        `/console/api/users?query=${'a'.repeat(201)}`,
        '/console/api/organizations/org_../x',
        '/console/api/audit-events?actor_type=root',
        '/console/api/audit-events?created_at_after=yesterday',
      ]) {
        const res = await server.api(bearer, 'GET', url);
        assert.ok([404, 422].includes(res.status), `${url}: ${res.status} ${JSON.stringify(res.body)}`);
        assert.ok(Array.isArray(res.body.errors), url);
      }
      assert.equal((await server.api(bearer, 'GET', `/console/api/users/${USER_ZERO}`)).status, 404);
      assert.equal((await server.api(bearer, 'GET', `/console/api/organizations/${ORG_ZERO}`)).status, 404);
      assert.equal((await server.api(bearer, 'GET', '/console/api/nothing-here')).status, 404);
      // The operator's own session, named under the target's path: not the target's, so 404, and still active.
      const revoke = await server.api(
        bearer,
        'POST',
        `/console/api/users/${target.userId}/sessions/${operator.sessionId}/revoke`,
      );
      assert.equal(revoke.status, 404, JSON.stringify(revoke.body));
      assert.equal((await get(operator, '/console/api/me')).status, 200);
      const junk = await server.app.fastify.inject({
        method: 'POST',
        url: `/console/api/users/${target.userId}/impersonate`,
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        payload: '{"reason":',
      });
      assert.equal(junk.statusCode, 422);
    });

    it('refuses an impersonation session, even of an operator', async () => {
      const link = await server.api(
        await token(operator),
        'POST',
        `/console/api/users/${target.userId}/impersonate`,
        {
          reason: 'check what the user sees',
        },
      );
      const ticket = new URL(link.body.url).searchParams.get('ticket')!;
      const browser = server.browser();
      const signIn = await browser.call('POST', '/client/sign_ins', { strategy: 'ticket', ticket });
      assert.equal(signIn.body.response.status, 'complete', JSON.stringify(signIn.body));
      const sessionId = signIn.body.response.created_session_id;
      const minted = await browser.call('POST', `/client/sessions/${sessionId}/tokens`);
      const res = await server.api(minted.body.jwt, 'GET', '/console/api/me');
      assert.equal(res.status, 403);
    });

    it('shows, checks and applies a settings change with its version, as the operator’s, and refuses malformed ones', async () => {
      const bearer = await token(operator);
      const read = await get(operator, '/console/api/settings');
      assert.equal(read.status, 200, JSON.stringify(read.body));
      const { version } = read.body;
      const retention: number | undefined = read.body.settings.auditLog?.retentionDays;
      for (const body of [
        {},
        { settings: {} },
        { settings: [], version },
        { settings: { auditLog: { retentionDays: 30 } }, version: 'x' },
        { settings: { auditLog: { retentionDays: 30 } }, version, extra: true },
        { settings: { auditLog: { retentionDays: 30 } }, version: -1 },
      ]) {
        for (const url of ['/console/api/settings/validate', '/console/api/settings/apply']) {
          const res = await server.api(bearer, 'POST', url, body);
          assert.equal(res.status, 422, `${url} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.errors[0].code, 'invalid_request');
        }
      }
      const refused = await server.api(bearer, 'POST', '/console/api/settings/validate', {
        settings: { auditLog: { retentionDays: 'forever' }, nonsense: 1 },
        version,
      });
      assert.equal(refused.status, 200, JSON.stringify(refused.body));
      assert.equal(refused.body.valid, false);
      assert.ok(refused.body.errors.some((e: ApiBody) => e.path === 'auditLog.retentionDays'));
      const refusedApply = await server.api(bearer, 'POST', '/console/api/settings/apply', {
        settings: { auditLog: { retentionDays: 'forever' } },
        version,
      });
      assert.equal(refusedApply.status, 422, JSON.stringify(refusedApply.body));
      assert.equal(refusedApply.body.settings_errors[0].path, 'auditLog.retentionDays');

      const next = retention === 90 ? 91 : 90;
      const change = { settings: { auditLog: { retentionDays: next } }, version };
      const checked = await server.api(bearer, 'POST', '/console/api/settings/validate', change);
      assert.equal(checked.status, 200, JSON.stringify(checked.body));
      // The test's settings have no auditLog section yet: the change is the whole section, or the field.
      assert.equal(checked.body.changes.length, 1, JSON.stringify(checked.body));
      assert.match(checked.body.changes[0].path, /^auditLog(\.retentionDays)?$/);
      assert.match(JSON.stringify(checked.body.changes[0].after), new RegExp(`${next}`));
      assert.equal(
        (await get(operator, '/console/api/settings')).body.version,
        version,
        'validate stores nothing',
      );
      const stale = await server.api(bearer, 'POST', '/console/api/settings/apply', {
        ...change,
        version: version + 1000,
      });
      assert.equal(stale.status, 409, JSON.stringify(stale.body));
      assert.equal(stale.body.errors[0].code, 'settings_conflict');
      const applied = await server.api(bearer, 'POST', '/console/api/settings/apply', change);
      assert.equal(applied.status, 200, JSON.stringify(applied.body));
      assert.equal(applied.body.settings.auditLog.retentionDays, next);
      assert.deepEqual(applied.body.restart_required, []);
      const [event] = await events('action=instance_settings.updated');
      assert.deepEqual(event.actor, { type: 'operator', id: operator.userId });
      const again = await server.api(bearer, 'POST', '/console/api/settings/apply', change);
      assert.equal(again.status, 409, 'the version read is stale once applied');
    });

    it('lists webhook endpoints and deliveries, shows one and replays it as the operator’s', async () => {
      const bearer = await token(operator);
      const endpoints = await get(operator, '/console/api/webhooks/endpoints');
      assert.equal(endpoints.status, 200, JSON.stringify(endpoints.body));
      assert.ok(endpoints.body.data.every((e: ApiBody) => !('secret' in e)));
      for (const url of [
        '/console/api/webhooks/deliveries?status=lost',
        '/console/api/webhooks/deliveries?endpoint_id=../x',
        '/console/api/webhooks/deliveries?event_type=user',
        '/console/api/webhooks/deliveries?limit=1000',
        '/console/api/webhooks/deliveries/not-a-delivery',
      ]) {
        const res = await server.api(bearer, 'GET', url);
        assert.equal(res.status, 422, `${url}: ${JSON.stringify(res.body)}`);
      }
      const bad = await server.api(bearer, 'POST', '/console/api/webhooks/deliveries/msg_%2e%2e/replay');
      assert.ok([404, 422].includes(bad.status), JSON.stringify(bad.body));
      const unknown = await server.api(
        bearer,
        'POST',
        '/console/api/webhooks/deliveries/msg_0000000000000000000000000000/replay',
      );
      assert.equal(unknown.status, 404, JSON.stringify(unknown.body));
      const hooked = await signUpUser(server, 'hooked');
      await receiver.waitFor(() => receiver.delivered.some((r) => r.data.id === hooked.userId));
      let delivery: ApiBody | undefined;
      for (let i = 0; i < 50 && !delivery; i++) {
        const list = await get(
          operator,
          '/console/api/webhooks/deliveries?event_type=user.created&status=delivered&endpoint_id=ep_console',
        );
        assert.equal(list.status, 200, JSON.stringify(list.body));
        assert.ok(list.body.data.every((d: ApiBody) => d.event_type === 'user.created'));
        delivery = list.body.data[0];
        if (!delivery) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      assert.ok(delivery, 'the delivery is listed');
      const details = await get(operator, `/console/api/webhooks/deliveries/${delivery.id}`);
      assert.equal(details.status, 200, JSON.stringify(details.body));
      assert.ok(Array.isArray(details.body.attempts));
      const received = receiver.delivered.filter((r) => r.data.id === hooked.userId).length;
      const replayed = await server.api(
        bearer,
        'POST',
        `/console/api/webhooks/deliveries/${delivery.id}/replay`,
      );
      assert.equal(replayed.status, 200, JSON.stringify(replayed.body));
      assert.notEqual(replayed.body.id, delivery.id);
      await receiver.waitFor(
        () => receiver.delivered.filter((r) => r.data.id === hooked.userId).length > received,
      );
      const [event] = await events(`action=webhook_delivery.replay&object_id=${delivery.id}`);
      assert.deepEqual(event.actor, { type: 'operator', id: operator.userId });
    });

    it('asks for re-verification before a destructive action on a session that proved its factors long ago', async () => {
      assert.equal(isRecentlyVerified(null), false);
      assert.equal(isRecentlyVerified([1, -1]), true);
      assert.equal(isRecentlyVerified([1, 30]), false);
      assert.equal(isRecentlyVerified([30, 2]), true);
      await server.db.query(
        `UPDATE sessions SET first_factor_verified_at = first_factor_verified_at - interval '1 hour',
           second_factor_verified_at = COALESCE(second_factor_verified_at, created_at) - interval '1 hour',
           created_at = created_at - interval '1 hour' WHERE id = $1`,
        [operator.sessionId],
      );
      const bearer = await token(operator);
      for (const [method, url] of [
        ['DELETE', `/console/api/users/${target.userId}/mfa`],
        ['POST', `/console/api/users/${target.userId}/ban`],
        ['DELETE', `/console/api/users/${target.userId}`],
        ['POST', '/console/api/settings/apply'],
      ] as const) {
        const res = await server.api(bearer, method, url);
        assert.equal(res.status, 403, `${method} ${url}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.errors[0].code, 'session_reverification_required');
        assert.deepEqual(res.body.clerk_error, {
          type: 'forbidden',
          reason: 'reverification-error',
          metadata: { reverification: { level: 'second_factor', afterMinutes: 10 } },
        });
      }
      const user = await get(operator, `/console/api/users/${target.userId}`);
      assert.equal(user.body.user.banned, false);
      // Not destructive: no re-verification.
      const lock = await server.api(bearer, 'POST', `/console/api/users/${target.userId}/lock`);
      assert.equal(lock.status, 200);
      await server.api(bearer, 'POST', `/console/api/users/${target.userId}/unlock`);
    });

    it('exports the audit log as JSON lines, with the filters', async () => {
      const res = await server.app.fastify.inject({
        method: 'GET',
        url: `/console/api/audit-events/export?actor_type=operator&actor_id=${operator.userId}`,
        headers: { authorization: `Bearer ${await token(operator)}` },
      });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /application\/x-ndjson/);
      assert.match(String(res.headers['content-disposition']), /audit-events\.jsonl/);
      const lines = res.body
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.ok(lines.length >= 3);
      assert.ok(lines.every((e) => e.actor.type === 'operator' && e.actor.id === operator.userId));
    });

    it('is never framed', async () => {
      for (const url of ['/console', '/console/users', '/console/api/me']) {
        const res = await server.app.fastify.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
        assert.equal(res.headers['x-frame-options'], 'DENY', url);
        assert.match(String(res.headers['content-security-policy']), /frame-ancestors 'none'/, url);
      }
    });
  });
}
