import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Queryable } from '../src/db/database.ts';
import { confirmCheckout, startCheckout } from '../src/billing/checkouts.ts';
import { currentSubscription } from '../src/billing/subscriptions.ts';
import { listPaymentAttempts } from '../src/billing/statements.ts';
import { payerBalance, reconcileLedger } from '../src/billing/ledger.ts';
import { findPayer } from '../src/billing/payers.ts';
import { runDueBillingWork } from '../src/billing/renewals.ts';
import { forEachBackend } from './support/backends.ts';
import { addCard, days, enableBilling, newPayer, type Payer } from './support/billing.ts';
import { Harness, type Json } from './support/harness.ts';

/**
 * The ledger (docs/billing.md): credit left over by an upgrade is kept as a balance and used by the next
 * renewal; the ledger reconciles with the payment attempts; billing's webhook events are recorded with
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

  it('credit beyond the new fee stays as a balance, and the next renewal uses it before charging', async () => {
    const p = await newPayer(h, 'ledger');
    const t0 = h.clock.now;
    const card = await addCard(h, p);
    await subscribe(p, 'pro', 'annual', card.id, t0);
    // Pro billed annually (800 a month, 9600 a year) to Max monthly (3000): an upgrade, with ~11 months' credit.
    const t1 = days(t0, 30);
    const upgrade = await subscribe(p, 'max', 'month', card.id, t1);
    assert.ok(upgrade.totals.credit > 3000, `credit ${upgrade.totals.credit}`);
    assert.equal(upgrade.totals.totalDueNow, 0);
    const payer = (await tx((t) => findPayer(t, p.ref)))!;
    const balance = await tx((t) => payerBalance(t, payer.id));
    assert.equal(balance, upgrade.totals.credit - 3000);
    const max = (await tx((t) => currentSubscription(t, p.ref, deps().billing.catalogue()!, t1)))!.items[0]!;
    await runDueBillingWork(deps(), max.periodEnd!, { owner: 'w' });
    assert.equal(await tx((t) => payerBalance(t, payer.id)), Math.max(0, balance - 3000));
    const list = (await tx((t) => listPaymentAttempts(t, p.ref, { limit: 10, offset: 0 }))).data.map(
      (d) => d.attempt,
    );
    assert.deepEqual(
      list.map((a) => [a.chargeType, a.status, a.amount]),
      [
        ['recurring', 'paid', Math.max(0, 3000 - balance)],
        ['checkout', 'paid', 9600],
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
