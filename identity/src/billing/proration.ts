import type { SubscriptionItemRow } from './billing-model.ts';

/**
 * The unused share of a paid period's fee, to the millisecond and rounded up (in the payer's favour: a
 * change the day it was paid credits the whole fee; never more than the fee).
 */
export function unusedCredit(item: SubscriptionItemRow, now: Date): number {
  if (!item.periodEnd) return 0;
  const total = item.periodEnd.getTime() - item.periodStart.getTime();
  const left = Math.min(total, item.periodEnd.getTime() - now.getTime());
  if (total <= 0 || left <= 0) return 0;
  // Exact integers: a fee in minor units times milliseconds can pass 2^53.
  return Number((BigInt(item.amount) * BigInt(left) + BigInt(total) - 1n) / BigInt(total));
}
