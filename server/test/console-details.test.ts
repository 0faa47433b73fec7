import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { startConsoleWorld, token, type ConsoleWorld } from './support/console-world.ts';
import { TEST_BACKENDS, type ApiBody } from './support/embedded-server.ts';
import { backendApi } from './support/product-api-world.ts';

/**
 * The console's user and organisation details (docs/console.md): a user's passkeys and API keys, removed
 * and revoked re-verified; an organisation's roles, modules and subscription, its modules switched as the
 * admins' settings do. Against the real server and its embedded provider: what the operator sees, each
 * change in the audit log as the operator's, and the abuse cases (an organisation admin, an operator
 * without a second factor, malformed input, unknown ids, another user's or organisation's ids).
 */
const BILLING = {
  enabled: true,
  currency: 'usd',
  gateway: { kind: 'offline' },
  features: {},
  plans: {
    free_org: { name: 'Free', payerType: 'org', monthlyFee: 0, isDefault: true },
    pro: { name: 'Pro', payerType: 'org', monthlyFee: 2900 },
  },
};

const MODULES_OFF = { vCiso: false, compliance: false, qompanion: false, hexadiag: false, passport: false };

for (const backend of TEST_BACKENDS) {
  describe(`console details [${backend.name}]`, () => {
    let world: ConsoleWorld;
    let clerk: ClerkClient;
    let targetPasskey: string;
    let otherPasskey: string;
    let targetKey: string;
    let otherKey: string;

    /** A verified passkey of `userId`'s (written directly: registering one is the passkey suite's). */
    const passkeyOf = async (userId: string, name: string) => {
      const id = `idn_${randomBytes(12).toString('hex')}`;
      const now = new Date();
      await world.server.db.query(
        `INSERT INTO passkeys (id, user_id, name, credential_id, public_key, verified_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, '\\x00'::bytea, $5, $5, $5)`,
        [id, userId, name, `cred-${id}`, now],
      );
      return id;
    };

    before(async () => {
      world = await startConsoleWorld({
        databaseUrl: backend.databaseUrl,
        enrollingBy: 'userId',
        settings: { billing: BILLING },
      });
      clerk = backendApi(world.server);
      targetPasskey = await passkeyOf(world.target.userId, 'Work laptop');
      otherPasskey = await passkeyOf(world.orgAdmin.userId, 'Admin phone');
      targetKey = (
        await clerk.apiKeys.create({ name: 'ci', subject: world.target.userId, scopes: ['read:reports'] })
      ).id;
      otherKey = (await clerk.apiKeys.create({ name: 'theirs', subject: world.orgAdmin.userId })).id;
    });
    after(() => world?.server.stop());

    const operatorEvents = async (action: string, objectId: string): Promise<ApiBody[]> => {
      const res = await world.get(
        world.operator,
        `/console/api/audit-events?action=${action}&object_id=${objectId}`,
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data.filter(
        (e: ApiBody) => e.actor?.type === 'operator' && e.actor?.id === world.operator.userId,
      );
    };

    /** Everything the routes below could change, and the audit log's length: neither may move on a refusal. */
    const state = async () => {
      const read = async (url: string) => {
        const res = await world.get(world.operator, url);
        assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
        return res.body;
      };
      const [mine, theirs, org, otherOrg, audit] = await Promise.all([
        read(`/console/api/users/${world.target.userId}/credentials`),
        read(`/console/api/users/${world.orgAdmin.userId}/credentials`),
        read(`/console/api/organizations/${world.target.organizationId}/details`),
        read(`/console/api/organizations/${world.orgAdmin.organizationId}/details`),
        // The operators' events only: the product server writes its own metadata (the subscription flag)
        // in the background, as the secret key's.
        read('/console/api/audit-events?actor_type=operator&limit=1'),
      ]);
      return JSON.stringify({
        mine,
        theirs,
        modules: [org.modules, otherOrg.modules],
        audit: audit.total_count,
      });
    };

    /** The new routes, on real ids. */
    const realRequests = () =>
      [
        ['GET', `/console/api/users/${world.target.userId}/credentials`],
        ['DELETE', `/console/api/users/${world.target.userId}/passkeys/${targetPasskey}`],
        ['POST', `/console/api/users/${world.target.userId}/api-keys/${targetKey}/revoke`],
        ['GET', `/console/api/organizations/${world.target.organizationId}/details`],
        ['POST', `/console/api/organizations/${world.target.organizationId}/modules`, { compliance: true }],
      ] as const;

    it('shows a user’s passkeys and API keys, never a secret', async () => {
      const res = await world.get(world.operator, `/console/api/users/${world.target.userId}/credentials`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(
        res.body.passkeys.map((p: ApiBody) => [p.id, p.name, typeof p.created_at, p.last_used_at]),
        [[targetPasskey, 'Work laptop', 'number', null]],
      );
      assert.deepEqual(
        res.body.api_keys.map((k: ApiBody) => [k.id, k.name, k.scopes, typeof k.created_at, k.last_used_at]),
        [[targetKey, 'ci', ['read:reports'], 'number', null]],
      );
      assert.equal(
        JSON.stringify(res.body).includes('ak_') && /"secret"/.test(JSON.stringify(res.body)),
        false,
      );
    });

    it('shows an organisation’s roles with their members, its modules and its subscription', async () => {
      const res = await world.get(
        world.operator,
        `/console/api/organizations/${world.target.organizationId}/details`,
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(
        res.body.roles.map((r: ApiBody) => [r.key, r.members_count]),
        [
          ['org:admin', 1],
          ['org:vciso', 0],
          ['org:member', 0],
        ],
      );
      assert.ok(res.body.roles.every((r: ApiBody) => r.name && r.description));
      assert.deepEqual(res.body.modules, MODULES_OFF);
      // Billing's default plan: the organisation is on it from its first read.
      const { subscription } = res.body;
      assert.equal(subscription.object, 'commerce_subscription', JSON.stringify(subscription));
      assert.equal(subscription.status, 'active');
      assert.deepEqual(
        subscription.subscription_items.map((i: ApiBody) => [i.plan.name, i.status, typeof i.period_start]),
        [['Free', 'active', 'number']],
      );
    });

    it('requires a new password at the next sign-in, and withdraws the demand; both as the operator’s', async () => {
      const url = `/console/api/users/${world.target.userId}/require_password_reset`;
      const operator = await token(world.operator);
      // Refused to an organisation admin and an operator without a second factor, changing nothing.
      for (const bearer of [
        await token(world.orgAdmin, world.orgAdmin.organizationId),
        await token(world.enrolling),
      ]) {
        assert.equal((await world.server.api(bearer, 'POST', url)).status, 403);
      }
      const shown = async () =>
        (await world.get(world.operator, `/console/api/users/${world.target.userId}`)).body.user
          .password_reset_required;
      assert.equal(await shown(), false);

      const required = await world.server.api(operator, 'POST', url);
      assert.equal(required.status, 200, JSON.stringify(required.body));
      assert.equal(await shown(), true);
      // The right password now opens no session: Clerk's "Set new password" step.
      const signIn = await world.server.browser().call('POST', '/client/sign_ins', {
        identifier: world.target.email,
        password: 'correct horse battery',
      });
      assert.equal(signIn.body.response.status, 'needs_new_password', JSON.stringify(signIn.body));
      assert.equal(signIn.body.client.sessions.length, 0);

      const withdrawn = await world.server.api(operator, 'DELETE', url);
      assert.equal(withdrawn.status, 200, JSON.stringify(withdrawn.body));
      assert.equal(await shown(), false);
      const events = (
        await world.get(world.operator, `/console/api/audit-events?object_id=${world.target.userId}`)
      ).body.data.filter((e: ApiBody) => e.actor?.type === 'operator' && /password_reset/.test(e.action));
      assert.equal(events.length, 2, JSON.stringify(events));
      // An unknown user is 404, and a malformed id 422, before any Backend API call.
      const unknown = await world.server.api(
        operator,
        'POST',
        '/console/api/users/user_0000000000000000000000000000/require_password_reset',
      );
      assert.equal(unknown.status, 404);
      await world.refusesAsMalformed(operator, [
        ['POST', '/console/api/users/not-a-user/require_password_reset'],
      ]);
    });

    it('refuses every new route to an organisation admin and an operator without a second factor, changing nothing', async () => {
      const before = await state();
      for (const [method, url, body] of realRequests()) {
        for (const [who, bearer, code] of [
          [
            'an organisation admin',
            await token(world.orgAdmin, world.orgAdmin.organizationId),
            'not_an_operator',
          ],
          [
            'the target, admin of the organisation',
            await token(world.target, world.target.organizationId),
            'not_an_operator',
          ],
          ['an operator without a second factor', await token(world.enrolling), 'second_factor_required'],
        ] as const) {
          const res = await world.server.api(bearer, method, url, body);
          assert.equal(res.status, 403, `${who}: ${method} ${url}: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.errors[0].code, code);
        }
      }
      assert.equal(await state(), before, 'nothing changed, nothing recorded');
    });

    it('refuses malformed input (422), unknown ids (404) and another user’s passkeys and keys (404), changing nothing', async () => {
      const before = await state();
      const bearer = await token(world.operator);
      const orgModules = `/console/api/organizations/${world.target.organizationId}/modules`;
      await world.refusesAsMalformed(bearer, [
        ['GET', '/console/api/users/not-a-user/credentials'],
        ['GET', `/console/api/users/${world.target.organizationId}/credentials`],
        ['DELETE', `/console/api/users/${world.target.userId}/passkeys/${targetKey}`],
        ['DELETE', `/console/api/users/${world.target.userId}/passkeys/idn_%2e%2e`],
        ['POST', `/console/api/users/${world.target.userId}/api-keys/${targetPasskey}/revoke`],
        ['POST', `/console/api/users/${world.target.userId}/api-keys/ak_/revoke`],
        ['GET', `/console/api/organizations/${world.target.userId}/details`],
        ['POST', orgModules, {}],
        ['POST', orgModules, { compliance: 'yes' }],
        ['POST', orgModules, { payroll: true }],
        ['POST', orgModules, { compliance: true, organizationId: world.orgAdmin.organizationId }],
        ['POST', orgModules, [{ compliance: true }]],
        ['POST', orgModules, { compliance: null }],
      ]);
      const zeroUser = 'user_0000000000000000000000000000';
      const zeroOrg = 'org_0000000000000000000000000000';
      const unknown: [method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown][] = [
        ['GET', `/console/api/users/${zeroUser}/credentials`],
        ['DELETE', `/console/api/users/${world.target.userId}/passkeys/idn_0000000000000000000000000000`],
        ['POST', `/console/api/users/${world.target.userId}/api-keys/ak_0000000000000000000000000000/revoke`],
        ['GET', `/console/api/organizations/${zeroOrg}/details`],
        ['POST', `/console/api/organizations/${zeroOrg}/modules`, { compliance: true }],
        // Another user's passkey and key, named under the target's path: not found there, left alone.
        ['DELETE', `/console/api/users/${world.target.userId}/passkeys/${otherPasskey}`],
        ['POST', `/console/api/users/${world.target.userId}/api-keys/${otherKey}/revoke`],
      ];
      for (const [method, url, body] of unknown) {
        const res = await world.server.api(bearer, method, url, body);
        assert.equal(res.status, 404, `${method} ${url}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.errors[0].code, 'resource_not_found');
      }
      assert.equal(await state(), before, 'nothing changed, nothing recorded');
    });

    it('switches an organisation’s modules as the operator’s, seen by the product at once', async () => {
      const bearer = await token(world.operator);
      const url = `/console/api/organizations/${world.target.organizationId}/modules`;
      const on = await world.server.api(bearer, 'POST', url, { compliance: true, passport: true });
      assert.equal(on.status, 200, JSON.stringify(on.body));
      assert.deepEqual(on.body.modules, { ...MODULES_OFF, compliance: true, passport: true });
      const [event] = await operatorEvents('organization.metadata_updated', world.target.organizationId);
      assert.ok(event, 'the change is in the audit log as the operator’s');
      // The organisation's own members see it through the product API.
      const seen = await world.server.api(
        await token(world.target, world.target.organizationId),
        'GET',
        '/api/organizations/current',
      );
      assert.equal(seen.status, 200, JSON.stringify(seen.body));
      assert.equal(seen.body.publicMetadata.complianceModuleEnabled, true);
      assert.equal(seen.body.publicMetadata.passportModuleEnabled, true);
      assert.equal(seen.body.publicMetadata.uiLanguage, 'FR', 'the other settings are kept');
      const off = await world.server.api(bearer, 'POST', url, { passport: false });
      assert.deepEqual(off.body.modules, { ...MODULES_OFF, compliance: true });
      // Another organisation is untouched.
      const other = await world.get(
        world.operator,
        `/console/api/organizations/${world.orgAdmin.organizationId}/details`,
      );
      assert.deepEqual(other.body.modules, MODULES_OFF);
    });

    it('removes a passkey and revokes an API key as the operator’s', async () => {
      const bearer = await token(world.operator);
      const removed = await world.server.api(
        bearer,
        'DELETE',
        `/console/api/users/${world.target.userId}/passkeys/${targetPasskey}`,
      );
      assert.equal(removed.status, 200, JSON.stringify(removed.body));
      assert.equal(removed.body.deleted, true);
      assert.equal((await operatorEvents('passkey.deleted', targetPasskey)).length, 1);
      const revoked = await world.server.api(
        bearer,
        'POST',
        `/console/api/users/${world.target.userId}/api-keys/${targetKey}/revoke`,
      );
      assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
      assert.deepEqual(revoked.body, { id: targetKey, revoked: true });
      assert.equal((await operatorEvents('api_key.revoke', targetKey)).length, 1);
      const after = await world.get(world.operator, `/console/api/users/${world.target.userId}/credentials`);
      assert.deepEqual(after.body, { passkeys: [], api_keys: [] });
      // A revoked key is gone from the list, and revoking it again is 404.
      const again = await world.server.api(
        bearer,
        'POST',
        `/console/api/users/${world.target.userId}/api-keys/${targetKey}/revoke`,
      );
      assert.equal(again.status, 404, JSON.stringify(again.body));
      // The other user's are untouched.
      const theirs = await world.get(
        world.operator,
        `/console/api/users/${world.orgAdmin.userId}/credentials`,
      );
      assert.deepEqual(
        theirs.body.passkeys.map((p: ApiBody) => p.id),
        [otherPasskey],
      );
      assert.deepEqual(
        theirs.body.api_keys.map((k: ApiBody) => k.id),
        [otherKey],
      );
    });

    it('asks for re-verification before removing a passkey or revoking a key on an aged session', async () => {
      await world.server.db.query(
        `UPDATE sessions SET first_factor_verified_at = first_factor_verified_at - interval '1 hour',
           second_factor_verified_at = COALESCE(second_factor_verified_at, created_at) - interval '1 hour',
           created_at = created_at - interval '1 hour' WHERE id = $1`,
        [world.operator.sessionId],
      );
      const before = await state();
      const bearer = await token(world.operator);
      for (const [method, url] of [
        ['DELETE', `/console/api/users/${world.orgAdmin.userId}/passkeys/${otherPasskey}`],
        ['POST', `/console/api/users/${world.orgAdmin.userId}/api-keys/${otherKey}/revoke`],
      ] as const) {
        const res = await world.server.api(bearer, method, url);
        assert.equal(res.status, 403, `${method} ${url}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.errors[0].code, 'session_reverification_required');
        assert.equal(res.body.clerk_error.reason, 'reverification-error');
      }
      assert.equal(await state(), before, 'nothing changed, nothing recorded');
    });
  });
}
