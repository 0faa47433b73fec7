import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Queryable } from '../src/db/database.ts';
import { confirmCheckout, startCheckout } from '../src/billing/checkouts.ts';
import { currentSubscription } from '../src/billing/subscriptions.ts';
import { listPaymentAttempts } from '../src/billing/statements.ts';
import { setDefaultPaymentSource } from '../src/billing/payment-sources.ts';
import { reconcileLedger } from '../src/billing/ledger.ts';
import { RETRY_DAYS, runDueBillingWork } from '../src/billing/renewals.ts';
import { forEachBackend } from './support/backends.ts';
import { addCard, days, enableBilling, newPayer, type Payer } from './support/billing.ts';
import { Harness } from './support/harness.ts';

/**
 * The renewal schedule (docs/billing.md), driven by passing `now`: renewals, a failed renewal going past
 * due and recovering, retries running out, and several workers racing for the same due items.
 */
forEachBackend('billing renewals', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
    await enableBilling(h);
  });
  after(() => h.close());

  const deps = () => h.identity.deps;
  const tx = <T>(fn: (tx: Queryable) => Promise<T>) => deps().db.transaction(fn);
  const subscribe = async (p: Payer, slug: string, sourceId: string, now: Date) => {
    const c = await tx((t) =>
      startCheckout(
        t,
        { ref: p.ref, userId: p.userId, planId: `cplan_${slug}`, planPeriod: 'month' },
        deps().billing.catalogue()!,
        now,
      ),
    );
    return confirmCheckout(
      deps(),
      { ref: p.ref, userId: p.userId, checkoutId: c.id, payment: { paymentSourceId: sourceId } },
      now,
    );
  };
  const items = async (p: Payer, now: Date) =>
    (await tx((t) => currentSubscription(t, p.ref, deps().billing.catalogue()!, now)))!;
  const attempts = async (p: Payer) =>
    (await tx((t) => listPaymentAttempts(t, p.ref, { limit: 100, offset: 0 }))).data
      .map((d) => d.attempt)
      .reverse();

  it('renews at period end, once per period, whoever runs the round', async () => {
    const p = await newPayer(h, 'renew');
    const t0 = h.clock.now;
    const card = await addCard(h, p);
    await subscribe(p, 'pro', card.id, t0);
    const end = (await items(p, t0)).items[0]!.periodEnd!;
    // Before the end: nothing due for this payer.
    await runDueBillingWork(deps(), days(end, -1), { owner: 'a' });
    assert.equal((await attempts(p)).length, 1);
    // Four workers at once on the same due items: each item is renewed by one of them.
    await Promise.all(
      ['a', 'b', 'c', 'd'].map((owner) => runDueBillingWork(deps(), end, { owner, batch: 5 })),
    );
    await runDueBillingWork(deps(), end, { owner: 'e' });
    const list = await attempts(p);
    assert.deepEqual(
      list.map((a) => [a.chargeType, a.status, a.amount]),
      [
        ['checkout', 'paid', 1000],
        ['recurring', 'paid', 1000],
      ],
    );
    const item = (await items(p, end)).items[0]!;
    assert.equal(item.periodStart.getTime(), end.getTime());
    assert.ok(item.periodEnd! > end);
  });

  it('a declined renewal goes past due, and recovers when the payer makes a working card the default', async () => {
    const p = await newPayer(h, 'pastdue');
    const t0 = h.clock.now;
    // 0341: attaches, then every charge is declined. A trial needs no charge to start.
    const bad = await addCard(h, p, '4000000000000341');
    await subscribe(p, 'trial', bad.id, t0);
    const trialEnd = (await items(p, t0)).items[0]!.periodEnd!;
    await runDueBillingWork(deps(), trialEnd, { owner: 'w' });
    let sub = await items(p, trialEnd);
    assert.equal(sub.subscription.status, 'past_due');
    assert.equal(sub.items[0]!.status, 'past_due');
    assert.ok(sub.items[0]!.pastDueAt);
    assert.deepEqual(
      (await attempts(p)).map((a) => [a.status, a.failureCode]),
      [['failed', 'card_declined']],
    );
    // Access stays while past due; the payer adds a working card and makes it the default.
    const good = await addCard(h, p);
    await tx((t) => setDefaultPaymentSource(t, p.ref, good.id));
    const retry = days(trialEnd, RETRY_DAYS[0]!);
    await runDueBillingWork(deps(), retry, { owner: 'w' });
    sub = await items(p, retry);
    assert.equal(sub.subscription.status, 'active');
    assert.equal(sub.items[0]!.status, 'active');
    assert.equal(sub.items[0]!.isFreeTrial, false);
    assert.deepEqual(
      (await attempts(p)).map((a) => a.status),
      ['failed', 'paid'],
    );
  });

  it('a past-due item is ended after the last retry fails, and the free plan returns', async () => {
    const p = await newPayer(h, 'giveup');
    const t0 = h.clock.now;
    const bad = await addCard(h, p, '4000000000000341');
    await subscribe(p, 'trial', bad.id, t0);
    let now = (await items(p, t0)).items[0]!.periodEnd!;
    await runDueBillingWork(deps(), now, { owner: 'w' });
    for (const d of RETRY_DAYS) {
      now = days(now, d);
      await runDueBillingWork(deps(), now, { owner: 'w' });
    }
    await runDueBillingWork(deps(), now, { owner: 'w' });
    const sub = await items(p, now);
    assert.deepEqual(
      sub.items.map((i) => [i.planSlug, i.status]),
      [['free', 'active']],
    );
    assert.equal(sub.subscription.status, 'active');
    assert.equal((await attempts(p)).filter((a) => a.status === 'failed').length, RETRY_DAYS.length + 1);
  });

  it('the ledger reconciles', async () => {
    assert.deepEqual(await tx((t) => reconcileLedger(t)), []);
  });
});
