import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { BILLING, disableBilling, enableBilling } from './support/billing-world.ts';
import { Harness, type Json } from './support/harness.ts';
import {
  activate,
  addMember,
  clientMemberships,
  createOrganization,
  newMember,
} from './support/organizations.ts';

/**
 * The environment's `commerce_settings` as clerk-js 5.90.0's CommerceSettings.fromJSON reads it (the whole
 * `billing` object, `user` and `organization` dereferenced unguarded, or null), rebuilt when the
 * settings change; and the permissions the Billing pages of <OrganizationProfile/> check.
 */
forEachBackend('billing environment', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());

  const environment = async () => {
    const res = await h.browser().get('/environment');
    assert.equal(res.status, 200);
    return { body: res.body, etag: res.headers.etag };
  };

  it('is null without billing, the whole object with it, and follows each change', async () => {
    const off = await environment();
    assert.equal(off.body.commerce_settings, null);

    await enableBilling(h);
    const on = await environment();
    assert.notEqual(on.etag, off.etag, 'the cached environment was rebuilt');
    assert.deepEqual(on.body.commerce_settings, {
      billing: {
        enabled: true,
        stripe_publishable_key: h.identity.deps.billing.gateway().publishableKey,
        has_paid_user_plans: true,
        has_paid_org_plans: true,
        user: { enabled: true, has_paid_plans: true },
        organization: { enabled: true, has_paid_plans: true },
      },
    });
    // clerk-js shows no card form without a publishable key for its Stripe.js.
    assert.ok(on.body.commerce_settings.billing.stripe_publishable_key.length > 0);

    // Organisations only, and free plans only for users: the user's Billing page shows no paid sections.
    const orgsOnly = {
      ...BILLING,
      plans: {
        free_user: BILLING.plans.free_user,
        team: BILLING.plans.team,
      },
    };
    await enableBilling(h, orgsOnly);
    const orgOnly = (await environment()).body.commerce_settings.billing;
    assert.deepEqual(orgOnly.user, { enabled: true, has_paid_plans: false });
    assert.deepEqual(orgOnly.organization, { enabled: true, has_paid_plans: true });
    assert.equal(orgOnly.has_paid_user_plans, false);

    await enableBilling(h, { ...BILLING, plans: { team: BILLING.plans.team } });
    assert.deepEqual((await environment()).body.commerce_settings.billing.user, {
      enabled: false,
      has_paid_plans: false,
    });

    await enableBilling(h, { ...BILLING, enabled: false });
    assert.equal((await environment()).body.commerce_settings, null);
    await disableBilling(h);
    assert.equal((await environment()).body.commerce_settings, null);
  });

  it("the organisation's roles carry the billing permissions <OrganizationProfile/> checks", async () => {
    await enableBilling(h);
    const admin = await newMember(h, 'admin');
    const member = await newMember(h, 'member');
    const org = await createOrganization(admin, 'Env Co');
    await addMember(admin, org.id, member, 'org:member');
    const adminPermissions = clientMemberships((await activate(admin, org.id)).body, admin.userId).find(
      (m: Json) => m.organization.id === org.id,
    ).permissions;
    assert.ok(adminPermissions.includes('org:sys_billing:manage'));
    const memberPermissions = clientMemberships((await activate(member, org.id)).body, member.userId).find(
      (m: Json) => m.organization.id === org.id,
    ).permissions;
    assert.ok(memberPermissions.includes('org:sys_billing:read'));
    assert.equal(memberPermissions.includes('org:sys_billing:manage'), false);
  });
});
