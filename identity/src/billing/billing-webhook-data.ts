import type { Queryable } from '../db/database.ts';
import { selectPayerById, selectPayerProfile, selectPaymentSourceById } from '../store/billing-payers.ts';
import { selectLiveItems, selectSubscriptionById } from '../store/billing-subscriptions.ts';
import { recordWebhookEvent, type WebhookEventType } from '../webhooks/record-event.ts';
import type { PaymentAttemptRow, SubscriptionItemRow, SubscriptionRow } from './billing-model.ts';
import { BILLING_DEFAULT_LANGUAGE, textIn } from './localized-text.ts';
import { moneyJSON } from './money.ts';
import { DAY_MS } from './plans.ts';

/**
 * Billing's webhook payloads, shaped as @clerk/backend 2.10.1 reads them (JSON.ts:
 * CommerceSubscriptionWebhookEventJSON, CommerceSubscriptionItemWebhookEventJSON,
 * CommercePaymentAttemptWebhookEventJSON). Times are Unix milliseconds, as in Clerk's other payloads.
 */
const ms = (d: Date | null) => (d ? d.getTime() : undefined);
const INSTANCE_ID = 'ins_embedded';

export function subscriptionItemWebhookData(item: SubscriptionItemRow, now: Date): Record<string, unknown> {
  const p = item.plan;
  const total = item.periodEnd ? item.periodEnd.getTime() - item.periodStart.getTime() : 0;
  const remaining = item.periodEnd ? Math.max(0, item.periodEnd.getTime() - now.getTime()) : 0;
  return {
    object: 'commerce_subscription_item',
    id: item.id,
    status: item.canceledAt && item.status === 'active' ? 'active' : item.status,
    credit: {
      amount: moneyJSON(total ? Math.floor((item.amount * remaining) / total) : 0, item.currency),
      cycle_days_remaining: Math.floor(remaining / DAY_MS),
      cycle_days_total: Math.round(total / DAY_MS),
      cycle_remaining_percent: total ? Math.round((remaining / total) * 100) : 0,
    },
    proration_date: now.toISOString().slice(0, 10),
    plan_period: item.planPeriod,
    period_start: item.periodStart.getTime(),
    period_end: ms(item.periodEnd),
    canceled_at: ms(item.canceledAt),
    past_due_at: ms(item.pastDueAt),
    lifetime_paid: 0,
    next_payment_amount: item.canceledAt || !item.periodEnd ? 0 : item.amount,
    next_payment_date: item.canceledAt ? undefined : ms(item.periodEnd),
    amount: moneyJSON(item.amount, item.currency),
    plan: {
      id: p.id,
      instance_id: INSTANCE_ID,
      product_id: `cprod_${p.payerType}`,
      name: textIn(p.name, BILLING_DEFAULT_LANGUAGE),
      slug: p.slug,
      description: textIn(p.description, BILLING_DEFAULT_LANGUAGE),
      is_default: p.isDefault,
      is_recurring: true,
      amount: p.monthlyFee,
      period: item.planPeriod,
      interval: 1,
      has_base_fee: p.monthlyFee > 0,
      currency: p.currency.toUpperCase(),
      annual_monthly_amount: p.annualMonthlyFee ?? 0,
      publicly_visible: p.publiclyVisible,
    },
    plan_id: p.id,
  };
}

async function payerJSON(tx: Queryable, payerId: string): Promise<Record<string, unknown>> {
  const payer = await selectPayerById(tx, payerId);
  const profile = await selectPayerProfile(tx, payerId);
  return {
    object: 'commerce_payer',
    id: payerId,
    instance_id: INSTANCE_ID,
    ...(payer?.userId ? { user_id: payer.userId } : {}),
    ...(payer?.organizationId ? { organization_id: payer.organizationId } : {}),
    first_name: profile?.first_name ?? undefined,
    last_name: profile?.last_name ?? undefined,
    email: profile?.email ?? '',
    organization_name: profile?.organization_name ?? undefined,
    image_url: '',
    created_at: payer?.createdAt.getTime(),
    updated_at: payer?.updatedAt.getTime(),
  };
}

export async function subscriptionWebhookData(
  tx: Queryable,
  subscription: SubscriptionRow,
  now: Date,
): Promise<Record<string, unknown>> {
  const items = await selectLiveItems(tx, subscription.id);
  return {
    object: 'commerce_subscription',
    id: subscription.id,
    status: subscription.status,
    active_at: subscription.activeAt.getTime(),
    created_at: subscription.createdAt.getTime(),
    updated_at: subscription.updatedAt.getTime(),
    past_due_at: ms(subscription.pastDueAt),
    latest_payment_id: '',
    payer_id: subscription.payerId,
    payer: await payerJSON(tx, subscription.payerId),
    payment_source_id: items.find((i) => i.paymentSourceId)?.paymentSourceId ?? '',
    items: items.map((i) => subscriptionItemWebhookData(i, now)),
  };
}

export async function paymentAttemptWebhookData(
  tx: Queryable,
  attempt: PaymentAttemptRow,
  items: SubscriptionItemRow[],
  now: Date,
): Promise<Record<string, unknown>> {
  const source = attempt.paymentSourceId ? await selectPaymentSourceById(tx, attempt.paymentSourceId) : null;
  const money = moneyJSON(attempt.amount, attempt.currency);
  return {
    object: 'commerce_payment_attempt',
    id: attempt.id,
    instance_id: INSTANCE_ID,
    payment_id: attempt.id,
    statement_id: attempt.statementId,
    gateway_external_id: attempt.gatewayRef ?? '',
    status: attempt.status,
    created_at: attempt.createdAt.getTime(),
    updated_at: attempt.updatedAt.getTime(),
    paid_at: ms(attempt.paidAt),
    failed_at: ms(attempt.failedAt),
    ...(attempt.failureCode
      ? { failed_reason: { code: attempt.failureCode, decline_code: attempt.failureCode } }
      : {}),
    billing_date: attempt.createdAt.getTime(),
    charge_type: attempt.chargeType,
    payee: {
      id: 'cpayee_embedded',
      gateway_type: source?.gateway ?? 'offline',
      gateway_external_id: '',
      gateway_status: 'active',
    },
    payer: await payerJSON(tx, attempt.payerId),
    totals: { subtotal: money, tax_total: moneyJSON(0, attempt.currency), grand_total: money },
    payment_source: source
      ? {
          id: source.id,
          gateway: source.gateway,
          gateway_external_id: source.gatewayRef,
          payment_method: source.paymentMethod,
          status: source.status === 'disconnected' ? 'disconnected' : 'active',
          card_type: source.cardType,
          last4: source.last4,
        }
      : null,
    subscription_items: items.map((i) => subscriptionItemWebhookData(i, now)),
  };
}

/** Records billing events in the caller's transaction (they exist exactly when the change does). */
export const billingEvents = {
  async item(tx: Queryable, types: WebhookEventType[], item: SubscriptionItemRow, now: Date) {
    for (const type of types)
      await recordWebhookEvent(tx, { type, data: subscriptionItemWebhookData(item, now) }, now);
  },
  async subscription(tx: Queryable, types: WebhookEventType[], subscriptionId: string, now: Date) {
    const subscription = await selectSubscriptionById(tx, subscriptionId);
    if (!subscription) return;
    const data = await subscriptionWebhookData(tx, subscription, now);
    for (const type of types) await recordWebhookEvent(tx, { type, data }, now);
  },
  async attempt(
    tx: Queryable,
    type: 'paymentAttempt.created' | 'paymentAttempt.updated',
    attempt: PaymentAttemptRow,
    items: SubscriptionItemRow[],
    now: Date,
  ) {
    await recordWebhookEvent(
      tx,
      { type, data: await paymentAttemptWebhookData(tx, attempt, items, now) },
      now,
    );
  },
};
