import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Queryable } from '../src/db/database.ts';
import { confirmCheckout, startCheckout } from '../src/billing/checkouts.ts';
import { currentSubscription } from '../src/billing/subscriptions.ts';
import { listPaymentAttempts } from '../src/billing/statements.ts';
import { payerBalance, reconcileLedger, recordCredit } from '../src/billing/ledger.ts';
import { findPayer } from '../src/billing/payers.ts';
import { runDueBillingWork } from '../src/billing/renewals.ts';
import { forEachBackend } from './support/backends.ts';
import { addCard, enableBilling, newPayer, type Payer } from './support/billing.ts';
import { Harness, type Json } from './support/harness.ts';

/**
 * The ledger (docs/billing.md): a credit balance is used by the next fee and the next renewal before the
 * card is charged; the ledger reconciles with the payment attempts; billing's webhook events are recorded with
 * @clerk/backend 2.10.1's shapes.
 */
forEachBackend('billing ledger', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
    await enableBilling(h);
  });
  after(() => h.close());

  const deps = () => h.identity.deps;
  const tx = <T>(fn: (tx: Queryable) => Promise<T>) => deps().db.transaction(fn);
  const subscribe = async (
    p: Payer,
    slug: string,
    period: 'month' | 'annual',
    sourceId: string,
    now: Date,
  ) => {
    const c = await tx((t) =>
      startCheckout(
        t,
        { ref: p.ref, userId: p.userId, planId: `cplan_${slug}`, planPeriod: period },
        deps().billing.catalogue()!,
        now,
      ),
    );
    await confirmCheckout(
      deps(),
      { ref: p.ref, userId: p.userId, checkoutId: c.id, payment: { paymentSourceId: sourceId } },
      now,
    );
    return c;
  };

  it('credit and balance beyond the new fee stay as a balance, used by the next renewal before charging', async () => {
    const p = await newPayer(h, 'ledger');
    const t0 = h.clock.now;
    const card = await addCard(h, p);
    await subscribe(p, 'pro', 'month', card.id, t0);
    const payer = (await tx((t) => findPayer(t, p.ref)))!;
    // No plan change leaves more credit than the new fee any more (an annual plan is not traded for another
    // plan's month: docs/billing.md), so a balance is granted here, as the ledger records any credit.
    const move = { payerId: payer.id, currency: 'usd', subscriptionItemId: null, now: t0 };
    await tx((t) => recordCredit(t, move, 4000, 0, 'test'));
    // Pro (1000) to Max (3000) the same day: Pro's whole fee is credited, and with the balance covers Max.
    const upgrade = await subscribe(p, 'max', 'month', card.id, t0);
    assert.equal(upgrade.totals.credit, 1000);
    assert.equal(upgrade.totals.totalDueNow, 0);
    const balance = await tx((t) => payerBalance(t, payer.id));
    assert.equal(balance, 1000 + 4000 - 3000);
    const max = (await tx((t) => currentSubscription(t, p.ref, deps().billing.catalogue()!, t0)))!.items[0]!;
    await runDueBillingWork(deps(), max.periodEnd!, { owner: 'w' });
    assert.equal(await tx((t) => payerBalance(t, payer.id)), 0);
    const list = (await tx((t) => listPaymentAttempts(t, p.ref, { limit: 10, offset: 0 }))).data.map(
      (d) => d.attempt,
    );
    assert.deepEqual(
      list.map((a) => [a.chargeType, a.status, a.amount]),
      [
        ['recurring', 'paid', 3000 - balance],
        ['checkout', 'paid', 1000],
      ],
    );
    assert.deepEqual(await tx((t) => reconcileLedger(t)), []);
  });

  it('records subscription, item and payment events shaped as @clerk/backend 2.10.1 reads them', async () => {
    const rows = await h.db.query<{ type: string; payload: Json }>(
      `SELECT type, payload FROM webhook_events WHERE type LIKE 'subscription%' OR type LIKE 'paymentAttempt%' ORDER BY created_at`,
    );
    const types = new Set(rows.map((r) => r.type));
    for (const t of [
      'subscription.created',
      'subscriptionItem.created',
      'subscriptionItem.active',
      'subscriptionItem.ended',
      'paymentAttempt.created',
      'paymentAttempt.updated',
    ]) {
      assert.ok(types.has(t), `no ${t} in ${[...types].join(', ')}`);
    }
    const paid = rows.find((r) => r.type === 'paymentAttempt.updated' && r.payload.data.status === 'paid')!
      .payload.data;
    assert.equal(paid.object, 'commerce_payment_attempt');
    assert.equal(typeof paid.totals.grand_total.amount, 'number');
    assert.equal(paid.payment_source.last4, '4242');
    assert.ok(paid.payer.user_id.startsWith('user_'));
    const sub = rows.find((r) => r.type === 'subscription.created')!.payload.data;
    assert.equal(sub.object, 'commerce_subscription');
    assert.ok(Array.isArray(sub.items));
    const item = rows.find((r) => r.type === 'subscriptionItem.active')!.payload.data;
    assert.equal(item.object, 'commerce_subscription_item');
    assert.ok(item.plan.id.startsWith('cplan_'));
  });
});
