import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Queryable } from '../src/db/database.ts';
import type { PlanPeriod } from '../src/billing/billing-model.ts';
import type { BillingSettings } from '../src/billing/billing-settings.ts';
import { reconcileLedger } from '../src/billing/ledger.ts';
import { addPeriod } from '../src/billing/plans.ts';
import { listPaymentAttempts } from '../src/billing/statements.ts';
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
import { Harness } from './support/harness.ts';

/**
 * Plan changes as Clerk's own billing tests expect them (docs/billing.md, "Plan changes and proration"): the
 * unused share of a paid period credited to the millisecond (a same-day change credits the whole fee).
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
  const tx = <T>(fn: (tx: Queryable) => Promise<T>) => deps().db.transaction(fn);
  const start = (p: Payer, slug: string, period: PlanPeriod, now: Date) =>
    startCheckoutAt(h, p, slug, period, now);
  const confirm = (p: Payer, checkoutId: string, sourceId: string, now: Date) =>
    confirmCheckoutAt(h, p, checkoutId, sourceId, now);
  const subscribe = async (p: Payer, slug: string, period: PlanPeriod, sourceId: string, now: Date) =>
    confirm(p, (await start(p, slug, period, now)).id, sourceId, now);
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
});
