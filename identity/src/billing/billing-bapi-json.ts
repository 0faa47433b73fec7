import type { Feature, Plan, SubscriptionItemRow, SubscriptionRow } from './billing-model.ts';
import { moneyJSON, nextPayment } from './billing-json.ts';
import type { MailLanguage } from '../mail/language.ts';
import { textIn } from './localized-text.ts';

/**
 * Billing as the Backend API answers it, for @clerk/backend 2.10.1's `billing` namespace
 * (api/resources/JSON.ts `CommercePlanJSON`, `CommerceSubscriptionJSON`, `CommerceSubscriptionItemJSON`
 * and their `fromJSON`). Not the Frontend API's shapes: `product_id`, `plan_id`, `payer_id`,
 * `lifetime_paid`, features of object `feature`, seconds-free epoch milliseconds as everywhere else.
 * Names and descriptions are strings, as Clerk's, in `language` where the settings give two
 * (bapi/billing/answer-language.ts: the request's Accept-Language, else French).
 */

const ms = (d: Date | null | undefined): number | null => (d ? d.getTime() : null);

/** One product per instance, as Clerk has ("the default product"). */
export const PRODUCT_ID = 'cprod_default';

function bapiFeatureJSON(feature: Feature, language: MailLanguage) {
  return {
    object: 'feature',
    id: feature.id,
    name: textIn(feature.name, language),
    description: textIn(feature.description, language),
    slug: feature.slug,
    avatar_url: '',
  };
}

export function bapiPlanJSON(plan: Plan, language: MailLanguage) {
  const annualMonthly = plan.annualMonthlyFee ?? 0;
  return {
    object: 'commerce_plan',
    id: plan.id,
    product_id: PRODUCT_ID,
    name: textIn(plan.name, language),
    slug: plan.slug,
    description: textIn(plan.description, language),
    is_default: plan.isDefault,
    is_recurring: true,
    has_base_fee: plan.monthlyFee > 0 || annualMonthly > 0,
    publicly_visible: plan.publiclyVisible,
    fee: moneyJSON(plan.monthlyFee, plan.currency),
    annual_fee: moneyJSON(annualMonthly * 12, plan.currency),
    annual_monthly_fee: moneyJSON(annualMonthly, plan.currency),
    for_payer_type: plan.payerType,
    features: plan.features.map((feature) => bapiFeatureJSON(feature, language)),
  };
}

/** An item; `lifetimePaid` is what its payer has paid for it (payments paid, in minor units). */
export function bapiSubscriptionItemJSON(
  item: SubscriptionItemRow,
  language: MailLanguage,
  lifetimePaid = 0,
) {
  const renews =
    (item.status === 'active' || item.status === 'past_due') &&
    !item.canceledAt &&
    item.periodEnd &&
    item.amount > 0;
  return {
    object: 'commerce_subscription_item',
    id: item.id,
    status: item.status,
    plan_period: item.planPeriod,
    payer_id: item.payerId,
    period_start: ms(item.periodStart),
    period_end: ms(item.periodEnd),
    is_free_trial: item.isFreeTrial,
    ended_at: ms(item.endedAt),
    created_at: ms(item.createdAt),
    updated_at: ms(item.updatedAt),
    canceled_at: ms(item.canceledAt),
    past_due_at: ms(item.pastDueAt),
    lifetime_paid: moneyJSON(lifetimePaid, item.currency),
    next_payment: renews ? { amount: item.amount, date: ms(item.periodEnd) } : null,
    amount: moneyJSON(item.amount, item.currency),
    plan: bapiPlanJSON(item.plan, language),
    plan_id: item.plan.id,
  };
}

export function bapiSubscriptionJSON(
  subscription: SubscriptionRow,
  items: SubscriptionItemRow[],
  opts: { eligibleForFreeTrial: boolean; language: MailLanguage },
) {
  const listed = items.filter((i) => i.status !== 'abandoned');
  const next = nextPayment(listed);
  return {
    object: 'commerce_subscription',
    id: subscription.id,
    status: subscription.status,
    payer_id: subscription.payerId,
    created_at: ms(subscription.createdAt),
    updated_at: ms(subscription.updatedAt),
    active_at: ms(subscription.activeAt),
    past_due_at: ms(subscription.pastDueAt),
    subscription_items: listed.map((i) => bapiSubscriptionItemJSON(i, opts.language)),
    ...(next ? { next_payment: { date: ms(next.date), amount: moneyJSON(next.amount, next.currency) } } : {}),
    eligible_for_free_trial: opts.eligibleForFreeTrial,
  };
}

/** Whose an item or a statement is, as hosted Clerk's Backend API names its payer (`user_id` or `organization_id`). */
export function bapiPayerJSON(payer: { id: string; userId: string | null; organizationId: string | null }) {
  return {
    object: 'commerce_payer',
    id: payer.id,
    user_id: payer.userId,
    organization_id: payer.organizationId,
  };
}
