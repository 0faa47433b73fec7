import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ClerkError } from '../src/errors.ts';
import {
  cancelSubscriptionItem,
  currentSubscription,
  activePlanSlugs,
} from '../src/billing/subscriptions.ts';
import { confirmCheckout, getCheckout, startCheckout } from '../src/billing/checkouts.ts';
import { unusedCredit } from '../src/billing/proration.ts';
import {
  listPaymentSources,
  removePaymentSource,
  setDefaultPaymentSource,
  addPaymentSource,
  initializePaymentSource,
} from '../src/billing/payment-sources.ts';
import {
  getPaymentAttempt,
  getStatement,
  listPaymentAttempts,
  listStatements,
} from '../src/billing/statements.ts';
import { payerBalance, reconcileLedger } from '../src/billing/ledger.ts';
import { runDueBillingWork } from '../src/billing/renewals.ts';
import { findPayer } from '../src/billing/payers.ts';
import type { PayerRef } from '../src/billing/billing-model.ts';
import type { PaymentGateway } from '../src/billing/gateways/payment-gateway.ts';
import { GatewayUnavailableError } from '../src/billing/gateways/payment-gateway.ts';
import { forEachBackend } from './support/backends.ts';
import { addCard, confirmCard, days, enableBilling, newPayer, type Payer } from './support/billing.ts';
import { Harness } from './support/harness.ts';

/**
 * Billing's domain (docs/billing.md) on the real identity provider and the offline gateway: checkouts and
 * their confirm, upgrades with proration, downgrades at period end, trials, cancellation, the never-twice
 * charge under concurrent and resumed confirms, and another payer's ids refused everywhere.
 */
forEachBackend('billing domain', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
    await enableBilling(h);
  });
  after(() => h.close());

  const deps = () => h.identity.deps;
  const catalogue = () => deps().billing.catalogue()!;
  const tx = <T>(fn: (tx: import('../src/db/database.ts').Queryable) => Promise<T>) =>
    deps().db.transaction(fn);
  const rejects = async (p: Promise<unknown>, status: number, code: string) => {
    await assert.rejects(p, (err: ClerkError) => {
      assert.equal(err.code, code, err.message);
      assert.equal(err.status, status);
      return true;
    });
  };
  const start = (p: Payer, slug: string, period: 'month' | 'annual', now: Date) =>
    tx((t) =>
      startCheckout(
        t,
        { ref: p.ref, userId: p.userId, planId: `cplan_${slug}`, planPeriod: period },
        catalogue(),
        now,
      ),
    );
  const confirm = (p: Payer, checkoutId: string, paymentSourceId: string, now: Date) =>
    confirmCheckout(deps(), { ref: p.ref, userId: p.userId, checkoutId, payment: { paymentSourceId } }, now);
  const subscription = (p: Payer, now: Date) => tx((t) => currentSubscription(t, p.ref, catalogue(), now));
  const attempts = async (p: Payer) =>
    (await tx((t) => listPaymentAttempts(t, p.ref, { limit: 100, offset: 0 }))).data;

  it('a new payer is on the default free plan; subscribing to Pro charges its fee once', async () => {
    const p = await newPayer(h, 'pro');
    const now = h.clock.now;
    const sub0 = (await subscription(p, now))!;
    assert.deepEqual(
      sub0.items.map((i) => [i.planSlug, i.status, i.periodEnd]),
      [['free', 'active', null]],
    );
    const card = await addCard(h, p);
    const checkout = await start(p, 'pro', 'month', now);
    assert.equal(checkout.status, 'needs_confirmation');
    assert.equal(checkout.totals.totalDueNow, 1000);
    assert.equal(checkout.isImmediatePlanChange, true);
    const done = await confirm(p, checkout.id, card.id, now);
    assert.equal(done.status, 'completed');
    // Confirmed again (clerk-js retries): the same completed checkout, nothing charged again.
    assert.equal((await confirm(p, checkout.id, card.id, now)).status, 'completed');
    const sub = (await subscription(p, now))!;
    assert.deepEqual(activePlanSlugs(sub.items), ['pro']);
    const paid = await attempts(p);
    assert.deepEqual(
      paid.map((a) => [a.attempt.status, a.attempt.amount, a.attempt.chargeType]),
      [['paid', 1000, 'checkout']],
    );
    assert.equal(paid[0]!.paymentSource?.last4, '4242');
    // The same plan and period again: clerk-js's invalid_plan_change screen, with the plan in meta.
    await assert.rejects(start(p, 'pro', 'month', now), (err: ClerkError) => {
      assert.equal(err.code, 'invalid_plan_change');
      assert.equal((err.meta.plan as { id: string }).id, 'cplan_pro');
      assert.equal(typeof err.meta.is_plan_upgrade_possible, 'boolean');
      return true;
    });
    // The card pays for Pro: not removable while it does.
    const listed = await tx((t) => listPaymentSources(t, p.ref, { limit: 10, offset: 0 }));
    assert.deepEqual(
      listed.data.map((s) => [s.id, s.isDefault, s.isRemovable]),
      [[card.id, true, false]],
    );
    await rejects(
      tx((t) => removePaymentSource(t, p.ref, card.id, now)),
      400,
      'payment_source_in_use',
    );
  });

  it('checkout refusals: unknown, hidden, other payer type, annual without fee; missing email', async () => {
    const p = await newPayer(h, 'refuse');
    const now = h.clock.now;
    await rejects(start(p, 'nope', 'month', now), 404, 'resource_not_found');
    await rejects(start(p, 'hidden', 'month', now), 404, 'resource_not_found');
    await rejects(start(p, 'team', 'month', now), 422, 'form_param_value_invalid');
    await rejects(start(p, 'max', 'annual', now), 422, 'form_param_value_invalid');
    const org: PayerRef = { type: 'org', organizationId: 'org_none' };
    await rejects(
      tx((t) =>
        startCheckout(
          t,
          { ref: org, userId: 'user_missing', planId: 'cplan_team', planPeriod: 'month' },
          catalogue(),
          now,
        ),
      ),
      422,
      'missing_payer_email',
    );
  });

  it('an upgrade is immediate, with the unused share of the paid period as credit', async () => {
    const p = await newPayer(h, 'upgrade');
    const t0 = h.clock.now;
    const card = await addCard(h, p);
    await confirm(p, (await start(p, 'pro', 'month', t0)).id, card.id, t0);
    const t1 = days(t0, 10);
    const pro = (await subscription(p, t1))!.items.find((i) => i.planSlug === 'pro')!;
    const credit = unusedCredit(pro, t1);
    const total = pro.periodEnd!.getTime() - pro.periodStart.getTime();
    assert.equal(credit, Math.ceil((1000 * (pro.periodEnd!.getTime() - t1.getTime())) / total));
    const checkout = await start(p, 'max', 'month', t1);
    assert.equal(checkout.isImmediatePlanChange, true);
    assert.equal(checkout.totals.credit, credit);
    assert.equal(checkout.totals.totalDueNow, 3000 - credit);
    await confirm(p, checkout.id, card.id, t1);
    const sub = (await subscription(p, t1))!;
    assert.deepEqual(
      sub.items.map((i) => [i.planSlug, i.status]),
      [['max', 'active']],
    );
    assert.equal((await attempts(p))[0]!.attempt.amount, 3000 - credit);
    const payer = (await tx((t) => findPayer(t, p.ref)))!;
    assert.equal(await tx((t) => payerBalance(t, payer.id)), 0, 'the credit was used up by the upgrade');
  });

  it('a downgrade takes effect at the end of the period; the schedule starts it and charges it', async () => {
    const p = await newPayer(h, 'down');
    const t0 = h.clock.now;
    const card = await addCard(h, p);
    await confirm(p, (await start(p, 'max', 'month', t0)).id, card.id, t0);
    const max = (await subscription(p, t0))!.items[0]!;
    const t1 = days(t0, 3);
    const checkout = await start(p, 'pro', 'month', t1);
    assert.equal(checkout.isImmediatePlanChange, false);
    assert.equal(checkout.totals.totalDueNow, 0);
    assert.equal(checkout.planPeriodStart?.getTime(), max.periodEnd!.getTime());
    await confirm(p, checkout.id, card.id, t1);
    let items = (await subscription(p, t1))!.items;
    assert.deepEqual(
      items.map((i) => [i.planSlug, i.status]),
      [
        ['max', 'active'],
        ['pro', 'upcoming'],
      ],
    );
    assert.ok(items[0]!.canceledAt, 'Max renews no more');
    await runDueBillingWork(deps(), max.periodEnd!, { owner: 'test' });
    items = (await subscription(p, max.periodEnd!))!.items;
    assert.deepEqual(
      items.map((i) => [i.planSlug, i.status]),
      [['pro', 'active']],
    );
    const recurring = (await attempts(p)).filter((a) => a.attempt.chargeType === 'recurring');
    assert.deepEqual(
      recurring.map((a) => [a.attempt.status, a.attempt.amount]),
      [['paid', 1000]],
    );
  });

  it('a free trial charges nothing now, keeps the card, and charges it at the trial end', async () => {
    const p = await newPayer(h, 'trial');
    const t0 = h.clock.now;
    const card = await addCard(h, p);
    const checkout = await start(p, 'trial', 'month', t0);
    assert.equal(checkout.totals.totalDueNow, 0);
    assert.equal(checkout.freeTrialEndsAt?.getTime(), days(t0, 14).getTime());
    // Without a payment method: refused (it is needed for the first charge).
    await rejects(confirm(p, checkout.id, '', t0), 422, 'form_param_missing');
    await confirm(p, checkout.id, card.id, t0);
    const item = (await subscription(p, t0))!.items[0]!;
    assert.equal(item.isFreeTrial, true);
    assert.equal((await attempts(p)).length, 0);
    // One trial per payer: a second trial checkout later is a plain one.
    await runDueBillingWork(deps(), days(t0, 14), { owner: 'test' });
    const after = (await subscription(p, days(t0, 14)))!.items[0]!;
    assert.equal(after.isFreeTrial, false);
    assert.equal(after.periodStart.getTime(), days(t0, 14).getTime());
    assert.deepEqual(
      (await attempts(p)).map((a) => [a.attempt.status, a.attempt.amount]),
      [['paid', 2000]],
    );
  });

  it('cancel at period end keeps the plan until then, then the free plan returns; endNow ends at once', async () => {
    const p = await newPayer(h, 'cancel');
    const t0 = h.clock.now;
    const card = await addCard(h, p);
    await confirm(p, (await start(p, 'pro', 'month', t0)).id, card.id, t0);
    const pro = (await subscription(p, t0))!.items[0]!;
    const canceled = await tx((t) => cancelSubscriptionItem(t, p.ref, pro.id, { endNow: false }, t0));
    assert.ok(canceled.canceledAt);
    assert.equal(canceled.status, 'active');
    await runDueBillingWork(deps(), pro.periodEnd!, { owner: 'test' });
    const items = (await subscription(p, pro.periodEnd!))!.items;
    assert.deepEqual(
      items.map((i) => [i.planSlug, i.status]),
      [['free', 'active']],
    );
    assert.equal((await attempts(p)).length, 1, 'no renewal charge');
    // The default plan cannot be canceled.
    await rejects(
      tx((t) => cancelSubscriptionItem(t, p.ref, items[0]!.id, { endNow: true }, t0)),
      400,
      'default_plan_cannot_be_canceled',
    );

    const q = await newPayer(h, 'endnow');
    const qcard = await addCard(h, q);
    await confirm(q, (await start(q, 'pro', 'month', t0)).id, qcard.id, t0);
    const qpro = (await subscription(q, t0))!.items[0]!;
    await tx((t) => cancelSubscriptionItem(t, q.ref, qpro.id, { endNow: true }, t0, catalogue()));
    assert.deepEqual(
      (await subscription(q, t0))!.items.map((i) => i.planSlug),
      ['free'],
    );
  });

  it('a declined card leaves the checkout to confirm again, with a failed attempt and the decline code', async () => {
    const p = await newPayer(h, 'decline');
    const now = h.clock.now;
    const bad = await addCard(h, p, '4000000000000002');
    const checkout = await start(p, 'pro', 'month', now);
    await rejects(confirm(p, checkout.id, bad.id, now), 402, 'card_declined');
    assert.equal((await tx((t) => getCheckout(t, p.ref, checkout.id)))!.status, 'needs_confirmation');
    assert.deepEqual(
      (await attempts(p)).map((a) => [a.attempt.status, a.attempt.failureCode]),
      [['failed', 'card_declined']],
    );
    const poor = await addCard(h, p, '4000000000009995');
    await rejects(confirm(p, checkout.id, poor.id, now), 402, 'insufficient_funds');
    const good = await addCard(h, p);
    assert.equal((await confirm(p, checkout.id, good.id, now)).status, 'completed');
    assert.deepEqual((await attempts(p)).map((a) => a.attempt.status).sort(), ['failed', 'failed', 'paid']);
    // The test card: offline gateway in development mode only.
    const again = await start(p, 'max', 'month', now);
    const viaTest = await confirmCheckout(
      deps(),
      {
        ref: p.ref,
        userId: p.userId,
        checkoutId: again.id,
        payment: { gateway: 'stripe', useTestCard: true },
      },
      now,
    );
    assert.equal(viaTest.status, 'completed');
  });

  it('two confirms at once charge once', async () => {
    const p = await newPayer(h, 'race');
    const now = h.clock.now;
    const card = await addCard(h, p);
    const checkout = await start(p, 'pro', 'month', now);
    const results = await Promise.allSettled([
      confirm(p, checkout.id, card.id, now),
      confirm(p, checkout.id, card.id, now),
      confirm(p, checkout.id, card.id, now),
    ]);
    const ok = results.filter((r) => r.status === 'fulfilled');
    assert.ok(ok.length >= 1, JSON.stringify(results));
    for (const r of results) {
      if (r.status === 'rejected')
        assert.equal((r.reason as ClerkError).code, 'checkout_already_in_progress');
    }
    assert.equal((await attempts(p)).filter((a) => a.attempt.status === 'paid').length, 1);
  });

  it('a confirm whose process died is resumed with the same idempotency key and charges once', async () => {
    const p = await newPayer(h, 'resume');
    const now = h.clock.now;
    const card = await addCard(h, p);
    const checkout = await start(p, 'pro', 'month', now);
    const real = deps().billing;
    const keys: string[] = [];
    let fail = true;
    // The gateway away during the first charge: the confirm is left started, its attempt pending.
    const flaky = (): PaymentGateway => {
      const g = real.gateway();
      return Object.assign(Object.create(g) as PaymentGateway, {
        charge: async (req: Parameters<PaymentGateway['charge']>[0]) => {
          keys.push(req.idempotencyKey);
          if (fail) throw new GatewayUnavailableError('connection reset');
          return g.charge(req);
        },
      });
    };
    deps().billing = { catalogue: real.catalogue, gateway: flaky };
    try {
      await rejects(confirm(p, checkout.id, card.id, now), 502, 'payment_gateway_unavailable');
      await rejects(
        confirm(p, checkout.id, card.id, new Date(now.getTime() + 1000)),
        409,
        'checkout_already_in_progress',
      );
      fail = false;
      const later = new Date(now.getTime() + 60_000);
      assert.equal((await confirm(p, checkout.id, card.id, later)).status, 'completed');
    } finally {
      deps().billing = real;
    }
    assert.equal(keys.length, 2);
    assert.equal(keys[0], keys[1], 'the resumed charge carries the first key');
    assert.deepEqual(
      (await attempts(p)).map((a) => a.attempt.status),
      ['paid'],
    );
  });

  it("another payer's ids are not found anywhere, and another payer's card token is refused", async () => {
    const a = await newPayer(h, 'owner');
    const b = await newPayer(h, 'intruder');
    const now = h.clock.now;
    const card = await addCard(h, a);
    const checkout = await start(a, 'pro', 'month', now);
    await confirm(a, checkout.id, card.id, now);
    const item = (await subscription(a, now))!.items[0]!;
    const attempt = (await attempts(a))[0]!.attempt;
    await subscription(b, now);
    await addCard(h, b);
    assert.equal(await tx((t) => getCheckout(t, b.ref, checkout.id)), null);
    await rejects(confirm(b, checkout.id, card.id, now), 404, 'resource_not_found');
    const own = await start(b, 'pro', 'month', now);
    await rejects(confirm(b, own.id, card.id, now), 404, 'resource_not_found');
    await rejects(
      tx((t) => cancelSubscriptionItem(t, b.ref, item.id, { endNow: true }, now)),
      404,
      'resource_not_found',
    );
    await rejects(
      tx((t) => removePaymentSource(t, b.ref, card.id, now)),
      404,
      'resource_not_found',
    );
    await rejects(
      tx((t) => setDefaultPaymentSource(t, b.ref, card.id)),
      404,
      'resource_not_found',
    );
    assert.equal(await tx((t) => getPaymentAttempt(t, b.ref, attempt.id)), null);
    assert.equal(await tx((t) => getStatement(t, b.ref, attempt.statementId)), null);
    assert.ok((await tx((t) => getStatement(t, a.ref, attempt.statementId)))!.groups.length === 1);
    assert.equal((await tx((t) => listStatements(t, b.ref, { limit: 10, offset: 0 }))).data.length, 0);
    // A's card token (a confirmed setup of A's) presented by B: refused, nothing added.
    const setup = await initializePaymentSource(deps(), a.ref, now);
    const pm = await confirmCard(a.browser, setup.clientSecret, '4242424242424242');
    await rejects(
      addPaymentSource(deps(), b.ref, { gateway: 'stripe', paymentToken: pm }, now),
      422,
      'form_param_value_invalid',
    );
    assert.equal((await tx((t) => listPaymentSources(t, b.ref, { limit: 10, offset: 0 }))).totalCount, 1);
    // A's own token works, once per method.
    const added = await addPaymentSource(deps(), a.ref, { gateway: 'stripe', paymentToken: pm }, now);
    assert.equal(
      (await addPaymentSource(deps(), a.ref, { gateway: 'stripe', paymentToken: pm }, now)).id,
      added.id,
    );
  });

  it('the ledger reconciles with the payment attempts after all of the above', async () => {
    assert.deepEqual(await tx((t) => reconcileLedger(t)), []);
  });
});
