import type {
  CheckoutRow,
  Feature,
  PaymentSourceRow,
  Plan,
  SubscriptionItemRow,
  SubscriptionRow,
} from './billing-model.ts';
import type { PaymentDetail, StatementDetail } from './statements.ts';
import type { BillingSettings } from './billing-settings.ts';
import type { MailLanguage } from '../mail/language.ts';
import { BILLING_DEFAULT_LANGUAGE, textIn } from './localized-text.ts';
import { moneyJSON } from './money.ts';
import { unusedCredit } from './proration.ts';

/**
 * Billing as clerk-js 5.90.0 reads it from the Frontend API (packages/types/src/json.ts `Commerce*JSON`,
 * core/resources/Commerce*.ts). Times are epoch milliseconds; money is `CommerceMoneyAmountJSON`, whose
 * `amount_formatted` clerk-js prints after `currency_symbol` ("$10.00", shortened to "$10" by the UI).
 * Names and descriptions are written in `language`, the reader's (fapi/reader-language.ts).
 */

const ms = (d: Date | null | undefined): number | null => (d ? d.getTime() : null);

// One formatting of money for every billing answer (money.ts): "10.00", "$", "€", "£", "CA$".
export { moneyJSON };

export function featureJSON(feature: Feature, language: MailLanguage) {
  return {
    object: 'commerce_feature',
    id: feature.id,
    name: textIn(feature.name, language),
    description: textIn(feature.description, language),
    slug: feature.slug,
    avatar_url: '',
  };
}

/**
 * The order of <PricingTable/>'s columns: the default (free) plan first, then by monthly fee, then by
 * French name (one order whatever the reader's language). Not the settings' order, which their stored
 * JSON does not keep.
 */
export function pricingOrder(a: Plan, b: Plan): number {
  const name = (plan: Plan) => textIn(plan.name, BILLING_DEFAULT_LANGUAGE);
  return (
    Number(b.isDefault) - Number(a.isDefault) || a.monthlyFee - b.monthlyFee || name(a).localeCompare(name(b))
  );
}

/**
 * A plan: from the catalogue for the plan list, from an item's snapshot for what was bought. A plan with
 * no annual billing answers zero annual fees, as Clerk does (the UI then offers monthly only).
 */
export function planJSON(plan: Plan, language: MailLanguage) {
  const annualMonthly = plan.annualMonthlyFee ?? 0;
  const fee = moneyJSON(plan.monthlyFee, plan.currency);
  const annualFee = moneyJSON(annualMonthly * 12, plan.currency);
  const annualMonthlyFee = moneyJSON(annualMonthly, plan.currency);
  return {
    object: 'commerce_plan',
    id: plan.id,
    name: textIn(plan.name, language),
    fee,
    annual_fee: annualFee,
    annual_monthly_fee: annualMonthlyFee,
    amount: fee.amount,
    amount_formatted: fee.amount_formatted,
    annual_amount: annualFee.amount,
    annual_amount_formatted: annualFee.amount_formatted,
    annual_monthly_amount: annualMonthlyFee.amount,
    annual_monthly_amount_formatted: annualMonthlyFee.amount_formatted,
    currency_symbol: fee.currency_symbol,
    currency: fee.currency,
    description: textIn(plan.description, language),
    is_default: plan.isDefault,
    is_recurring: true,
    has_base_fee: plan.monthlyFee > 0 || annualMonthly > 0,
    for_payer_type: plan.payerType,
    publicly_visible: plan.publiclyVisible,
    slug: plan.slug,
    avatar_url: '',
    features: plan.features.map((f) => featureJSON(f, language)),
    free_trial_days: plan.freeTrialDays > 0 ? plan.freeTrialDays : null,
    free_trial_enabled: plan.freeTrialDays > 0,
  };
}

/**
 * The unused part of a paid item's current period (as an immediate upgrade would credit it, checkouts.ts):
 * clerk-js shows it in the subscription details. None for a free, trial, cancelled or ended item.
 */
export function itemCredit(item: SubscriptionItemRow, now: Date): number {
  if (item.status !== 'active' || item.isFreeTrial || item.canceledAt || item.amount <= 0) return 0;
  return unusedCredit(item, now);
}

export function subscriptionItemJSON(item: SubscriptionItemRow, now: Date, language: MailLanguage) {
  const credit = itemCredit(item, now);
  return {
    object: 'commerce_subscription_item',
    id: item.id,
    amount: moneyJSON(item.amount, item.currency),
    ...(credit > 0 ? { credit: { amount: moneyJSON(credit, item.currency) } } : {}),
    payment_source_id: item.paymentSourceId ?? '',
    plan: planJSON(item.plan, language),
    plan_period: item.planPeriod,
    // `abandoned` is ours (a checkout never paid); such items are not listed, but never leak the word.
    status: item.status === 'abandoned' ? 'ended' : item.status,
    created_at: ms(item.createdAt),
    period_start: ms(item.periodStart),
    period_end: ms(item.periodEnd),
    canceled_at: ms(item.canceledAt),
    past_due_at: ms(item.pastDueAt),
    is_free_trial: item.isFreeTrial,
  };
}

/**
 * The next charge: an upcoming paid item (a downgrade, a renewal after a trial) at its start, else the
 * active paid item's renewal at its period's end; none when everything is free or cancelled.
 */
export function nextPayment(
  items: SubscriptionItemRow[],
): { amount: number; currency: string; date: Date } | null {
  const upcoming = items.find((i) => i.status === 'upcoming' && i.amount > 0 && !i.canceledAt);
  if (upcoming) return { amount: upcoming.amount, currency: upcoming.currency, date: upcoming.periodStart };
  const active = items.find(
    (i) => (i.status === 'active' || i.status === 'past_due') && i.amount > 0 && !i.canceledAt && i.periodEnd,
  );
  // A trial's first charge is the plan's fee when the trial ends.
  if (active) return { amount: active.amount, currency: active.currency, date: active.periodEnd! };
  return null;
}

export function subscriptionJSON(
  subscription: SubscriptionRow,
  items: SubscriptionItemRow[],
  opts: { eligibleForFreeTrial: boolean; now: Date; language: MailLanguage },
) {
  const listed = items.filter((i) => i.status !== 'abandoned');
  const next = nextPayment(listed);
  return {
    object: 'commerce_subscription',
    id: subscription.id,
    status: subscription.status,
    created_at: ms(subscription.createdAt),
    active_at: ms(subscription.activeAt),
    updated_at: ms(subscription.updatedAt),
    past_due_at: ms(subscription.pastDueAt),
    ...(next ? { next_payment: { amount: moneyJSON(next.amount, next.currency), date: ms(next.date) } } : {}),
    subscription_items: listed.map((i) => subscriptionItemJSON(i, opts.now, opts.language)),
    eligible_for_free_trial: opts.eligibleForFreeTrial,
  };
}

export function paymentSourceJSON(
  source: PaymentSourceRow,
  flags: { isDefault: boolean; isRemovable: boolean },
) {
  return {
    object: 'commerce_payment_source',
    id: source.id,
    last4: source.last4,
    payment_method: source.paymentMethod,
    card_type: source.cardType,
    is_default: flags.isDefault,
    is_removable: flags.isRemovable,
    status: source.status,
    wallet_type: source.walletType,
  };
}

/** clerk-js constructs a payment source from a payment unconditionally: a removed one still answers. */
const REMOVED_SOURCE = {
  object: 'commerce_payment_source',
  id: '',
  last4: '',
  payment_method: '',
  card_type: '',
  is_default: false,
  is_removable: false,
  status: 'disconnected',
  wallet_type: null,
};

export function checkoutJSON(
  checkout: CheckoutRow,
  plan: Plan,
  currency: string,
  source: PaymentSourceRow | null,
  language: MailLanguage,
) {
  const t = checkout.totals;
  return {
    object: 'commerce_checkout',
    id: checkout.id,
    // The browser's card form is set up by `payment_sources/initialize`, not from here (clerk-js 5.90.0
    // reads neither); no secret is repeated where it is not needed.
    external_client_secret: '',
    external_gateway_id: '',
    ...(source ? { payment_source: paymentSourceJSON(source, { isDefault: false, isRemovable: true }) } : {}),
    plan: planJSON(plan, language),
    plan_period: checkout.planPeriod,
    ...(checkout.planPeriodStart ? { plan_period_start: ms(checkout.planPeriodStart) } : {}),
    // `abandoned` is never shown: such a checkout is refused before it is answered.
    status: checkout.status === 'completed' ? 'completed' : 'needs_confirmation',
    totals: {
      grand_total: moneyJSON(t.grandTotal, currency),
      subtotal: moneyJSON(t.subtotal, currency),
      tax_total: moneyJSON(t.taxTotal, currency),
      total_due_now: moneyJSON(t.totalDueNow, currency),
      credit: moneyJSON(t.credit, currency),
      past_due: moneyJSON(t.pastDue, currency),
    },
    is_immediate_plan_change: checkout.isImmediatePlanChange,
    free_trial_ends_at: ms(checkout.freeTrialEndsAt),
  };
}

/** A payment (attempt) with its card and the item it paid for (statements.ts `PaymentDetail`). */
export function paymentJSON(payment: PaymentDetail, now: Date, language: MailLanguage) {
  const { attempt, paymentSource: source, subscriptionItem } = payment;
  const item = subscriptionItem ? subscriptionItemJSON(subscriptionItem, now, language) : null;
  return {
    object: 'commerce_payment',
    id: attempt.id,
    amount: moneyJSON(attempt.amount, attempt.currency),
    ...(attempt.paidAt ? { paid_at: ms(attempt.paidAt) } : {}),
    ...(attempt.failedAt ? { failed_at: ms(attempt.failedAt) } : {}),
    updated_at: ms(attempt.updatedAt),
    // clerk-js builds the source and both items unconditionally: a removed card still answers.
    payment_source: source
      ? paymentSourceJSON(source, { isDefault: false, isRemovable: false })
      : REMOVED_SOURCE,
    subscription: item,
    subscription_item: item,
    charge_type: attempt.chargeType,
    status: attempt.status,
  };
}

/** A statement: its month's payments grouped by day (newest first), and what was paid in it. */
export function statementJSON(detail: StatementDetail, currency: string, now: Date, language: MailLanguage) {
  return {
    object: 'commerce_statement',
    id: detail.statement.id,
    status: detail.status,
    timestamp: ms(detail.statement.month),
    // clerk-js maps `groups` unguarded: always an array.
    groups: (detail.groups ?? []).map((g) => ({
      object: 'commerce_statement_group',
      timestamp: ms(g.day),
      items: g.payments.map((p) => paymentJSON(p, now, language)),
    })),
    totals: {
      grand_total: moneyJSON(detail.total, currency),
      subtotal: moneyJSON(detail.total, currency),
      tax_total: moneyJSON(0, currency),
      credit: moneyJSON(0, currency),
    },
  };
}

export function deletedJSON(object: string, id: string) {
  return { object, id, deleted: true };
}

/** A page as clerk-js's paginated billing calls read it. */
export function pageJSON<T>(data: T[], totalCount: number) {
  return { data, total_count: totalCount };
}

/**
 * The environment's `commerce_settings` (core/resources/CommerceSettings.ts dereferences `billing.user`
 * and `billing.organization` unguarded: the whole object, or null when the instance does not bill).
 * A payer type is enabled when it has a visible plan; `has_paid_plans` shows the Billing pages' plan and
 * payment-method sections.
 */
export function commerceSettingsJSON(billing: BillingSettings | undefined, publishableKey: string) {
  if (!billing?.enabled) return null;
  const plans = Object.values(billing.plans);
  const offered = (type: 'user' | 'org') => plans.some((p) => p.payerType === type && p.publiclyVisible);
  const paid = (type: 'user' | 'org') =>
    plans.some((p) => p.payerType === type && (p.monthlyFee > 0 || (p.annualMonthlyFee ?? 0) > 0));
  return {
    billing: {
      enabled: true,
      stripe_publishable_key: publishableKey,
      has_paid_user_plans: paid('user'),
      has_paid_org_plans: paid('org'),
      user: { enabled: offered('user'), has_paid_plans: paid('user') },
      organization: { enabled: offered('org'), has_paid_plans: paid('org') },
    },
  };
}
