import { deletedJSON, pageJSON, subscriptionItemJSON, subscriptionJSON } from '../../billing/billing-json.ts';
import { findPayer } from '../../billing/payers.ts';
import { cancelSubscriptionItem, currentSubscription } from '../../billing/subscriptions.ts';
import { billingCaller } from './billing-access.ts';
import { billingId, billingPage, pageOfArray } from './billing-input.ts';
import { billingLimits, checkBillingLimits } from './billing-limits.ts';
import { scopedRoutes } from './scoped-routes.ts';
import { formInput } from '../form-input.ts';

/**
 * GET {scope}/commerce/subscription — the payer's subscription with its items (PricingTable, Billing
 * pages, subscription details), in `response`. A payer that never subscribed answers `response: null`,
 * which clerk-js takes as "no items" (the default plan shows as current).
 */
export const getSubscriptionRoutes = scopedRoutes(
  'GET',
  '/commerce/subscription',
  { query: formInput() },
  async (ctx) => {
    const caller = await billingCaller(ctx, 'read');
    const current = await currentSubscription(ctx.tx, caller.ref, caller.catalogue, ctx.now);
    if (!current) return { response: null };
    const payer = await findPayer(ctx.tx, caller.ref);
    return {
      response: subscriptionJSON(current.subscription, current.items, {
        eligibleForFreeTrial: !payer?.trialUsed,
        now: ctx.now,
        language: caller.language,
      }),
    };
  },
);

/**
 * GET {scope}/commerce/subscriptions — the items, paginated (`billing.getSubscriptions`,
 * `useOrganization({subscriptions})`; the 5.90.0 UI does not call it).
 */
export const listSubscriptionItemsRoutes = scopedRoutes(
  'GET',
  '/commerce/subscriptions',
  { query: formInput({ limit: 'page', offset: 'page' }) },
  async (ctx) => {
    const caller = await billingCaller(ctx, 'read');
    const page = billingPage(ctx);
    const current = await currentSubscription(ctx.tx, caller.ref, caller.catalogue, ctx.now);
    const items = (current?.items ?? []).filter((i) => i.status !== 'abandoned');
    return {
      response: pageJSON(
        pageOfArray(items, page).map((i) => subscriptionItemJSON(i, ctx.now, caller.language)),
        items.length,
      ),
    };
  },
);

/**
 * DELETE {scope}/commerce/subscription_items/:id — "Cancel subscription" in the subscription details:
 * the item ends at its period's end (the Frontend API never ends one at once; the Backend API can).
 * Another payer's item is 404, as one that does not exist.
 */
export const cancelSubscriptionItemRoutes = scopedRoutes(
  'DELETE',
  '/commerce/subscription_items/:id',
  { body: formInput() },
  async (ctx) => {
    const caller = await billingCaller(ctx, 'manage');
    const id = billingId(ctx.params.id, 'subscription item');
    await checkBillingLimits(ctx, billingLimits(caller, 'cancel_item'));
    await cancelSubscriptionItem(ctx.tx, caller.ref, id, { endNow: false }, ctx.now, caller.catalogue);
    return { response: deletedJSON('commerce_subscription_item', id) };
  },
);
