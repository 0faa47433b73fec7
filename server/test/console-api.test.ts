import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONSOLE_ROUTES } from '../src/console/console-api.ts';
import { isRecentlyVerified } from '../src/console/reverification.ts';
import { startConsoleWorld, token, type ConsoleWorld } from './support/console-world.ts';
import { signUpUser, type ApiBody, TEST_BACKENDS } from './support/embedded-server.ts';
import { newWebhookSecret } from '../../identity/src/webhooks/signing.ts';
import { WebhookReceiver } from '../../identity/test/support/webhook-receiver.ts';

/**
 * The operator console's API (docs/console.md) against the real server and its embedded provider: who
 * gets nothing (no token, a non-operator, another organisation's admin, an operator without a second
 * factor, an impersonation), malformed input, re-verification of destructive actions, and every change
 * recorded in the audit log with the operator as its actor.
 */
const RECEIVER_SECRET_ENV = 'CONSOLE_API_TEST_WEBHOOK_SECRET';
const USER_ZERO = 'user_0000000000000000000000000000';
const ORG_ZERO = 'org_0000000000000000000000000000';

/** A well-formed body for a console POST: a refusal then shows the caller, not the input, was refused. */
function validBody(path: string) {
  if (path === '/sign-up/invitations') return { email_address: 'refused+clerk_test@example.com' };
  if (/^\/sign-up\/(allow|block)list$/.test(path)) return { identifier: 'refused+clerk_test@example.com' };
  if (path.endsWith('/modules')) return { compliance: true };
  if (path === '/applications/oauth')
    return { name: 'Refused', redirect_uris: ['https://refused.example/cb'], public: false, scopes: [] };
  if (path === '/applications/machines') return { name: 'refused' };
  if (path.startsWith('/applications/')) return {};
  return { reason: 'support ticket 42' };
}

/**
 * Every console route with its path filled in for `target` (a user), `organization` and, in the sign-up
 * area, `signUp`'s waitlist entry, invitation and listed identifiers (unknown ids when not given).
 */
function requests(
  target: string,
  organization: string,
  signUp: { entryId?: string; invitationId?: string; allowlistId?: string; blocklistId?: string } = {},
) {
  return CONSOLE_ROUTES.map((route) => ({
    method: route.method,
    url: `/console/api${route.path
      .replace(':userId', target)
      .replace(':organizationId', organization)
      .replace(':sessionId', 'sess_0000000000000000000000000000')
      .replace(':passkeyId', 'idn_0000000000000000000000000000')
      .replace(':deliveryId', 'msg_0000000000000000000000000000')
      .replace(':entryId', signUp.entryId ?? 'wle_0000000000000000000000000000')
      .replace(':invitationId', signUp.invitationId ?? 'inv_0000000000000000000000000000')
      .replace(':apiKeyId', 'ak_0000000000000000000000000000')
      .replace(':applicationId', 'oa_0000000000000000000000000000')
      .replace(':machineId', 'mch_0000000000000000000000000000')
      .replace(
        ':identifierId',
        route.path.includes('allowlist')
          ? (signUp.allowlistId ?? 'alid_0000000000000000000000000000')
          : (signUp.blocklistId ?? 'blid_0000000000000000000000000000'),
      )}`,
    body: route.method === 'POST' ? validBody(route.path) : undefined,
  }));
}

for (const backend of TEST_BACKENDS) {
  describe(`console API [${backend.name}]`, () => {
    let world: ConsoleWorld;
    let receiver: WebhookReceiver;

    before(async () => {
      const secret = newWebhookSecret();
      process.env[RECEIVER_SECRET_ENV] = secret;
      receiver = await WebhookReceiver.start(secret);
      // One operator by id, the other by (verified) address.
      world = await startConsoleWorld({
        databaseUrl: backend.databaseUrl,
        enrollingBy: 'email',
        settings: {
          webhooks: {
            endpoints: {
              ep_console: {
                url: receiver.url,
                events: ['user.created'],
                secret: { env: RECEIVER_SECRET_ENV },
              },
            },
          },
        },
      });
    });
    after(async () => {
      await world.server.stop();
      await receiver.close();
    });

    const events = async (query: string): Promise<ApiBody[]> => {
      const res = await world.get(world.operator, `/console/api/audit-events?${query}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data;
    };

    it('answers 401 without a session token, or with one that is not, on every route', async () => {
      for (const r of requests(world.target.userId, world.target.organizationId)) {
        for (const bearer of [null, 'not-a-token', `${await token(world.operator)}x`]) {
          const res = await world.server.api(bearer, r.method, r.url, r.body);
          assert.equal(res.status, 401, `${r.method} ${r.url}: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.errors[0].code, 'unauthenticated');
        }
      }
    });

    it('answers 403 not_an_operator to a non-operator, another organisation’s admin included, and changes nothing', async () => {
      for (const r of requests(world.target.userId, world.target.organizationId)) {
        for (const bearer of [
          await token(world.orgAdmin, world.orgAdmin.organizationId),
          await token(world.target, world.target.organizationId),
        ]) {
          const res = await world.server.api(bearer, r.method, r.url, r.body);
          assert.equal(res.status, 403, `${r.method} ${r.url}: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.errors[0].code, 'not_an_operator');
        }
      }
      const user = await world.get(world.operator, `/console/api/users/${world.target.userId}`);
      assert.equal(user.body.user.locked, false);
      assert.equal(user.body.user.banned, false);
      assert.equal((await events(`object_id=${world.target.userId}&actor_type=operator`)).length, 0);
    });

    it('tells an operator without a second factor to set one up, and gives them no data', async () => {
      const me = await world.get(world.enrolling, '/console/api/me');
      assert.equal(me.status, 200, JSON.stringify(me.body));
      assert.deepEqual(me.body, { userId: world.enrolling.userId, twoFactorEnabled: false });
      for (const r of requests(world.target.userId, world.target.organizationId).filter(
        (r) => !r.url.endsWith('/me'),
      )) {
        const res = await world.server.api(await token(world.enrolling), r.method, r.url, r.body);
        assert.equal(res.status, 403, `${r.method} ${r.url}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.errors[0].code, 'second_factor_required');
      }
    });

    it('lets an operator with a second factor find a user, lock them, and records it as the operator’s', async () => {
      const me = await world.get(world.operator, '/console/api/me');
      assert.deepEqual(me.body, { userId: world.operator.userId, twoFactorEnabled: true });
      const found = await world.get(
        world.operator,
        `/console/api/users?query=${encodeURIComponent(world.target.email.split('+')[0]!)}`,
      );
      assert.equal(found.status, 200, JSON.stringify(found.body));
      assert.deepEqual(
        found.body.data.map((u: ApiBody) => u.id),
        [world.target.userId],
      );
      assert.equal(found.body.total_count, 1);
      const page = await world.get(world.operator, `/console/api/users/${world.target.userId}`);
      assert.equal(page.status, 200);
      assert.equal(page.body.user.id, world.target.userId);
      assert.equal(page.body.sessions[0].user_id, world.target.userId);
      assert.equal(page.body.organization_memberships[0].organization.id, world.target.organizationId);

      const locked = await world.server.api(
        await token(world.operator),
        'POST',
        `/console/api/users/${world.target.userId}/lock`,
      );
      assert.equal(locked.status, 200, JSON.stringify(locked.body));
      assert.equal(locked.body.locked, true);
      const [event] = await events(`action=user.lock&object_id=${world.target.userId}`);
      assert.deepEqual(event.actor, { type: 'operator', id: world.operator.userId });
      const unlocked = await world.server.api(
        await token(world.operator),
        'POST',
        `/console/api/users/${world.target.userId}/unlock`,
      );
      assert.equal(unlocked.body.locked, false);

      const org = await world.get(
        world.operator,
        `/console/api/organizations/${world.target.organizationId}`,
      );
      assert.equal(org.status, 200);
      assert.equal(org.body.organization.id, world.target.organizationId);
      assert.equal(org.body.memberships[0].public_user_data.user_id, world.target.userId);
      const orgs = await world.get(world.operator, '/console/api/organizations?query=Target');
      assert.ok(orgs.body.data.some((o: ApiBody) => o.id === world.target.organizationId));
    });

    it('records an impersonation’s reason, and refuses one without a reason', async () => {
      const url = `/console/api/users/${world.target.userId}/impersonate`;
      for (const body of [
        {},
        { reason: '' },
        { reason: 'x'.repeat(501) },
        { reason: 'a\nb' },
        { reason: 'ok', extra: 1 },
      ]) {
        const res = await world.server.api(await token(world.operator), 'POST', url, body);
        assert.equal(res.status, 422, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.errors[0].code, 'invalid_request');
      }
      const reason = 'Ticket n°42 : l’utilisatrice ne voit pas ses factures';
      const res = await world.server.api(await token(world.operator), 'POST', url, { reason });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.match(res.body.url, /ticket=/);
      const [event] = await events(`action=actor_token.created&actor_id=${world.operator.userId}`);
      assert.equal(event.summary.reason, reason);
      assert.deepEqual(event.actor, { type: 'operator', id: world.operator.userId });
      const self = await world.server.api(
        await token(world.operator),
        'POST',
        `/console/api/users/${world.operator.userId}/impersonate`,
        { reason },
      );
      assert.equal(self.status, 422);
    });

    it('refuses malformed ids and queries (422) and unknown ones (404), and reads no other user’s session', async () => {
      const bearer = await token(world.operator);
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
        const res = await world.server.api(bearer, 'GET', url);
        assert.ok([404, 422].includes(res.status), `${url}: ${res.status} ${JSON.stringify(res.body)}`);
        assert.ok(Array.isArray(res.body.errors), url);
      }
      assert.equal((await world.server.api(bearer, 'GET', `/console/api/users/${USER_ZERO}`)).status, 404);
      assert.equal(
        (await world.server.api(bearer, 'GET', `/console/api/organizations/${ORG_ZERO}`)).status,
        404,
      );
      assert.equal((await world.server.api(bearer, 'GET', '/console/api/nothing-here')).status, 404);
      // The operator's own session, named under the target's path: not the target's, so 404, and still active.
      const revoke = await world.server.api(
        bearer,
        'POST',
        `/console/api/users/${world.target.userId}/sessions/${world.operator.sessionId}/revoke`,
      );
      assert.equal(revoke.status, 404, JSON.stringify(revoke.body));
      assert.equal((await world.get(world.operator, '/console/api/me')).status, 200);
      const junk = await world.server.app.fastify.inject({
        method: 'POST',
        url: `/console/api/users/${world.target.userId}/impersonate`,
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        payload: '{"reason":',
      });
      assert.equal(junk.statusCode, 422);
    });

    it('refuses an impersonation session, even of an operator', async () => {
      const link = await world.server.api(
        await token(world.operator),
        'POST',
        `/console/api/users/${world.target.userId}/impersonate`,
        {
          reason: 'check what the user sees',
        },
      );
      const ticket = new URL(link.body.url).searchParams.get('ticket')!;
      const browser = world.server.browser();
      const signIn = await browser.call('POST', '/client/sign_ins', { strategy: 'ticket', ticket });
      assert.equal(signIn.body.response.status, 'complete', JSON.stringify(signIn.body));
      const sessionId = signIn.body.response.created_session_id;
      const minted = await browser.call('POST', `/client/sessions/${sessionId}/tokens`);
      const res = await world.server.api(minted.body.jwt, 'GET', '/console/api/me');
      assert.equal(res.status, 403);
    });

    it('shows, checks and applies a settings change with its version, as the operator’s, and refuses malformed ones', async () => {
      const bearer = await token(world.operator);
      const read = await world.get(world.operator, '/console/api/settings');
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
          const res = await world.server.api(bearer, 'POST', url, body);
          assert.equal(res.status, 422, `${url} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.errors[0].code, 'invalid_request');
        }
      }
      const refused = await world.server.api(bearer, 'POST', '/console/api/settings/validate', {
        settings: { auditLog: { retentionDays: 'forever' }, nonsense: 1 },
        version,
      });
      assert.equal(refused.status, 200, JSON.stringify(refused.body));
      assert.equal(refused.body.valid, false);
      assert.ok(refused.body.errors.some((e: ApiBody) => e.path === 'auditLog.retentionDays'));
      const refusedApply = await world.server.api(bearer, 'POST', '/console/api/settings/apply', {
        settings: { auditLog: { retentionDays: 'forever' } },
        version,
      });
      assert.equal(refusedApply.status, 422, JSON.stringify(refusedApply.body));
      assert.equal(refusedApply.body.settings_errors[0].path, 'auditLog.retentionDays');

      const next = retention === 90 ? 91 : 90;
      const change = { settings: { auditLog: { retentionDays: next } }, version };
      const checked = await world.server.api(bearer, 'POST', '/console/api/settings/validate', change);
      assert.equal(checked.status, 200, JSON.stringify(checked.body));
      // The test's settings have no auditLog section yet: the change is the whole section, or the field.
      assert.equal(checked.body.changes.length, 1, JSON.stringify(checked.body));
      assert.match(checked.body.changes[0].path, /^auditLog(\.retentionDays)?$/);
      assert.match(JSON.stringify(checked.body.changes[0].after), new RegExp(`${next}`));
      assert.equal(
        (await world.get(world.operator, '/console/api/settings')).body.version,
        version,
        'validate stores nothing',
      );
      const stale = await world.server.api(bearer, 'POST', '/console/api/settings/apply', {
        ...change,
        version: version + 1000,
      });
      assert.equal(stale.status, 409, JSON.stringify(stale.body));
      assert.equal(stale.body.errors[0].code, 'settings_conflict');
      const applied = await world.server.api(bearer, 'POST', '/console/api/settings/apply', change);
      assert.equal(applied.status, 200, JSON.stringify(applied.body));
      assert.equal(applied.body.settings.auditLog.retentionDays, next);
      assert.deepEqual(applied.body.restart_required, []);
      const [event] = await events('action=instance_settings.updated');
      assert.deepEqual(event.actor, { type: 'operator', id: world.operator.userId });
      const again = await world.server.api(bearer, 'POST', '/console/api/settings/apply', change);
      assert.equal(again.status, 409, 'the version read is stale once applied');
    });

    it('lists webhook endpoints and deliveries, shows one and replays it as the operator’s', async () => {
      const bearer = await token(world.operator);
      const endpoints = await world.get(world.operator, '/console/api/webhooks/endpoints');
      assert.equal(endpoints.status, 200, JSON.stringify(endpoints.body));
      assert.ok(endpoints.body.data.every((e: ApiBody) => !('secret' in e)));
      for (const url of [
        '/console/api/webhooks/deliveries?status=lost',
        '/console/api/webhooks/deliveries?endpoint_id=../x',
        '/console/api/webhooks/deliveries?event_type=user',
        '/console/api/webhooks/deliveries?limit=1000',
        '/console/api/webhooks/deliveries/not-a-delivery',
      ]) {
        const res = await world.server.api(bearer, 'GET', url);
        assert.equal(res.status, 422, `${url}: ${JSON.stringify(res.body)}`);
      }
      const bad = await world.server.api(
        bearer,
        'POST',
        '/console/api/webhooks/deliveries/msg_%2e%2e/replay',
      );
      assert.ok([404, 422].includes(bad.status), JSON.stringify(bad.body));
      const unknown = await world.server.api(
        bearer,
        'POST',
        '/console/api/webhooks/deliveries/msg_0000000000000000000000000000/replay',
      );
      assert.equal(unknown.status, 404, JSON.stringify(unknown.body));
      const hooked = await signUpUser(world.server, 'hooked');
      await receiver.waitFor(() => receiver.delivered.some((r) => r.data.id === hooked.userId));
      let delivery: ApiBody | undefined;
      for (let i = 0; i < 50 && !delivery; i++) {
        const list = await world.get(
          world.operator,
          '/console/api/webhooks/deliveries?event_type=user.created&status=delivered&endpoint_id=ep_console',
        );
        assert.equal(list.status, 200, JSON.stringify(list.body));
        assert.ok(list.body.data.every((d: ApiBody) => d.event_type === 'user.created'));
        delivery = list.body.data[0];
        if (!delivery) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      assert.ok(delivery, 'the delivery is listed');
      const details = await world.get(world.operator, `/console/api/webhooks/deliveries/${delivery.id}`);
      assert.equal(details.status, 200, JSON.stringify(details.body));
      assert.ok(Array.isArray(details.body.attempts));
      const received = receiver.delivered.filter((r) => r.data.id === hooked.userId).length;
      const replayed = await world.server.api(
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
      assert.deepEqual(event.actor, { type: 'operator', id: world.operator.userId });
    });

    /** Joins the waitlist as <Waitlist/> does (the Frontend API), and answers the entry's id. */
    const joinWaitlist = async (label: string) => {
      const email = `${label}-${Date.now().toString(36)}@waitlist.example`;
      const joined = await world.server.browser().call('POST', '/waitlist', { email_address: email });
      assert.equal(joined.status, 200, JSON.stringify(joined.body));
      const found = await world.get(
        world.operator,
        `/console/api/sign-up/waitlist?query=${encodeURIComponent(email)}`,
      );
      assert.equal(found.body.data.length, 1, JSON.stringify(found.body));
      return { id: found.body.data[0].id as string, email };
    };
    /** The operator's audit events of `action`, newest first. */
    const operatorEvents = (action: string, objectId?: string) =>
      events(
        `actor_type=operator&actor_id=${world.operator.userId}&action=${action}${objectId ? `&object_id=${objectId}` : ''}`,
      );

    it('lists the waitlist by status, address and page, invites and rejects entries, as the operator’s', async () => {
      const bearer = await token(world.operator);
      const first = await joinWaitlist('first');
      const second = await joinWaitlist('second');
      const pending = await world.get(world.operator, '/console/api/sign-up/waitlist?status=pending&limit=1');
      assert.equal(pending.status, 200, JSON.stringify(pending.body));
      assert.equal(pending.body.total_count, 2);
      assert.deepEqual(
        pending.body.data.map((e: ApiBody) => e.id),
        [second.id],
        'newest first, one a page',
      );
      const next = await world.get(
        world.operator,
        '/console/api/sign-up/waitlist?status=pending&limit=1&offset=1',
      );
      assert.deepEqual(
        next.body.data.map((e: ApiBody) => e.id),
        [first.id],
      );

      const invited = await world.server.api(
        bearer,
        'POST',
        `/console/api/sign-up/waitlist/${first.id}/invite`,
      );
      assert.equal(invited.status, 200, JSON.stringify(invited.body));
      assert.equal(invited.body.status, 'invited');
      assert.equal(invited.body.email_address, first.email);
      const [invite] = await operatorEvents('waitlist_entry.invite', first.id);
      assert.ok(invite, 'the invitation is in the audit log as the operator’s');
      const rejected = await world.server.api(
        bearer,
        'POST',
        `/console/api/sign-up/waitlist/${second.id}/reject`,
      );
      assert.equal(rejected.status, 200, JSON.stringify(rejected.body));
      assert.equal(rejected.body.status, 'rejected');
      assert.equal((await operatorEvents('waitlist_entry.reject', second.id)).length, 1);
      const byStatus = await world.get(world.operator, '/console/api/sign-up/waitlist?status=invited');
      assert.deepEqual(
        byStatus.body.data.map((e: ApiBody) => e.id),
        [first.id],
      );
      // The invitation sent to the entry is an invitation to the application, listed with the others.
      const invitations = await world.get(
        world.operator,
        `/console/api/sign-up/invitations?query=${encodeURIComponent(first.email)}`,
      );
      assert.equal(invitations.body.data[0]?.email_address, first.email, JSON.stringify(invitations.body));
    });

    it('creates, lists and revokes invitations to the application, as the operator’s', async () => {
      const bearer = await token(world.operator);
      const email = `invited-${Date.now().toString(36)}@invitations.example`;
      const created = await world.server.api(bearer, 'POST', '/console/api/sign-up/invitations', {
        email_address: email,
        redirect_url: `${world.server.origin}/dashboard`,
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      assert.equal(created.body.status, 'pending');
      assert.match(created.body.url, /ticket=/);
      const [event] = await operatorEvents('invitation.created');
      assert.equal(event.summary.after.email_address, email);
      const listed = await world.get(
        world.operator,
        `/console/api/sign-up/invitations?status=pending&limit=100`,
      );
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.ok(listed.body.data.some((i: ApiBody) => i.id === created.body.id));
      assert.ok(listed.body.total_count >= 1);

      const revoked = await world.server.api(
        bearer,
        'POST',
        `/console/api/sign-up/invitations/${created.body.id}/revoke`,
      );
      assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
      assert.equal(revoked.body.status, 'revoked');
      assert.equal((await operatorEvents('invitation.revoke', created.body.id)).length, 1);
      const again = await world.server.api(
        bearer,
        'POST',
        `/console/api/sign-up/invitations/${created.body.id}/revoke`,
      );
      assert.equal(again.status, 422, `a revoked invitation stays revoked: ${JSON.stringify(again.body)}`);
      assert.equal(again.body.errors[0].code, 'change_refused');
      const byStatus = await world.get(world.operator, `/console/api/sign-up/invitations?status=revoked`);
      assert.ok(byStatus.body.data.some((i: ApiBody) => i.id === created.body.id));
    });

    it('adds and removes allow list and block list identifiers, as the operator’s', async () => {
      const bearer = await token(world.operator);
      for (const list of ['allowlist', 'blocklist'] as const) {
        const object = `${list}_identifier`;
        const added = await world.server.api(bearer, 'POST', `/console/api/sign-up/${list}`, {
          identifier: '@Listed.Example',
        });
        assert.equal(added.status, 200, JSON.stringify(added.body));
        assert.equal(added.body.identifier, '*@listed.example');
        assert.equal(added.body.object, object);
        assert.equal((await operatorEvents(`${object}.created`)).length, 1);
        const duplicate = await world.server.api(bearer, 'POST', `/console/api/sign-up/${list}`, {
          identifier: '*@listed.example',
        });
        assert.equal(duplicate.status, 422, JSON.stringify(duplicate.body));
        assert.equal(duplicate.body.errors[0].code, 'change_refused');
        const listed = await world.get(world.operator, `/console/api/sign-up/${list}`);
        assert.equal(listed.status, 200, JSON.stringify(listed.body));
        assert.deepEqual(
          listed.body.data.map((i: ApiBody) => i.id),
          [added.body.id],
        );
        assert.equal(listed.body.total_count, 1);
        const removed = await world.server.api(
          bearer,
          'DELETE',
          `/console/api/sign-up/${list}/${added.body.id}`,
        );
        assert.equal(removed.status, 200, JSON.stringify(removed.body));
        assert.equal(removed.body.deleted, true);
        assert.equal((await operatorEvents(`${object}.deleted`, added.body.id)).length, 1);
        assert.equal((await world.get(world.operator, `/console/api/sign-up/${list}`)).body.total_count, 0);
      }
    });

    it('in the sign-up area, lets no one else change anything and refuses bad input before any change', async () => {
      const bearer = await token(world.operator);
      const entry = await joinWaitlist('untouched');
      const invitation = await world.server.api(bearer, 'POST', '/console/api/sign-up/invitations', {
        email_address: `untouched-${Date.now().toString(36)}@invitations.example`,
      });
      const blocked = await world.server.api(bearer, 'POST', '/console/api/sign-up/blocklist', {
        identifier: 'untouched@blocked.example',
      });
      assert.equal(blocked.status, 200, JSON.stringify(blocked.body));
      /** What the sign-up area holds and what the log says was done to it: neither may move below. */
      const state = async () => {
        const read = async (url: string) => {
          const res = await world.get(world.operator, url);
          assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
          return res.body;
        };
        const [waitlist, invitations, allowlist, blocklist, audit] = await Promise.all([
          read('/console/api/sign-up/waitlist?limit=100'),
          read('/console/api/sign-up/invitations?limit=100'),
          read('/console/api/sign-up/allowlist?limit=100'),
          read('/console/api/sign-up/blocklist?limit=100'),
          read('/console/api/audit-events?limit=100'),
        ]);
        return JSON.stringify({
          waitlist: waitlist.data.map((e: ApiBody) => [e.id, e.status]),
          invitations: invitations.data.map((i: ApiBody) => [i.id, i.status]),
          allowlist: allowlist.data.map((i: ApiBody) => i.id),
          blocklist: blocklist.data.map((i: ApiBody) => i.id),
          audit: audit.total_count,
        });
      };
      const before = await state();
      const real = requests(world.target.userId, world.target.organizationId, {
        entryId: entry.id,
        invitationId: invitation.body.id,
        blocklistId: blocked.body.id,
      }).filter((r) => r.url.includes('/sign-up/'));
      for (const r of real) {
        for (const [who, bearer, code] of [
          [
            'an organisation admin',
            await token(world.orgAdmin, world.orgAdmin.organizationId),
            'not_an_operator',
          ],
          ['an operator without a second factor', await token(world.enrolling), 'second_factor_required'],
        ] as const) {
          const res = await world.server.api(bearer, r.method, r.url, r.body);
          assert.equal(res.status, 403, `${who}: ${r.method} ${r.url}: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.errors[0].code, code);
        }
      }
      assert.equal(await state(), before, 'nothing changed, nothing recorded');

      await world.refusesAsMalformed(bearer, [
        ['GET', '/console/api/sign-up/waitlist?status=lost'],
        ['GET', '/console/api/sign-up/waitlist?limit=0'],
        ['GET', '/console/api/sign-up/waitlist?limit=101'],
        ['GET', `/console/api/sign-up/waitlist?query=${'a'.repeat(201)}`],
        ['GET', '/console/api/sign-up/invitations?status=accepted,revoked'],
        ['GET', '/console/api/sign-up/allowlist?offset=-1'],
        ['POST', '/console/api/sign-up/waitlist/not-an-entry/invite'],
        ['POST', `/console/api/sign-up/waitlist/${invitation.body.id}/reject`],
        ['POST', `/console/api/sign-up/invitations/${entry.id}/revoke`],
        ['DELETE', `/console/api/sign-up/allowlist/${blocked.body.id}`],
        ['DELETE', '/console/api/sign-up/blocklist/blid_%2e%2e'],
        ['POST', '/console/api/sign-up/invitations', {}],
        ['POST', '/console/api/sign-up/invitations', { email_address: 'not an address' }],
        [
          'POST',
          '/console/api/sign-up/invitations',
          { email_address: 'x@invitations.example', role: 'admin' },
        ],
        [
          'POST',
          '/console/api/sign-up/invitations',
          { email_address: 'x@invitations.example', redirect_url: 'javascript:alert(1)' },
        ],
        ['POST', '/console/api/sign-up/invitations', [{ email_address: 'x@invitations.example' }]],
        ['POST', '/console/api/sign-up/allowlist', {}],
        ['POST', '/console/api/sign-up/allowlist', { identifier: '' }],
        ['POST', '/console/api/sign-up/allowlist', { identifier: 'a@b.example\nc@d.example' }],
        ['POST', '/console/api/sign-up/blocklist', { identifier: 'x'.repeat(255) }],
        ['POST', '/console/api/sign-up/blocklist', { identifier: 42 }],
      ]);
      // Well formed, refused by the Backend API: its message kept, nothing stored.
      for (const [url, body] of [
        [
          '/console/api/sign-up/invitations',
          { email_address: 'x@invitations.example', redirect_url: 'https://elsewhere.example/welcome' },
        ],
        ['/console/api/sign-up/allowlist', { identifier: 'no-at-sign' }],
      ] as const) {
        const res = await world.server.api(bearer, 'POST', url, body);
        assert.equal(res.status, 422, `${url} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.errors[0].code, 'change_refused');
        assert.ok(res.body.errors[0].message, 'the Backend API’s reason is kept');
      }
      for (const [method, url] of [
        ['POST', '/console/api/sign-up/waitlist/wle_0000000000000000000000000000/invite'],
        ['POST', '/console/api/sign-up/invitations/inv_0000000000000000000000000000/revoke'],
        ['DELETE', '/console/api/sign-up/blocklist/blid_0000000000000000000000000000'],
        ['POST', '/console/api/applications/api-keys/ak_0000000000000000000000000000/revoke'],
        ['POST', '/console/api/applications/oauth/oa_0000000000000000000000000000/rotate-secret'],
        ['DELETE', '/console/api/applications/oauth/oa_0000000000000000000000000000'],
        ['DELETE', '/console/api/applications/machines/mch_0000000000000000000000000000'],
      ] as const) {
        const res = await world.server.api(bearer, method, url);
        assert.equal(res.status, 404, `${method} ${url}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.errors[0].code, 'resource_not_found');
      }
      assert.equal(await state(), before, 'nothing changed, nothing recorded');
      await world.server.api(bearer, 'DELETE', `/console/api/sign-up/blocklist/${blocked.body.id}`);
    });

    it('asks for re-verification before a destructive action on a session that proved its factors long ago', async () => {
      assert.equal(isRecentlyVerified(null), false);
      assert.equal(isRecentlyVerified([1, -1]), true);
      assert.equal(isRecentlyVerified([1, 30]), false);
      assert.equal(isRecentlyVerified([30, 2]), true);
      await world.server.db.query(
        `UPDATE sessions SET first_factor_verified_at = first_factor_verified_at - interval '1 hour',
           second_factor_verified_at = COALESCE(second_factor_verified_at, created_at) - interval '1 hour',
           created_at = created_at - interval '1 hour' WHERE id = $1`,
        [world.operator.sessionId],
      );
      const bearer = await token(world.operator);
      for (const [method, url] of [
        ['DELETE', `/console/api/users/${world.target.userId}/mfa`],
        ['POST', `/console/api/users/${world.target.userId}/ban`],
        ['DELETE', `/console/api/users/${world.target.userId}`],
        ['POST', '/console/api/settings/apply'],
        ['POST', '/console/api/sign-up/waitlist/wle_0000000000000000000000000000/reject'],
        ['POST', '/console/api/sign-up/invitations/inv_0000000000000000000000000000/revoke'],
        ['DELETE', '/console/api/sign-up/allowlist/alid_0000000000000000000000000000'],
        ['DELETE', '/console/api/sign-up/blocklist/blid_0000000000000000000000000000'],
        ['POST', '/console/api/applications/api-keys/ak_0000000000000000000000000000/revoke'],
        ['POST', '/console/api/applications/oauth/oa_0000000000000000000000000000/rotate-secret'],
        ['DELETE', '/console/api/applications/oauth/oa_0000000000000000000000000000'],
        ['DELETE', '/console/api/applications/machines/mch_0000000000000000000000000000'],
      ] as const) {
        const res = await world.server.api(bearer, method, url);
        assert.equal(res.status, 403, `${method} ${url}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.errors[0].code, 'session_reverification_required');
        assert.deepEqual(res.body.clerk_error, {
          type: 'forbidden',
          reason: 'reverification-error',
          metadata: { reverification: { level: 'second_factor', afterMinutes: 10 } },
        });
      }
      const user = await world.get(world.operator, `/console/api/users/${world.target.userId}`);
      assert.equal(user.body.user.banned, false);
      // Not destructive: no re-verification.
      const lock = await world.server.api(bearer, 'POST', `/console/api/users/${world.target.userId}/lock`);
      assert.equal(lock.status, 200);
      await world.server.api(bearer, 'POST', `/console/api/users/${world.target.userId}/unlock`);
    });

    it('exports the audit log as JSON lines, with the filters', async () => {
      const res = await world.server.app.fastify.inject({
        method: 'GET',
        url: `/console/api/audit-events/export?actor_type=operator&actor_id=${world.operator.userId}`,
        headers: { authorization: `Bearer ${await token(world.operator)}` },
      });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /application\/x-ndjson/);
      assert.match(String(res.headers['content-disposition']), /audit-events\.jsonl/);
      const lines = res.body
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.ok(lines.length >= 3);
      assert.ok(lines.every((e) => e.actor.type === 'operator' && e.actor.id === world.operator.userId));
    });

    it('is never framed', async () => {
      for (const url of ['/console', '/console/users', '/console/api/me']) {
        const res = await world.server.app.fastify.inject({
          method: 'GET',
          url,
          headers: { accept: 'text/html' },
        });
        assert.equal(res.headers['x-frame-options'], 'DENY', url);
        assert.match(String(res.headers['content-security-policy']), /frame-ancestors 'none'/, url);
      }
    });
  });
}
