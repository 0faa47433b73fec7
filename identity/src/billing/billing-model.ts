/**
 * The billing model shared by the domain (checkouts, subscriptions, renewals), its store and its JSON
 * (docs/billing.md). Money is in integer minor units of the instance's currency; times are Dates.
 */

import type { LocalizedText } from './localized-text.ts';

export type PayerType = 'user' | 'org';
export type PlanPeriod = 'month' | 'annual';

/** Who pays: a user for themselves, or an organisation (through a member with `org:sys_billing:manage`). */
export type PayerRef = { type: 'user'; userId: string } | { type: 'org'; organizationId: string };

export interface Feature {
  /** `cfeat_<slug>` */
  id: string;
  slug: string;
  name: LocalizedText;
  description: LocalizedText;
}

/** A plan as the settings declare it now (plans.ts builds them), or as a subscription item bought it. */
export interface Plan {
  /** `cplan_<slug>` */
  id: string;
  slug: string;
  name: LocalizedText;
  description: LocalizedText;
  payerType: PayerType;
  currency: string;
  monthlyFee: number;
  /** Per month when billed annually; null: no annual billing. */
  annualMonthlyFee: number | null;
  features: Feature[];
  freeTrialDays: number;
  isDefault: boolean;
  publiclyVisible: boolean;
}

export interface PayerRow {
  id: string;
  userId: string | null;
  organizationId: string | null;
  gatewayCustomerId: string | null;
  defaultPaymentSourceId: string | null;
  trialUsed: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type PaymentSourceStatus = 'active' | 'expired' | 'disconnected';

export interface PaymentSourceRow {
  id: string;
  payerId: string;
  gateway: string;
  gatewayRef: string;
  paymentMethod: string;
  cardType: string;
  last4: string;
  walletType: string | null;
  status: PaymentSourceStatus;
  createdAt: Date;
  removedAt: Date | null;
}

export type SubscriptionStatus = 'active' | 'past_due';

export interface SubscriptionRow {
  id: string;
  payerId: string;
  status: SubscriptionStatus;
  createdAt: Date;
  activeAt: Date;
  updatedAt: Date;
  pastDueAt: Date | null;
}

/** clerk-js's CommerceSubscriptionStatus, plus `abandoned` (a checkout's item never paid). */
export type SubscriptionItemStatus = 'upcoming' | 'active' | 'past_due' | 'ended' | 'abandoned';

export interface SubscriptionItemRow {
  id: string;
  subscriptionId: string;
  payerId: string;
  planSlug: string;
  /** The plan as bought (fees, features, name), whatever the settings say now. */
  plan: Plan;
  planPeriod: PlanPeriod;
  status: SubscriptionItemStatus;
  /** The fee per period (month or year), minor units. */
  amount: number;
  currency: string;
  paymentSourceId: string | null;
  isFreeTrial: boolean;
  createdAt: Date;
  updatedAt: Date;
  periodStart: Date;
  periodEnd: Date | null;
  canceledAt: Date | null;
  pastDueAt: Date | null;
  endedAt: Date | null;
}

export interface CheckoutTotals {
  subtotal: number;
  grandTotal: number;
  taxTotal: number;
  /** What the confirm charges now (0 for a trial, a downgrade or a free plan). */
  totalDueNow: number;
  /** Unused part of the current paid plan, taken off an immediate upgrade. */
  credit: number;
  pastDue: number;
}

export type CheckoutStatus = 'needs_confirmation' | 'completed' | 'abandoned';

export interface CheckoutRow {
  id: string;
  payerId: string;
  userId: string;
  planSlug: string;
  planPeriod: PlanPeriod;
  status: CheckoutStatus;
  totals: CheckoutTotals;
  isImmediatePlanChange: boolean;
  planPeriodStart: Date | null;
  freeTrialEndsAt: Date | null;
  paymentSourceId: string | null;
  subscriptionItemId: string | null;
  confirmStartedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
}

export type PaymentStatus = 'pending' | 'paid' | 'failed';
export type ChargeType = 'checkout' | 'recurring';

export interface PaymentAttemptRow {
  id: string;
  payerId: string;
  statementId: string;
  subscriptionItemId: string | null;
  paymentSourceId: string | null;
  chargeType: ChargeType;
  status: PaymentStatus;
  amount: number;
  currency: string;
  idempotencyKey: string;
  gatewayRef: string | null;
  failureCode: string | null;
  paidAt: Date | null;
  failedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface StatementRow {
  id: string;
  payerId: string;
  /** The first day of its calendar month (UTC). */
  month: Date;
  createdAt: Date;
}

export type LedgerKind = 'charge' | 'refund' | 'credit_granted' | 'credit_applied';
