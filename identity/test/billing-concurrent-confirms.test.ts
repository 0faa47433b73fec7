import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Queryable } from '../src/db/database.ts';
import type { ClerkError } from '../src/errors.ts';
import type { CheckoutRow, PlanPeriod } from '../src/billing/billing-model.ts';
import { getCheckout } from '../src/billing/checkouts.ts';
import { reconcileLedger } from '../src/billing/ledger.ts';
import { listPaymentAttempts } from '../src/billing/statements.ts';
import { runDueBillingWork } from '../src/billing/renewals.ts';
import { cancelSubscriptionItem, currentSubscription } from '../src/billing/subscriptions.ts';
import type { PaymentGateway } from '../src/billing/gateways/payment-gateway.ts';
import { GatewayUnavailableError } from '../src/billing/gateways/payment-gateway.ts';
import { forEachBackend } from './support/backends.ts';
import {
  addCard,
  confirmCheckoutAt,
  enableBilling,
  newPayer,
  startCheckoutAt,
  type Payer,
} from './support/billing.ts';
import { Harness } from './support/harness.ts';

/**
 * Confirms of one payer are serialised (docs/billing.md, "Confirming never charges twice"): several
 * checkouts of the same payer confirmed at the same moment — a paid annual plan, a free trial, other paid
 * plans — make one plan change; the others are refused (`checkout_already_in_progress` while the first
 * runs, then `checkout_not_confirmable`) and charge nothing; the plan paid for is the one the payer has.
 */
forEachBackend('billing concurrent confirms', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
    await enableBilling(h);
  });
  after(() => h.close());

  const deps = () => h.identity.deps;
  const tx = <T>(fn: (tx: Queryable) => Promise<T>) => deps().db.transaction(fn);
  const start = (p: Payer, slug: string, period: PlanPeriod, now: Date) =>
    startCheckoutAt(h, p, slug, period, now);
  const confirm = (p: Payer, checkoutId: string, sourceId: string, now: Date) =>
    confirmCheckoutAt(h, p, checkoutId, sourceId, now);

  /**
   * Confirms every checkout at once, then retries those answered 409 `checkout_already_in_progress` as
   * clerk-js does, until each has a final answer: its checkout, or the error code it was refused with.
   */
  async function confirmAllAtOnce(p: Payer, checkouts: CheckoutRow[], sourceId: string, now: Date) {
    const final = new Map<string, string>();
    let pending = checkouts;
    for (let round = 0; pending.length > 0; round++) {
      assert.ok(round < 10, 'confirms still in progress after ten retries');
      const results = await Promise.allSettled(pending.map((c) => confirm(p, c.id, sourceId, now)));
      const retry: CheckoutRow[] = [];
      results.forEach((r, i) => {
        const c = pending[i]!;
        if (r.status === 'fulfilled') final.set(c.id, r.value.status);
        else if ((r.reason as ClerkError).code === 'checkout_already_in_progress') retry.push(c);
        else final.set(c.id, (r.reason as ClerkError).code ?? String(r.reason));
      });
      pending = retry;
    }
    return final;
  }

  for (const round of [1, 2, 3]) {
    it(`round ${round}: a paid annual plan, a free trial and two paid plans confirmed at once make one change`, async () => {
      const p = await newPayer(h, `race${round}`);
      const now = h.clock.now;
      const card = await addCard(h, p);
      // All priced while the payer is on the free plan: each alone would be immediate.
      const checkouts = [
        await start(p, 'pro', 'annual', now),
        await start(p, 'trial', 'month', now),
        await start(p, 'max', 'month', now),
        await start(p, 'pro', 'month', now),
      ];
      // A different order each round, so each kind of change gets to be the first.
      const order = [...checkouts.slice(round), ...checkouts.slice(0, round)];
      const final = await confirmAllAtOnce(p, order, card.id, now);

      const completed = checkouts.filter((c) => final.get(c.id) === 'completed');
      assert.equal(completed.length, 1, JSON.stringify(Object.fromEntries(final)));
      for (const c of checkouts) {
        if (c !== completed[0]) assert.equal(final.get(c.id), 'checkout_not_confirmable', c.planSlug);
      }
      const winner = (await tx((t) => getCheckout(t, p.ref, completed[0]!.id)))!;

      // At most one charge: the winner's, for what it showed.
      const attempts = (await tx((t) => listPaymentAttempts(t, p.ref, { limit: 50, offset: 0 }))).data.map(
        (d) => d.attempt,
      );
      const paid = attempts.filter((a) => a.status === 'paid');
      assert.ok(paid.length <= 1, JSON.stringify(paid));
      assert.deepEqual(
        paid.map((a) => a.amount),
        winner.totals.totalDueNow > 0 ? [winner.totals.totalDueNow] : [],
      );
      assert.equal(attempts.filter((a) => a.status === 'pending').length, 0);

      // The payer has the plan it paid for, and nothing else: no paid plan ended a moment after its charge.
      const sub = (await tx((t) => currentSubscription(t, p.ref, deps().billing.catalogue()!, now)))!;
      assert.deepEqual(
        sub.items.map((i) => [i.planSlug, i.planPeriod, i.status]),
        [[winner.planSlug, winner.planPeriod, 'active']],
      );
      if (paid.length) assert.equal(paid[0]!.subscriptionItemId, sub.items[0]!.id);
      assert.deepEqual(await tx((t) => reconcileLedger(t)), []);
    });
  }

  it("a confirm left by a dead process is finished first: another checkout's confirm then finds it stale", async () => {
    const p = await newPayer(h, 'dead');
    const now = h.clock.now;
    const card = await addCard(h, p);
    const annual = await start(p, 'pro', 'annual', now);
    const trial = await start(p, 'trial', 'month', now);
    const real = deps().billing;
    let away = true;
    // The gateway away during the annual plan's charge: its confirm stays started, its attempt pending.
    const flaky = (): PaymentGateway => {
      const g = real.gateway();
      return Object.assign(Object.create(g) as PaymentGateway, {
        charge: async (req: Parameters<PaymentGateway['charge']>[0]) => {
          if (away) throw new GatewayUnavailableError('connection reset');
          return g.charge(req);
        },
      });
    };
    deps().billing = { catalogue: real.catalogue, gateway: flaky };
    try {
      await assert.rejects(confirm(p, annual.id, card.id, now), { code: 'payment_gateway_unavailable' });
      // The annual plan's confirm runs (as far as anyone knows): the trial waits.
      await assert.rejects(confirm(p, trial.id, card.id, new Date(now.getTime() + 1000)), {
        code: 'checkout_already_in_progress',
      });
      away = false;
      // Past the stale limit, the trial's confirm finishes the annual one first (charging it once, with its
      // key), and is then refused: the payer is on a paid annual plan now.
      const later = new Date(now.getTime() + 60_000);
      await assert.rejects(confirm(p, trial.id, card.id, later), { code: 'checkout_not_confirmable' });
    } finally {
      deps().billing = real;
    }
    assert.equal((await tx((t) => getCheckout(t, p.ref, annual.id)))!.status, 'completed');
    const sub = (await tx((t) => currentSubscription(t, p.ref, deps().billing.catalogue()!, now)))!;
    assert.deepEqual(
      sub.items.map((i) => [i.planSlug, i.planPeriod, i.status, i.isFreeTrial]),
      [['pro', 'annual', 'active', false]],
    );
    const attempts = (await tx((t) => listPaymentAttempts(t, p.ref, { limit: 50, offset: 0 }))).data;
    assert.deepEqual(
      attempts.map((a) => [a.attempt.status, a.attempt.amount]),
      [['paid', 9600]],
    );
    assert.deepEqual(await tx((t) => reconcileLedger(t)), []);
  });

  it('a checkout is priced again at confirmation: one the subscription outgrew is refused and charges nothing', async () => {
    const p = await newPayer(h, 'outgrown');
    const t0 = h.clock.now;
    const card = await addCard(h, p);
    await confirm(p, (await start(p, 'pro', 'month', t0)).id, card.id, t0);
    const pro = (await tx((t) => currentSubscription(t, p.ref, deps().billing.catalogue()!, t0)))!.items[0]!;
    await tx((t) => cancelSubscriptionItem(t, p.ref, pro.id, { endNow: false }, t0));
    // "Resubscribe" ten minutes before the period's end: Pro again, nothing due (it is paid until then)…
    const resume = await start(p, 'pro', 'month', new Date(pro.periodEnd!.getTime() - 600_000));
    assert.equal(resume.totals.totalDueNow, 0);
    // …but the period ends before it is confirmed: Pro is gone, resubscribing now would cost its fee.
    await runDueBillingWork(deps(), pro.periodEnd!, { owner: 'test' });
    const late = new Date(pro.periodEnd!.getTime() + 1000);
    await assert.rejects(confirm(p, resume.id, card.id, late), { code: 'checkout_not_confirmable' });
    const attempts = (await tx((t) => listPaymentAttempts(t, p.ref, { limit: 50, offset: 0 }))).data;
    assert.equal(attempts.length, 1, 'only the first charge');
    const sub = (await tx((t) => currentSubscription(t, p.ref, deps().billing.catalogue()!, late)))!;
    assert.deepEqual(
      sub.items.map((i) => [i.planSlug, i.status]),
      [['free', 'active']],
    );
  });
});
