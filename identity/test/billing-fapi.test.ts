import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { Harness, type Json } from './support/harness.ts';
import {
  addMember,
  assertError,
  createOrganization,
  newMember,
  type Member,
} from './support/organizations.ts';
import {
  BILLING,
  disableBilling,
  enableBilling,
  ok,
  scopeOf,
  subscribe,
  subscriptionOf,
} from './support/billing-world.ts';

/**
 * Billing's Frontend API on the wire, as clerk-js 5.90.0 calls it: the plan list signed out, a user's and
 * an organisation's subscription through a checkout confirmed with the offline gateway's test card, the
 * Billing pages' lists, cancelling, payment methods; and every refusal (no billing, signed out, another
 * payer's ids, a member without `org:sys_billing:manage`, bad paging, unknown plans), which changes nothing.
 */

forEachBackend('billing Frontend API', (backend) => {
  let h: Harness;
  let user: Member;
  let admin: Member;
  let member: Member;
  let vciso: Member;
  let outsider: Member;
  let org: Json;
  let otherOrg: Json;

  before(async () => {
    h = await Harness.start(backend);
    await enableBilling(h);
    user = await newMember(h, 'payer');
    admin = await newMember(h, 'admin');
    member = await newMember(h, 'member');
    vciso = await newMember(h, 'vciso');
    outsider = await newMember(h, 'outsider');
    org = await createOrganization(admin, 'Billed Inc');
    await addMember(admin, org.id, member, 'org:member');
    await addMember(admin, org.id, vciso, 'org:vciso');
    otherOrg = await createOrganization(outsider, 'Elsewhere Ltd');
  });
  after(() => h.close());

  const billingRows = async () =>
    JSON.stringify({
      payers: await h.db.query('SELECT * FROM billing_payers ORDER BY id'),
      items: await h.db.query(
        'SELECT id, status, canceled_at, plan_slug FROM billing_subscription_items ORDER BY id',
      ),
      checkouts: await h.db.query('SELECT id, status, confirm_started_at FROM billing_checkouts ORDER BY id'),
      sources: await h.db.query('SELECT id, removed_at FROM billing_payment_sources ORDER BY id'),
      attempts: await h.db.query('SELECT id, status FROM billing_payment_attempts ORDER BY id'),
      ledger: await h.db.query('SELECT id FROM billing_ledger ORDER BY id'),
    });

  describe('plans', () => {
    it('lists the visible plans of a payer type, signed out, bare, with money as clerk-js formats it', async () => {
      const anonymous = h.browser();
      const orgPlans = ok(
        await anonymous.get('/commerce/plans', { payer_type: 'org', limit: '10', offset: '0' }),
      );
      // Bare: clerk-js reads `data`/`total_count` from the body itself.
      assert.equal(orgPlans.response, undefined);
      assert.deepEqual(
        orgPlans.data.map((p: Json) => p.slug),
        ['free_org', 'team', 'business'],
      );
      assert.equal(orgPlans.total_count, 3);
      const team = orgPlans.data.find((p: Json) => p.slug === 'team');
      assert.equal(team.object, 'commerce_plan');
      assert.equal(team.id, 'cplan_team');
      assert.deepEqual(team.fee, {
        amount: 5000,
        amount_formatted: '50.00',
        currency: 'USD',
        currency_symbol: '$',
      });
      assert.equal(team.annual_monthly_fee.amount_formatted, '40.00');
      assert.equal(team.annual_fee.amount, 48000);
      assert.equal(team.amount_formatted, '50.00');
      assert.equal(team.for_payer_type, 'org');
      assert.equal(team.has_base_fee, true);
      assert.equal(team.free_trial_enabled, true);
      assert.equal(team.free_trial_days, 14);
      assert.deepEqual(
        team.features.map((f: Json) => [f.object, f.id, f.slug, f.name]),
        [
          ['commerce_feature', 'cfeat_reports', 'reports', 'Reports'],
          ['commerce_feature', 'cfeat_sso', 'sso', 'SSO'],
        ],
      );
      const free = orgPlans.data.find((p: Json) => p.slug === 'free_org');
      assert.equal(free.is_default, true);
      assert.equal(free.has_base_fee, false);
      const userPlans = ok(await anonymous.get('/commerce/plans', { payer_type: 'user' }));
      assert.deepEqual(
        userPlans.data.map((p: Json) => p.slug),
        ['free_user', 'pro_user'],
      );
      const page = ok(await anonymous.get('/commerce/plans', { payer_type: 'org', limit: '1', offset: '1' }));
      assert.deepEqual(
        page.data.map((p: Json) => p.slug),
        ['team'],
      );
      assert.equal(page.total_count, 3);
    });

    it('one plan by id, bare (a hidden one too); an unknown one is 404', async () => {
      const anonymous = h.browser();
      const plan = ok(await anonymous.get('/commerce/plans/cplan_pro_user'));
      assert.equal(plan.slug, 'pro_user');
      assert.equal(plan.annual_fee.amount_formatted, '96.00');
      assert.equal(ok(await anonymous.get('/commerce/plans/cplan_legacy')).publicly_visible, false);
      assertError(await anonymous.get('/commerce/plans/cplan_nope'), 404, 'resource_not_found');
      assertError(await anonymous.get(`/commerce/plans/${'x'.repeat(300)}`), 404, 'resource_not_found');
    });

    it('refuses malformed and oversized paging and an unknown payer type', async () => {
      const anonymous = h.browser();
      const queries: Record<string, string>[] = [
        { limit: '0' },
        { limit: '501' },
        { limit: 'ten' },
        { offset: '-1' },
        { limit: '1e3' },
        { offset: '99999999999999999999' },
      ];
      for (const query of queries) {
        const res = await anonymous.get('/commerce/plans', { payer_type: 'user', ...query });
        assert.equal(res.status, 422, `${JSON.stringify(query)}: ${JSON.stringify(res.body)}`);
        assert.match(res.body.errors[0].code, /^form_param_/);
      }
      assertError(
        await anonymous.get('/commerce/plans', { payer_type: 'admin' }),
        422,
        'form_param_value_invalid',
      );
    });
  });

  describe("a user's own billing", () => {
    it('shows the default plan, subscribes through a checkout and the test card, and lists it everywhere', async () => {
      const before = await subscriptionOf(user);
      assert.equal(before.object, 'commerce_subscription');
      assert.deepEqual(
        before.subscription_items.map((i: Json) => [i.plan.slug, i.status]),
        [['free_user', 'active']],
      );
      assert.equal(before.eligible_for_free_trial, true);
      assert.equal(before.next_payment, undefined);

      const started = ok(
        await user.browser.post('/me/commerce/checkouts', {
          plan_id: 'cplan_pro_user',
          plan_period: 'month',
        }),
      );
      assert.ok(started.client, 'the client rides along');
      const checkout = started.response;
      assert.equal(checkout.object, 'commerce_checkout');
      assert.equal(checkout.status, 'needs_confirmation');
      assert.equal(checkout.plan.slug, 'pro_user');
      assert.equal(checkout.plan_period, 'month');
      assert.equal(checkout.totals.total_due_now.amount, 1000);
      assert.equal(checkout.totals.grand_total.amount_formatted, '10.00');
      assert.equal(checkout.totals.credit.amount, 0);
      assert.equal(typeof checkout.is_immediate_plan_change, 'boolean');

      // clerk-js tunnels the confirm: POST ?_method=PATCH.
      const confirmed = ok(
        await user.browser.post(
          `/me/commerce/checkouts/${checkout.id}/confirm`,
          { gateway: 'stripe', use_test_card: 'true' },
          { _method: 'PATCH' },
        ),
      ).response;
      assert.equal(confirmed.id, checkout.id);
      assert.equal(confirmed.status, 'completed');

      const after = await subscriptionOf(user);
      const pro = after.subscription_items.find((i: Json) => i.plan.slug === 'pro_user');
      assert.equal(pro.status, 'active');
      assert.equal(pro.amount.amount, 1000);
      assert.equal(pro.plan_period, 'month');
      assert.ok(pro.period_end > pro.period_start);
      assert.equal(after.next_payment.amount.amount, 1000);
      assert.equal(after.next_payment.date, pro.period_end);

      const sources = ok(
        await user.browser.get('/me/commerce/payment_sources', { limit: '10', offset: '0' }),
      );
      assert.equal(sources.response.total_count, 1);
      const card = sources.response.data[0];
      assert.equal(card.object, 'commerce_payment_source');
      assert.equal(card.last4, '4242');
      assert.equal(card.payment_method, 'card');
      assert.equal(pro.payment_source_id, card.id);

      // Payments are read bare, statements in `response`.
      const payments = ok(
        await user.browser.get('/me/commerce/payment_attempts', { limit: '10', offset: '0' }),
      );
      assert.equal(payments.total_count, 1);
      const payment = payments.data[0];
      assert.equal(payment.object, 'commerce_payment');
      assert.equal(payment.status, 'paid');
      assert.equal(payment.amount.amount, 1000);
      assert.equal(payment.charge_type, 'checkout');
      assert.equal(payment.payment_source.last4, '4242');
      assert.equal(payment.subscription_item.plan.slug, 'pro_user');
      assert.deepEqual(payment.subscription, payment.subscription_item);
      const one = ok(await user.browser.get(`/me/commerce/payment_attempts/${payment.id}`));
      assert.equal(one.id, payment.id);

      const statements = ok(await user.browser.get('/me/commerce/statements', { limit: '10', offset: '0' }));
      assert.equal(statements.response.total_count, 1);
      const statement = statements.response.data[0];
      assert.equal(statement.object, 'commerce_statement');
      assert.equal(statement.status, 'open');
      assert.ok(Array.isArray(statement.groups));
      assert.equal(statement.groups[0].items[0].id, payment.id);
      assert.equal(statement.totals.grand_total.amount, 1000);
      const again = ok(await user.browser.get(`/me/commerce/statements/${statement.id}`)).response;
      assert.equal(again.id, statement.id);

      const items = ok(
        await user.browser.get('/me/commerce/subscriptions', { limit: '10', offset: '0' }),
      ).response;
      assert.ok(items.data.some((i: Json) => i.id === pro.id));
    });

    it('a replayed confirm answers the same completed checkout and charges nothing more', async () => {
      const payer = await newMember(h, 'replay');
      const checkout = ok(
        await payer.browser.post('/me/commerce/checkouts', {
          plan_id: 'cplan_pro_user',
          plan_period: 'annual',
        }),
      ).response;
      assert.equal(checkout.totals.total_due_now.amount, 9600);
      const path = `/me/commerce/checkouts/${checkout.id}/confirm`;
      const first = ok(
        await payer.browser.patch(path, { gateway: 'stripe', use_test_card: 'true' }),
      ).response;
      assert.equal(first.status, 'completed');
      const second = ok(
        await payer.browser.patch(path, { gateway: 'stripe', use_test_card: 'true' }),
      ).response;
      assert.equal(second.status, 'completed');
      const payments = ok(await payer.browser.get('/me/commerce/payment_attempts'));
      assert.equal(payments.total_count, 1);
      assert.equal(payments.data[0].amount.amount, 9600);
    });

    it("refuses an unknown plan, another payer type's plan, a bad period, and another user's ids", async () => {
      const before = await billingRows();
      assertError(
        await user.browser.post('/me/commerce/checkouts', { plan_id: 'cplan_nope', plan_period: 'month' }),
        404,
        'resource_not_found',
      );
      assertError(
        await user.browser.post('/me/commerce/checkouts', { plan_id: 'cplan_team', plan_period: 'month' }),
        404,
        'resource_not_found',
      );
      assertError(
        await user.browser.post('/me/commerce/checkouts', {
          plan_id: 'cplan_pro_user',
          plan_period: 'weekly',
        }),
        422,
        'form_param_value_invalid',
      );
      assertError(
        await user.browser.post('/me/commerce/checkouts', { plan_period: 'month' }),
        422,
        'form_param_nil',
      );
      assertError(
        await user.browser.post('/me/commerce/checkouts', {
          plan_id: 'x'.repeat(5000),
          plan_period: 'month',
        }),
        404,
        'resource_not_found',
      );
      assert.equal(await billingRows(), before);

      // The user's ids, named by someone else: 404 as if they did not exist.
      const sub = await subscriptionOf(user);
      const pro = sub.subscription_items.find((i: Json) => i.plan.slug === 'pro_user');
      const statement = ok(await user.browser.get('/me/commerce/statements')).response.data[0];
      const payment = ok(await user.browser.get('/me/commerce/payment_attempts')).data[0];
      const card = ok(await user.browser.get('/me/commerce/payment_sources')).response.data[0];
      const mine = ok(
        await user.browser.post('/me/commerce/checkouts', {
          plan_id: 'cplan_pro_user',
          plan_period: 'annual',
        }),
      ).response;
      const snapshot = await billingRows();
      for (const scope of [scopeOf(), scopeOf(otherOrg.id)]) {
        for (const res of [
          await outsider.browser.delete(`${scope}/commerce/subscription_items/${pro.id}`),
          await outsider.browser.get(`${scope}/commerce/statements/${statement.id}`),
          await outsider.browser.get(`${scope}/commerce/payment_attempts/${payment.id}`),
          await outsider.browser.delete(`${scope}/commerce/payment_sources/${card.id}`),
          await outsider.browser.call('PUT', `${scope}/commerce/payers/default_payment_source`, {
            payment_source_id: card.id,
          }),
          await outsider.browser.patch(`${scope}/commerce/checkouts/${mine.id}/confirm`, {
            payment_source_id: card.id,
          }),
        ]) {
          assert.equal(res.status, 404, JSON.stringify(res.body));
          assert.equal(res.body.errors[0].code, 'resource_not_found');
          assert.equal(JSON.stringify(res.body).includes('4242'), false);
        }
      }
      // Paying another user's checkout with one's own card, or one's own checkout with another's card.
      const outsiderCheckout = ok(
        await outsider.browser.post('/me/commerce/checkouts', {
          plan_id: 'cplan_pro_user',
          plan_period: 'month',
        }),
      ).response;
      const withTheirCard = await outsider.browser.patch(
        `/me/commerce/checkouts/${outsiderCheckout.id}/confirm`,
        {
          payment_source_id: card.id,
        },
      );
      assert.equal(withTheirCard.status, 404, JSON.stringify(withTheirCard.body));
      const after = JSON.parse(await billingRows());
      const was = JSON.parse(snapshot);
      assert.deepEqual(after.attempts, was.attempts, 'nothing was charged');
      assert.deepEqual(after.sources, was.sources);
      // (The outsider's own checkout gave the outsider a subscription of their own: their business.)
      assert.deepEqual(await subscriptionOf(user), sub, "the user's subscription is as it was");
    });

    it('makes a card the default, refuses to remove the one that pays, cancels at the period end', async () => {
      const card = ok(await user.browser.get('/me/commerce/payment_sources')).response.data[0];
      const made = await user.browser.call('PUT', '/me/commerce/payers/default_payment_source', {
        payment_source_id: card.id,
      });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      assert.equal(
        ok(await user.browser.get('/me/commerce/payment_sources')).response.data[0].is_default,
        true,
      );
      assertError(
        await user.browser.call('PUT', '/me/commerce/payers/default_payment_source', {}),
        422,
        'form_param_nil',
      );
      const removal = await user.browser.delete(`/me/commerce/payment_sources/${card.id}`);
      assert.equal(removal.status, 400, JSON.stringify(removal.body));

      const sub = await subscriptionOf(user);
      const pro = sub.subscription_items.find((i: Json) => i.plan.slug === 'pro_user');
      const cancelled = ok(await user.browser.delete(`/me/commerce/subscription_items/${pro.id}`)).response;
      assert.deepEqual(cancelled, { object: 'commerce_subscription_item', id: pro.id, deleted: true });
      const after = (await subscriptionOf(user)).subscription_items.find((i: Json) => i.id === pro.id);
      assert.equal(after.status, 'active', 'it runs to the end of its period');
      assert.ok(after.canceled_at);
      // The default plan cannot be cancelled.
      const free = sub.subscription_items.find((i: Json) => i.plan.slug === 'free_user');
      if (free) {
        const res = await user.browser.delete(`/me/commerce/subscription_items/${free.id}`);
        assert.equal(res.status, 400, JSON.stringify(res.body));
      }
    });

    it('initialises a card setup for the payment form, and refuses a payment token it did not issue', async () => {
      const setup = ok(
        await user.browser.post('/me/commerce/payment_sources/initialize', { gateway: 'stripe' }),
      );
      assert.equal(setup.response.object, 'commerce_payment_source_initialize');
      assert.ok(setup.response.external_client_secret.length > 10);
      assert.equal(typeof setup.response.external_gateway_id, 'string');
      assert.ok(Array.isArray(setup.response.payment_method_order));
      const before = await billingRows();
      const forged = await user.browser.post('/me/commerce/payment_sources', {
        gateway: 'stripe',
        payment_token: 'pm_forged_123',
      });
      assert.equal(forged.status, 422, JSON.stringify(forged.body));
      assertError(
        await user.browser.post('/me/commerce/payment_sources', { gateway: 'stripe' }),
        422,
        'form_param_nil',
      );
      assertError(
        await user.browser.post('/me/commerce/payment_sources', { gateway: 'paypal', payment_token: 'x' }),
        422,
        'form_param_value_invalid',
      );
      assert.equal(
        JSON.stringify(JSON.parse(await billingRows()).sources),
        JSON.stringify(JSON.parse(before).sources),
      );
    });

    it('signed out, every payer route is refused', async () => {
      const anonymous = h.browser();
      for (const res of [
        await anonymous.get('/me/commerce/subscription'),
        await anonymous.get('/me/commerce/payment_sources'),
        await anonymous.post('/me/commerce/checkouts', { plan_id: 'cplan_pro_user', plan_period: 'month' }),
        await anonymous.get(`/organizations/${org.id}/commerce/subscription`),
      ]) {
        assert.equal(res.status, 404, JSON.stringify(res.body));
        assert.equal(res.body.errors[0].code, 'resource_not_found');
      }
    });
  });

  describe("an organisation's billing", () => {
    it('its billing manager subscribes it; members see it but cannot change it; outsiders get 404', async () => {
      const confirmed = await subscribe(admin, 'cplan_business', { orgId: org.id });
      assert.equal(confirmed.status, 'completed');
      const sub = await subscriptionOf(admin, org.id);
      const business = sub.subscription_items.find((i: Json) => i.plan.slug === 'business');
      assert.equal(business.status, 'active');
      assert.equal(business.plan.for_payer_type, 'org');

      // org:member and org:vciso hold org:sys_billing:read: they see the subscription and the methods.
      for (const reader of [member, vciso]) {
        assert.equal((await subscriptionOf(reader, org.id)).id, sub.id);
        assert.equal(
          ok(await reader.browser.get(`/organizations/${org.id}/commerce/payment_sources`)).response
            .total_count,
          1,
        );
        assert.equal(
          ok(await reader.browser.get(`/organizations/${org.id}/commerce/payment_attempts`)).total_count,
          1,
        );
        assert.equal(
          ok(await reader.browser.get(`/organizations/${org.id}/commerce/statements`)).response.total_count,
          1,
        );
      }

      const before = await billingRows();
      const card = ok(await admin.browser.get(`/organizations/${org.id}/commerce/payment_sources`)).response
        .data[0];
      const scope = `/organizations/${org.id}`;
      const writes = (who: Member) => [
        () =>
          who.browser.post(`${scope}/commerce/checkouts`, { plan_id: 'cplan_team', plan_period: 'month' }),
        () =>
          who.browser.patch(`${scope}/commerce/checkouts/chk_whatever/confirm`, {
            payment_source_id: card.id,
          }),
        () => who.browser.delete(`${scope}/commerce/subscription_items/${business.id}`),
        () => who.browser.post(`${scope}/commerce/payment_sources/initialize`, { gateway: 'stripe' }),
        () =>
          who.browser.post(`${scope}/commerce/payment_sources`, { gateway: 'stripe', payment_token: 'pm_x' }),
        () => who.browser.delete(`${scope}/commerce/payment_sources/${card.id}`),
        () =>
          who.browser.call('PUT', `${scope}/commerce/payers/default_payment_source`, {
            payment_source_id: card.id,
          }),
      ];
      // A vCISO holds an admin's rights, billing included (vciso-admin-rights.test.ts); a member only reads.
      for (const write of writes(member)) assertError(await write(), 403, 'not_allowed_access');
      const reads = (who: Member) => [
        () => who.browser.get(`${scope}/commerce/subscription`),
        () => who.browser.get(`${scope}/commerce/subscriptions`),
        () => who.browser.get(`${scope}/commerce/statements`),
        () => who.browser.get(`${scope}/commerce/payment_attempts`),
        () => who.browser.get(`${scope}/commerce/payment_sources`),
      ];
      for (const call of [...writes(outsider), ...reads(outsider)]) {
        const res = await call();
        assertError(res, 404, 'resource_not_found');
        assert.equal(JSON.stringify(res.body).includes(org.id), false);
      }
      assert.equal(await billingRows(), before, 'refused calls change nothing');
    });

    it("an organisation's ids are not reachable through the user's own scope or another organisation", async () => {
      const sub = await subscriptionOf(admin, org.id);
      const business = sub.subscription_items.find((i: Json) => i.plan.slug === 'business');
      const before = await billingRows();
      assertError(
        await admin.browser.delete(`/me/commerce/subscription_items/${business.id}`),
        404,
        'resource_not_found',
      );
      const mine = await createOrganization(admin, 'Second Co');
      assertError(
        await admin.browser.delete(`/organizations/${mine.id}/commerce/subscription_items/${business.id}`),
        404,
        'resource_not_found',
      );
      assert.equal(await billingRows(), before, 'nothing was cancelled');
      const items = JSON.parse(await billingRows()).items.filter((i: Json) => i.id === business.id);
      assert.equal(items[0].canceled_at, null);
    });

    it('starts a trial of a plan that has one, with nothing due now', async () => {
      const trialOrg = await createOrganization(admin, 'Trial Co');
      const checkout = ok(
        await admin.browser.post(`/organizations/${trialOrg.id}/commerce/checkouts`, {
          plan_id: 'cplan_team',
          plan_period: 'month',
        }),
      ).response;
      assert.equal(checkout.totals.total_due_now.amount, 0);
      assert.ok(checkout.free_trial_ends_at > Date.now());
      const done = ok(
        await admin.browser.patch(`/organizations/${trialOrg.id}/commerce/checkouts/${checkout.id}/confirm`, {
          gateway: 'stripe',
          use_test_card: 'true',
        }),
      ).response;
      assert.equal(done.status, 'completed');
      const team = (await subscriptionOf(admin, trialOrg.id)).subscription_items.find(
        (i: Json) => i.plan.slug === 'team',
      );
      assert.equal(team.is_free_trial, true);
      assert.equal((await subscriptionOf(admin, trialOrg.id)).eligible_for_free_trial, false);
    });
  });

  describe('without billing', () => {
    it('every billing route is 404 and the environment has no commerce settings', async () => {
      await disableBilling(h);
      try {
        for (const res of [
          await h.browser().get('/commerce/plans', { payer_type: 'user' }),
          await user.browser.get('/me/commerce/subscription'),
          await admin.browser.get(`/organizations/${org.id}/commerce/payment_sources`),
          await user.browser.post('/me/commerce/checkouts', {
            plan_id: 'cplan_pro_user',
            plan_period: 'month',
          }),
        ]) {
          assertError(res, 404, 'resource_not_found');
        }
        assert.equal(ok(await h.browser().get('/environment')).commerce_settings, null);
      } finally {
        await enableBilling(h, BILLING);
      }
    });
  });
});
