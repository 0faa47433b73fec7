import type { SubscriptionStatus } from '../organizations/default-metadata.ts';

/**
 * The subscription as the Backend API answers `billing.getOrganizationBillingSubscription` (@clerk/backend
 * 2.10.1's CommerceSubscription), reduced to what the flag needs.
 */
export interface BillingSubscriptionView {
  id: string;
  subscriptionItems: readonly {
    status: string;
    isFreeTrial?: boolean | undefined;
    plan: {
      isDefault: boolean;
      fee?: { amount: number } | null;
      annualMonthlyFee?: { amount: number } | null;
    } | null;
  }[];
}

/** Item statuses that give access now. `past_due`: the gateway is still retrying the charge (see below). */
const GIVES_ACCESS = new Set(['active', 'past_due']);

/**
 * hasActiveSubscription from the organisation's subscription:
 * - TRIAL: a paid item gives access and is in its free trial (and none is paid outright);
 * - YES: a paid item gives access — `active`, including one cancelled but running to the end of its period,
 *   and `past_due`, because Clerk keeps a past-due plan in the session's claims while the charge is retried,
 *   and the product follows what Clerk grants (when retries fail the item ends, and the flag turns NO);
 * - NO: only the default (free) plan, `upcoming` items (not started), ended, abandoned or none at all.
 * A paid item is one not on the default plan whose plan costs something, monthly or annually.
 */
export function subscriptionStatusFrom(subscription: BillingSubscriptionView | null): SubscriptionStatus {
  if (!subscription) return 'NO';
  let trial = false;
  for (const item of subscription.subscriptionItems) {
    if (!GIVES_ACCESS.has(item.status) || !item.plan || item.plan.isDefault) continue;
    const paid = (item.plan.fee?.amount ?? 0) > 0 || (item.plan.annualMonthlyFee?.amount ?? 0) > 0;
    if (!paid) continue;
    if (item.isFreeTrial) trial = true;
    else return 'YES';
  }
  return trial ? 'TRIAL' : 'NO';
}
