import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Queryable } from '../src/db/database.ts';
import type { ClerkError } from '../src/errors.ts';
import type { PlanPeriod } from '../src/billing/billing-model.ts';
import type { BillingSettings } from '../src/billing/billing-settings.ts';
import { reconcileLedger } from '../src/billing/ledger.ts';
import { addPeriod } from '../src/billing/plans.ts';
import { runDueBillingWork } from '../src/billing/renewals.ts';
import { listPaymentAttempts } from '../src/billing/statements.ts';
import { cancelSubscriptionItem, currentSubscription } from '../src/billing/subscriptions.ts';
import { forEachBackend } from './support/backends.ts';
import {
  addCard,
  BILLING,
  confirmCheckoutAt,
  days,
  enableBilling,
  newPayer,
  startCheckoutAt,
  type Payer,
} from './support/billing.ts';
import { Harness, type Json } from './support/harness.ts';
import { assertError } from './support/organizations.ts';

/**
 * Plan changes as Clerk's own billing tests expect them (docs/billing.md, "Plan changes and proration"): the
 * unused share of a paid period credited to the millisecond (a same-day change credits the whole fee), an
 * annual plan left for another plan billed monthly refused with clerk-js's "choose to pay annually" screen,
 * "Resubscribe" resuming the current plan over a scheduled change, cancelling scheduling the free plan, and a
 * declined card answered with Clerk's words.
 */
const PLANS: BillingSettings = {
  ...BILLING,
  plans: {
    ...BILLING.plans,
    premium: {
      name: 'Premium',
      payerType: 'user',
      description: '',
      monthlyFee: 4000,
      annualMonthlyFee: 3500,
      features: [],
      isDefault: false,
      publiclyVisible: true,
    },
  },
};

forEachBackend('billing plan changes', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
    await enableBilling(h, PLANS);
  });
  after(() => h.close());

  const deps = () => h.identity.deps;
  const catalogue = () => deps().billing.catalogue()!;
  const tx = <T>(fn: (tx: Queryable) => Promise<T>) => deps().db.transaction(fn);
  const start = (p: Payer, slug: string, period: PlanPeriod, now: Date) =>
    startCheckoutAt(h, p, slug, period, now);
  const confirm = (p: Payer, checkoutId: string, sourceId: string, now: Date) =>
    confirmCheckoutAt(h, p, checkoutId, sourceId, now);
  const subscribe = async (p: Payer, slug: string, period: PlanPeriod, sourceId: string, now: Date) =>
    confirm(p, (await start(p, slug, period, now)).id, sourceId, now);
  const items = async (p: Payer, now: Date) =>
    (await tx((t) => currentSubscription(t, p.ref, catalogue(), now)))!.items;
  const paidAmounts = async (p: Payer) =>
    (await tx((t) => listPaymentAttempts(t, p.ref, { limit: 50, offset: 0 }))).data
      .filter((d) => d.attempt.status === 'paid')
      .map((d) => d.attempt.amount);

  it('a change seconds after paying credits the whole fee; later, the unused share of the period, rounded up', async () => {
    const p = await newPayer(h, 'prorate');
    const t0 = h.clock.now;
    const card = await addCard(h, p);
    await subscribe(p, 'pro', 'month', card.id, t0);
    const seconds = new Date(t0.getTime() + 5000);
    const upgrade = await start(p, 'max', 'month', seconds);
    assert.equal(upgrade.totals.credit, 1000, 'the whole month is unused');
    assert.equal(upgrade.totals.totalDueNow, 2000);

    // Annual: the whole year's fee.
    const q = await newPayer(h, 'prorate-annual');
    const qcard = await addCard(h, q);
    await subscribe(q, 'pro', 'annual', qcard.id, t0);
    const annual = await start(q, 'premium', 'annual', seconds);
    assert.equal(annual.totals.credit, 9600);
    assert.equal(annual.totals.totalDueNow, 42000 - 9600);

    // Ten days and a second in: the unused milliseconds' share of the fee, rounded in the payer's favour.
    const later = new Date(days(t0, 10).getTime() + 1000);
    const end = addPeriod(t0, 'month');
    const [left, total] = [end.getTime() - later.getTime(), end.getTime() - t0.getTime()];
    const share = Math.ceil((1000 * left) / total);
    assert.ok(share < 1000 && share > 0);
    const mid = await start(p, 'max', 'month', later);
    assert.equal(mid.totals.credit, share);
    await confirm(p, mid.id, card.id, later);
    assert.deepEqual(await paidAmounts(p), [3000 - share, 1000]);
    assert.deepEqual(await tx((t) => reconcileLedger(t)), []);
  });

  it("an annual plan to another plan billed monthly is refused with clerk-js's choose-annual screen", async () => {
    const p = await newPayer(h, 'annual');
    const t0 = h.clock.now;
    const card = await addCard(h, p);
    await subscribe(p, 'pro', 'annual', card.id, t0);
    const t1 = days(t0, 3);
    // Premium is offered annually: choosing it annually is possible (clerk-js: "you need to choose to pay
    // annually"). Max is not: nothing is possible (clerk-js: "cannot subscribe").
    for (const [slug, possible] of [
      ['premium', true],
      ['max', false],
    ] as const) {
      await assert.rejects(start(p, slug, 'month', t1), (err: ClerkError) => {
        assert.equal(err.status, 400);
        assert.equal(err.code, 'invalid_plan_change');
        assert.equal((err.meta.plan as Json).id, `cplan_${slug}`);
        assert.equal(err.meta.is_plan_upgrade_possible, possible);
        return true;
      });
    }
    // On the wire, as clerk-js reads it (CheckoutPage's FetchStatus, InvalidPlanScreen).
    const res = await p.browser.post('/me/commerce/checkouts', {
      plan_id: 'cplan_premium',
      plan_period: 'month',
    });
    assertError(res, 400, 'invalid_plan_change');
    assert.equal(res.body.errors[0].meta.is_plan_upgrade_possible, true);
    assert.equal(res.body.errors[0].meta.plan.amount_formatted, '40.00');

    // Annually, Premium is an upgrade; the free plan, and Pro billed monthly ("Switch to monthly" in the
    // subscription details), wait for the end of the paid year.
    const up = await start(p, 'premium', 'annual', t1);
    assert.equal(up.isImmediatePlanChange, true);
    const pro = (await items(p, t1))[0]!;
    for (const [slug, period] of [
      ['free', 'month'],
      ['pro', 'month'],
    ] as const) {
      const later = await start(p, slug, period, t1);
      assert.equal(later.isImmediatePlanChange, false, slug);
      assert.equal(later.totals.totalDueNow, 0);
      assert.equal(later.planPeriodStart?.getTime(), pro.periodEnd!.getTime());
    }
  });

  it('Resubscribe while a downgrade is scheduled resumes the current plan and drops the scheduled one', async () => {
    const p = await newPayer(h, 'resub');
    const t0 = h.clock.now;
    const card = await addCard(h, p);
    await subscribe(p, 'max', 'month', card.id, t0);
    const t1 = days(t0, 2);
    await subscribe(p, 'pro', 'month', card.id, t1);
    assert.deepEqual(
      (await items(p, t1)).map((i) => [i.planSlug, i.status, i.canceledAt !== null]),
      [
        ['max', 'active', true],
        ['pro', 'upcoming', false],
      ],
    );
    // clerk-js's "Resubscribe" opens a checkout of the current plan and period.
    const t2 = days(t0, 3);
    const resume = await start(p, 'max', 'month', t2);
    assert.equal(resume.isImmediatePlanChange, true);
    assert.equal(resume.totals.totalDueNow, 0);
    assert.equal((await confirm(p, resume.id, card.id, t2)).status, 'completed');
    const now = await items(p, t2);
    assert.deepEqual(
      now.map((i) => [i.planSlug, i.status, i.canceledAt]),
      [['max', 'active', null]],
    );
    // Max renews at its period's end, Pro never starts.
    await runDueBillingWork(deps(), now[0]!.periodEnd!, { owner: 'test' });
    assert.deepEqual(
      (await items(p, now[0]!.periodEnd!)).map((i) => [i.planSlug, i.status]),
      [['max', 'active']],
    );
    assert.deepEqual(await paidAmounts(p), [3000, 3000]);
  });

  it('cancelling a paid plan or a free trial schedules the free plan from the end of the period', async () => {
    const t0 = h.clock.now;
    for (const [slug, label] of [
      ['pro', 'cancel-paid'],
      ['trial', 'cancel-trial'],
    ] as const) {
      const p = await newPayer(h, label);
      const card = await addCard(h, p);
      await subscribe(p, slug, 'month', card.id, t0);
      const plan = (await items(p, t0))[0]!;
      const t1 = days(t0, 1);
      await tx((t) => cancelSubscriptionItem(t, p.ref, plan.id, { endNow: false }, t1));
      const after = await items(p, t1);
      assert.deepEqual(
        after.map((i) => [i.planSlug, i.status, i.canceledAt !== null]),
        [
          [slug, 'active', true],
          ['free', 'upcoming', false],
        ],
        label,
      );
      assert.equal(after[1]!.periodStart.getTime(), plan.periodEnd!.getTime());
      assert.equal(after[1]!.periodEnd, null);
      // clerk-js reads it as the Billing pages show a switch to the free plan: upcoming, starting then.
      const json = (await p.browser.get('/me/commerce/subscription')).body.response;
      assert.deepEqual(
        json.subscription_items.map((i: Json) => [i.plan.slug, i.status, i.period_start]),
        [
          [slug, 'active', plan.periodStart.getTime()],
          ['free', 'upcoming', plan.periodEnd!.getTime()],
        ],
      );
      assert.equal(json.next_payment, undefined, 'nothing more is charged');
      // At the end of the period the free plan starts.
      await runDueBillingWork(deps(), plan.periodEnd!, { owner: 'test' });
      assert.deepEqual(
        (await items(p, plan.periodEnd!)).map((i) => [i.planSlug, i.status]),
        [['free', 'active']],
      );
    }

    // Resubscribing before the end resumes the plan and drops the free one.
    const p = await newPayer(h, 'cancel-resume');
    const card = await addCard(h, p);
    await subscribe(p, 'pro', 'month', card.id, t0);
    const pro = (await items(p, t0))[0]!;
    await tx((t) => cancelSubscriptionItem(t, p.ref, pro.id, { endNow: false }, days(t0, 1)));
    await subscribe(p, 'pro', 'month', card.id, days(t0, 2));
    assert.deepEqual(
      (await items(p, t0)).map((i) => [i.planSlug, i.status, i.canceledAt]),
      [['pro', 'active', null]],
    );
    assert.deepEqual(await paidAmounts(p), [1000]);
  });

  it("a declined card is answered with Clerk's message, shown by clerk-js's checkout", async () => {
    const p = await newPayer(h, 'declined');
    const checkout = (
      await p.browser.post('/me/commerce/checkouts', { plan_id: 'cplan_pro', plan_period: 'month' })
    ).body.response;
    for (const [number, code, message] of [
      ['4000000000000002', 'card_declined', 'The card was declined.'],
      ['4000000000009995', 'insufficient_funds', 'The card has insufficient funds.'],
    ] as const) {
      const card = await addCard(h, p, number);
      const res = await p.browser.patch(`/me/commerce/checkouts/${checkout.id}/confirm`, {
        payment_source_id: card.id,
      });
      assertError(res, 402, code);
      assert.equal(res.body.errors[0].long_message, message);
      assert.equal(res.body.errors[0].meta.decline_code, code);
    }
  });
});
