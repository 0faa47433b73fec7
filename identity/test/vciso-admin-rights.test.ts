import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { permissionsOf } from '../src/organizations/roles.ts';
import { apiKeysOf } from './support/api-keys.ts';
import { backendApiClient } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { enableBilling, ok, subscribe, subscriptionOf } from './support/billing-world.ts';
import { uniqueEmail, type Harness as HarnessType, type Json } from './support/harness.ts';
import { Harness } from './support/harness.ts';
import { activate, addMember, newMember, tokenClaims, type Member } from './support/organizations.ts';

/**
 * A client organisation as the product's vCISO console makes it (docs/client-organizations.md): created
 * through the Backend API without a creator, the vCISO then added as its only member, `org:vciso`. Spec
 * §6 gives admin rights to admins and vCISOs alike, so that vCISO can do everything an admin of it could,
 * through the same Frontend API calls clerk-js makes: subscribe it to a plan, manage its API keys and
 * its members.
 */

forEachBackend('a vCISO alone in the client organisation it created', (backend) => {
  let h: HarnessType;
  let clerk: ClerkClient;
  let vciso: Member;
  let orgId: string;

  before(async () => {
    h = await Harness.start(backend);
    await enableBilling(h);
    await h.identity.settings.set({
      ...h.identity.settings.settings,
      apiKeys: { enabled: true, userKeys: true, organizationKeys: true },
    });
    clerk = await backendApiClient(h);
    vciso = await newMember(h, 'vciso');
    const child = await clerk.organizations.createOrganization({ name: 'Client of the firm' });
    await clerk.organizations.createOrganizationMembership({
      organizationId: child.id,
      userId: vciso.userId,
      role: 'org:vciso',
    });
    orgId = child.id;
    await activate(vciso, orgId);
  });
  after(() => h.close());

  it('holds every permission of an admin, in its membership and in its session token', async () => {
    const claims = await tokenClaims(vciso);
    assert.equal(claims.org_role, 'org:vciso');
    const held = claims.org_permissions as string[];
    for (const permission of permissionsOf('org:admin')) assert.ok(held.includes(permission), permission);
    const memberships = ok(await vciso.browser.get('/me/organization_memberships')).response.data as Json[];
    const membership = memberships.find((m) => m.organization.id === orgId);
    for (const permission of permissionsOf('org:admin')) {
      assert.ok(membership.permissions.includes(permission), permission);
    }
  });

  it('checks out a plan through the billing Frontend API, and manages the payment methods', async () => {
    const confirmed = await subscribe(vciso, 'cplan_business', { orgId });
    assert.equal(confirmed.status, 'completed');
    const subscription = await subscriptionOf(vciso, orgId);
    const business = subscription.subscription_items.find((i: Json) => i.plan.slug === 'business');
    assert.equal(business.status, 'active');
    const scope = `/organizations/${orgId}/commerce`;
    const sources = ok(await vciso.browser.get(`${scope}/payment_sources`)).response.data;
    assert.equal(sources.length, 1);
    ok(
      await vciso.browser.call('PUT', `${scope}/payers/default_payment_source`, {
        payment_source_id: sources[0].id,
      }),
    );
    // And it may end it, as an admin may.
    ok(await vciso.browser.delete(`${scope}/subscription_items/${business.id}`));
  });

  it("creates, lists, reveals and revokes the organisation's API keys", async () => {
    const keys = apiKeysOf(h, vciso);
    const created = await keys.create({ name: 'client key', subject: orgId });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const key = created.body.response;
    assert.equal(key.subject, orgId);
    assert.deepEqual(
      ok(await keys.list(orgId)).api_keys.map((k: Json) => k.id),
      [key.id],
    );
    assert.match(ok(await keys.secret(key.id)).secret, /^ak_/);
    ok(await keys.revoke(key.id));
  });

  it('adds and invites members, gives any role (admin too), and removes them', async () => {
    const colleague = await newMember(h, 'colleague');
    await addMember(vciso, orgId, colleague, 'org:member');
    const invited = await vciso.browser.post(`/organizations/${orgId}/invitations`, {
      email_address: uniqueEmail('invitee'),
      role: 'org:admin',
    });
    assert.equal(invited.status, 200, JSON.stringify(invited.body));
    const promoted = await vciso.browser.patch(`/organizations/${orgId}/memberships/${colleague.userId}`, {
      role: 'org:admin',
    });
    assert.equal(promoted.status, 200, JSON.stringify(promoted.body));
    assert.equal(promoted.body.response.role, 'org:admin');
    const demoted = await vciso.browser.patch(`/organizations/${orgId}/memberships/${colleague.userId}`, {
      role: 'org:member',
    });
    assert.equal(demoted.status, 200, JSON.stringify(demoted.body));
    ok(await vciso.browser.delete(`/organizations/${orgId}/memberships/${colleague.userId}`));
  });
});
