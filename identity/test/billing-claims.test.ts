import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { decodeJwt } from 'jose';
import { billingClaims } from '../src/instance/session-token.ts';
import { backendApiClient } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { BILLING, disableBilling, enableBilling, ok, subscribe } from './support/billing-world.ts';
import { Harness, PUBLIC_URL, type Json } from './support/harness.ts';
import { activate, addMember, createOrganization, newMember, tokenClaims } from './support/organizations.ts';

/**
 * The `pla` and `fea` session-token claims: the payer's current plans (`u:` the user's, `o:` the active
 * organisation's) and their features, in every token (minted alone, and piggy-backed on a client), read
 * by @clerk/backend 2.10.1's `has({plan})` / `has({feature})`; none while the instance does not bill.
 */

describe('billingClaims', () => {
  it('scopes plans and features as clerk-js and @clerk/backend split them', () => {
    assert.equal(billingClaims({ user: [], organization: [] }), null);
    assert.deepEqual(
      billingClaims({
        user: [{ slug: 'pro_user', features: ['reports', 'exports'] }],
        organization: [{ slug: 'team', features: ['reports', 'sso'] }],
      }),
      { pla: 'u:pro_user,o:team', fea: 'uo:reports,u:exports,o:sso' },
    );
    assert.deepEqual(billingClaims({ user: [], organization: [{ slug: 'free_org', features: [] }] }), {
      pla: 'o:free_org',
      fea: '',
    });
  });
});

forEachBackend('billing claims', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;

  before(async () => {
    h = await Harness.start(backend);
    await enableBilling(h);
    clerk = await backendApiClient(h);
  });
  after(() => h.close());

  /** The auth object @clerk/backend makes of a token, as the product server does. */
  async function authOf(jwt: string) {
    const state = await clerk.authenticateRequest(
      new Request(`${PUBLIC_URL}/api/me`, { headers: { authorization: `Bearer ${jwt}` } }),
      { acceptsToken: 'session_token' },
    );
    assert.equal(state.isAuthenticated, true, state.message ?? '');
    return state.toAuth();
  }

  it("a user's plan and features, then the active organisation's, follow at once and @clerk/backend reads them", async () => {
    const admin = await newMember(h, 'claims');
    // Before any billing call: on the default plan, as clerk-js shows it.
    const fresh = await tokenClaims(admin);
    assert.equal(fresh.pla, 'u:free_user');

    await subscribe(admin, 'cplan_pro_user');
    const mine = await tokenClaims(admin);
    assert.equal(mine.pla, 'u:pro_user');
    assert.equal(mine.fea, 'u:reports,u:exports');

    const org = await createOrganization(admin, 'Claims Co');
    await subscribe(admin, 'cplan_business', { orgId: org.id });
    await activate(admin, org.id);
    const res = await admin.browser.post(`/client/sessions/${admin.sessionId}/tokens`, {
      organization_id: org.id,
    });
    const jwt = ok(res).jwt as string;
    const claims = decodeJwt(jwt);
    assert.equal(claims.pla, 'u:pro_user,o:business');
    assert.equal(claims.fea, 'uo:reports,u:exports,o:sso');

    const auth = await authOf(jwt);
    assert.equal(auth.has({ plan: 'pro_user' }), true);
    assert.equal(auth.has({ plan: 'user:pro_user' }), true);
    assert.equal(auth.has({ plan: 'org:business' }), true);
    assert.equal(auth.has({ plan: 'org:pro_user' }), false);
    assert.equal(auth.has({ plan: 'team' }), false);
    assert.equal(auth.has({ feature: 'sso' }), true);
    assert.equal(auth.has({ feature: 'org:sso' }), true);
    assert.equal(auth.has({ feature: 'user:sso' }), false);
    assert.equal(auth.has({ feature: 'user:exports' }), true);
    assert.equal(auth.has({ feature: 'reports' }), true);

    // The token piggy-backed on a client answer says the same (store/owners.ts reads it in its one query).
    const client = ok(await admin.browser.get('/client'));
    const session = client.response.sessions.find((s: Json) => s.id === admin.sessionId);
    const piggy = decodeJwt(session.last_active_token.jwt);
    assert.equal(piggy.pla, 'u:pro_user,o:business');
    assert.equal(piggy.fea, 'uo:reports,u:exports,o:sso');

    // The personal workspace: the user's own only.
    const personal = await tokenClaims(admin, { organization_id: '' });
    assert.equal(personal.pla, 'u:pro_user');
    assert.equal(personal.fea, 'u:reports,u:exports');
  });

  it("a member of an organisation carries its plan; a removed member's next token does not", async () => {
    const admin = await newMember(h, 'owner');
    const member = await newMember(h, 'member');
    const org = await createOrganization(admin, 'Members Co');
    await addMember(admin, org.id, member, 'org:member');
    await subscribe(admin, 'cplan_business', { orgId: org.id });
    const theirs = await tokenClaims(member, { organization_id: org.id });
    assert.match(String(theirs.pla), /(^|,)o:business($|,)/);
    const removed = await admin.browser.delete(`/organizations/${org.id}/memberships/${member.userId}`);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    const after = await tokenClaims(member, { organization_id: org.id });
    assert.equal(after.pla, 'u:free_user');
  });

  it('no claims while the instance does not bill', async () => {
    const user = await newMember(h, 'off');
    await subscribe(user, 'cplan_pro_user');
    assert.equal((await tokenClaims(user)).pla, 'u:pro_user');
    await disableBilling(h);
    try {
      const claims = await tokenClaims(user);
      assert.equal(claims.pla, undefined);
      assert.equal(claims.fea, undefined);
      const client = ok(await user.browser.get('/client'));
      const session = client.response.sessions.find((s: Json) => s.id === user.sessionId);
      assert.equal(decodeJwt(session.last_active_token.jwt).pla, undefined);
    } finally {
      await enableBilling(h, BILLING);
    }
  });
});
