import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import {
  disableBilling,
  enableBilling,
  BILLING,
  subscribe,
  subscriptionOf,
} from './support/billing-world.ts';
import { BAPI, Harness, type Json } from './support/harness.ts';
import { createOrganization, newMember, type Member } from './support/organizations.ts';

/**
 * Backend API billing through the real @clerk/backend 2.10.1 client (`clerkClient.billing`): the plan
 * list, an organisation's subscription (how the product server derives its subscription flag), and
 * cancelling an item at its period's end or at once.
 */
forEachBackend('billing Backend API', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;
  let admin: Member;
  let org: Json;

  before(async () => {
    h = await Harness.start(backend);
    await enableBilling(h);
    clerk = await backendApiClient(h);
    admin = await newMember(h, 'admin');
    org = await createOrganization(admin, 'Backend Billing Co');
  });
  after(() => h.close());

  it('getPlanList: every plan of a payer type (hidden ones too), paginated', async () => {
    const orgPlans = await clerk.billing.getPlanList({ payerType: 'org' });
    assert.deepEqual(
      orgPlans.data.map((p) => p.slug),
      ['free_org', 'legacy', 'team', 'business'],
    );
    assert.equal(orgPlans.totalCount, 4);
    const team = orgPlans.data.find((p) => p.slug === 'team')!;
    assert.equal(team.id, 'cplan_team');
    assert.equal(team.productId, 'cprod_default');
    assert.equal(team.forPayerType, 'org');
    assert.deepEqual(team.fee, {
      amount: 5000,
      amountFormatted: '50.00',
      currency: 'USD',
      currencySymbol: '$',
    });
    assert.equal(team.annualMonthlyFee.amount, 4000);
    assert.deepEqual(
      team.features.map((f) => f.slug),
      ['reports', 'sso'],
    );
    const users = await clerk.billing.getPlanList({ payerType: 'user', limit: 1, offset: 1 });
    assert.deepEqual(
      users.data.map((p) => p.slug),
      ['pro_user'],
    );
    assert.equal(users.totalCount, 2);
    await rejectsWith(
      clerk.billing.getPlanList({ payerType: 'bogus' as 'org' }),
      422,
      'form_param_value_invalid',
    );
    await rejectsWith(
      clerk.billing.getPlanList({ payerType: 'org', limit: 1000 }),
      422,
      'form_param_value_invalid',
    );
  });

  it("getOrganizationBillingSubscription: the organisation's plan as the product derives its flag from it", async () => {
    const free = await clerk.billing.getOrganizationBillingSubscription(org.id);
    assert.equal(free.status, 'active');
    assert.deepEqual(
      free.subscriptionItems.map((i) => [i.plan.slug, i.status]),
      [['free_org', 'active']],
    );
    assert.equal(free.eligibleForFreeTrial, true);

    await subscribe(admin, 'cplan_team', { orgId: org.id });
    const trial = await clerk.billing.getOrganizationBillingSubscription(org.id);
    const team = trial.subscriptionItems.find((i) => i.plan.slug === 'team')!;
    assert.equal(team.status, 'active');
    assert.equal(team.isFreeTrial, true);
    assert.equal(team.planId, 'cplan_team');
    assert.equal(team.payerId, trial.payerId);
    assert.equal(team.amount?.amount, 5000);
    assert.ok(team.periodEnd && team.periodEnd > team.periodStart);
    assert.equal(trial.eligibleForFreeTrial, false);
    // By slug too, as Clerk allows for organisations; an unknown one is 404.
    assert.equal((await clerk.billing.getOrganizationBillingSubscription(org.slug)).id, trial.id);
    await rejectsWith(
      clerk.billing.getOrganizationBillingSubscription('org_nope'),
      404,
      'resource_not_found',
    );
  });

  it('cancelSubscriptionItem: at the period end, or now (the default plan comes back)', async () => {
    const other = await createOrganization(admin, 'Cancel Co');
    await subscribe(admin, 'cplan_business', { orgId: other.id });
    const sub = await clerk.billing.getOrganizationBillingSubscription(other.id);
    const business = sub.subscriptionItems.find((i) => i.plan.slug === 'business')!;

    const atEnd = await clerk.billing.cancelSubscriptionItem(business.id, { endNow: false });
    assert.equal(atEnd.id, business.id);
    assert.equal(atEnd.status, 'active');
    assert.ok(atEnd.canceledAt);

    const now = await clerk.billing.cancelSubscriptionItem(business.id, { endNow: true });
    assert.equal(now.status, 'ended');
    assert.ok(now.endedAt);
    const after = await subscriptionOf(admin, other.id);
    assert.deepEqual(
      after.subscription_items.filter((i: Json) => i.status === 'active').map((i: Json) => i.plan.slug),
      ['free_org'],
    );
    await rejectsWith(
      clerk.billing.cancelSubscriptionItem(business.id, { endNow: true }),
      404,
      'resource_not_found',
    );
    await rejectsWith(clerk.billing.cancelSubscriptionItem('csubi_nope'), 404, 'resource_not_found');
    const bad = await h.app.inject({
      method: 'DELETE',
      url: `${BAPI}/v1/commerce/subscription_items/${business.id}?end_now=maybe`,
      headers: { authorization: `Bearer ${h.identity.secretKey}` },
    });
    assert.equal(bad.statusCode, 422, bad.body);
  });

  it("the instance-wide lists: every payer's subscription items with their payer, and the statements (of one payer: ours)", async () => {
    const get = async (path: string) => {
      const res = await h.app.inject({
        method: 'GET',
        url: `${BAPI}${path}`,
        headers: { authorization: `Bearer ${h.identity.secretKey}` },
      });
      return { status: res.statusCode, body: res.json() as Json };
    };
    const lists = await createOrganization(admin, 'Lists Co');
    await subscribe(admin, 'cplan_business', { orgId: lists.id });
    const buyer = await newMember(h, 'lists-buyer');
    await subscribe(buyer, 'cplan_pro_user');

    const business = await get('/v1/billing/subscription_items?status=active&plan_id=cplan_business');
    assert.equal(business.status, 200, JSON.stringify(business.body));
    assert.equal(business.body.total_count, 1, 'the ended Business of another test is left out');
    const [item] = business.body.data;
    assert.equal(item.object, 'commerce_subscription_item');
    assert.equal(item.plan_id, 'cplan_business');
    assert.equal(item.amount.amount, 9900);
    assert.deepEqual(item.payer, {
      object: 'commerce_payer',
      id: item.payer_id,
      user_id: null,
      organization_id: lists.id,
    });
    const ofUsers = await get('/v1/billing/subscription_items?payer_type=user&plan_id=cplan_pro_user');
    assert.deepEqual(
      ofUsers.body.data.map((i: Json) => i.payer.user_id),
      [buyer.userId],
    );
    const every = await get('/v1/billing/subscription_items?limit=500');
    assert.ok(every.body.data.every((i: Json) => i.status !== 'abandoned'));
    assert.equal((await get('/v1/billing/subscription_items?plan_id=plan_x')).body.total_count, 0);
    for (const bad of ['status=canceled', 'payer_type=organization', 'limit=0', 'offset=x']) {
      const res = await get(`/v1/billing/subscription_items?${bad}`);
      assert.equal(res.status, 422, `${bad}: ${JSON.stringify(res.body)}`);
    }

    const statements = await get(`/v1/billing/statements?payer_id=${item.payer_id}`);
    assert.equal(statements.status, 200, JSON.stringify(statements.body));
    assert.equal(statements.body.total_count, 1);
    const [statement] = statements.body.data;
    assert.equal(statement.payer.organization_id, lists.id);
    assert.equal(statement.totals.grand_total.amount, 9900);
    assert.deepEqual(
      statement.groups.flatMap((g: Json) => g.items.map((p: Json) => [p.status, p.amount.amount])),
      [['paid', 9900]],
    );
    const all = await get('/v1/billing/statements?limit=500');
    assert.ok(all.body.data.some((s: Json) => s.payer.user_id === buyer.userId));
    assert.ok(all.body.data.some((s: Json) => s.id === statement.id));
    for (const unknown of ['cpayer_nope', 'org_nope', '..%2f']) {
      const res = await get(`/v1/billing/statements?payer_id=${unknown}`);
      assert.equal(res.status, 404, `${unknown}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.errors[0].code, 'resource_not_found');
    }
  });

  it('refuses without the secret key, and is 404 while the instance does not bill', async () => {
    const lists = ['/v1/billing/subscription_items', '/v1/billing/statements'];
    for (const path of ['/v1/commerce/plans', `/v1/organizations/${org.id}/billing/subscription`, ...lists]) {
      const res = await h.app.inject({ method: 'GET', url: `${BAPI}${path}` });
      assert.equal(res.statusCode, 401, res.body);
    }
    await disableBilling(h);
    try {
      for (const path of lists) {
        const res = await h.app.inject({
          method: 'GET',
          url: `${BAPI}${path}`,
          headers: { authorization: `Bearer ${h.identity.secretKey}` },
        });
        assert.equal(res.statusCode, 404, res.body);
      }
      await rejectsWith(clerk.billing.getPlanList({ payerType: 'org' }), 404, 'resource_not_found');
      await rejectsWith(clerk.billing.getOrganizationBillingSubscription(org.id), 404, 'resource_not_found');
    } finally {
      await enableBilling(h, BILLING);
    }
  });
});
