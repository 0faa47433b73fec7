import type { Queryable } from '../db/database.ts';
import type { CheckoutRow, CheckoutStatus, CheckoutTotals, PlanPeriod } from '../billing/billing-model.ts';

/** Migration 027: checkouts, and the confirm taken once under the row's lock (docs/billing.md). */

interface CheckoutDbRow {
  id: string;
  payer_id: string;
  user_id: string;
  plan_slug: string;
  plan_period: PlanPeriod;
  status: CheckoutStatus;
  totals: CheckoutTotals | string;
  is_immediate_plan_change: boolean;
  plan_period_start: Date | null;
  free_trial_ends_at: Date | null;
  payment_source_id: string | null;
  subscription_item_id: string | null;
  confirm_started_at: Date | null;
  created_at: Date;
  updated_at: Date;
  expires_at: Date;
}

const checkoutOf = (r: CheckoutDbRow): CheckoutRow => ({
  id: r.id,
  payerId: r.payer_id,
  userId: r.user_id,
  planSlug: r.plan_slug,
  planPeriod: r.plan_period,
  status: r.status,
  totals: typeof r.totals === 'string' ? (JSON.parse(r.totals) as CheckoutTotals) : r.totals,
  isImmediatePlanChange: r.is_immediate_plan_change,
  planPeriodStart: r.plan_period_start,
  freeTrialEndsAt: r.free_trial_ends_at,
  paymentSourceId: r.payment_source_id,
  subscriptionItemId: r.subscription_item_id,
  confirmStartedAt: r.confirm_started_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  expiresAt: r.expires_at,
});

export async function insertCheckout(
  tx: Queryable,
  c: {
    id: string;
    payerId: string;
    userId: string;
    planSlug: string;
    planPeriod: PlanPeriod;
    totals: CheckoutTotals;
    isImmediatePlanChange: boolean;
    planPeriodStart: Date | null;
    freeTrialEndsAt: Date | null;
    now: Date;
    expiresAt: Date;
  },
): Promise<CheckoutRow> {
  const [row] = await tx.query<CheckoutDbRow>(
    `INSERT INTO billing_checkouts (id, payer_id, user_id, plan_slug, plan_period, status, totals,
       is_immediate_plan_change, plan_period_start, free_trial_ends_at, created_at, updated_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, 'needs_confirmation', $6, $7, $8, $9, $10, $10, $11) RETURNING *`,
    [
      c.id,
      c.payerId,
      c.userId,
      c.planSlug,
      c.planPeriod,
      JSON.stringify(c.totals),
      c.isImmediatePlanChange,
      c.planPeriodStart,
      c.freeTrialEndsAt,
      c.now,
      c.expiresAt,
    ],
  );
  return checkoutOf(row!);
}

/** The payer's checkout by id; another payer's id finds nothing. */
export async function selectCheckout(
  tx: Queryable,
  payerId: string,
  id: string,
  lock = false,
): Promise<CheckoutRow | null> {
  const [row] = await tx.query<CheckoutDbRow>(
    `SELECT * FROM billing_checkouts WHERE id = $1 AND payer_id = $2${lock ? ' FOR UPDATE' : ''}`,
    [id, payerId],
  );
  return row ? checkoutOf(row) : null;
}

/** Marks the confirm taken (under the row lock the caller holds), with the source it pays with. */
export async function startCheckoutConfirm(
  tx: Queryable,
  id: string,
  paymentSourceId: string | null,
  totals: CheckoutTotals,
  now: Date,
): Promise<CheckoutRow> {
  const [row] = await tx.query<CheckoutDbRow>(
    `UPDATE billing_checkouts SET confirm_started_at = $3, payment_source_id = $2, totals = $4,
       updated_at = GREATEST($3, updated_at + interval '1 millisecond')
     WHERE id = $1 RETURNING *`,
    [id, paymentSourceId, now, JSON.stringify(totals)],
  );
  return checkoutOf(row!);
}

/**
 * Another checkout of the payer whose confirm is taken and not finished (charging, or left by a process that
 * died): at most one at a time, as confirms of one payer are serialised under the payer's row lock.
 */
export async function selectConfirmInFlight(
  tx: Queryable,
  payerId: string,
  exceptId: string,
): Promise<CheckoutRow | null> {
  const [row] = await tx.query<CheckoutDbRow>(
    `SELECT * FROM billing_checkouts
      WHERE payer_id = $1 AND id <> $2 AND status = 'needs_confirmation' AND confirm_started_at IS NOT NULL
      ORDER BY confirm_started_at LIMIT 1`,
    [payerId, exceptId],
  );
  return row ? checkoutOf(row) : null;
}

/** A checkout the payer's subscription has outgrown since it was priced: it can no longer be confirmed. */
export async function abandonCheckout(tx: Queryable, id: string, now: Date): Promise<void> {
  await tx.query(
    `UPDATE billing_checkouts SET status = 'abandoned', updated_at = GREATEST($2, updated_at + interval '1 millisecond')
      WHERE id = $1 AND status = 'needs_confirmation'`,
    [id, now],
  );
}

/** Ends a confirm: completed (with the item it made), or released for another try (a decline). */
export async function finishCheckoutConfirm(
  tx: Queryable,
  id: string,
  outcome: { completed: true; subscriptionItemId: string | null } | { completed: false },
  now: Date,
): Promise<CheckoutRow> {
  const [row] = await tx.query<CheckoutDbRow>(
    outcome.completed
      ? `UPDATE billing_checkouts SET status = 'completed', subscription_item_id = $2,
           updated_at = GREATEST($3, updated_at + interval '1 millisecond') WHERE id = $1 RETURNING *`
      : `UPDATE billing_checkouts SET confirm_started_at = NULL, payment_source_id = COALESCE($2, payment_source_id),
           updated_at = GREATEST($3, updated_at + interval '1 millisecond') WHERE id = $1 RETURNING *`,
    [id, outcome.completed ? outcome.subscriptionItemId : null, now],
  );
  return checkoutOf(row!);
}

/** Other open checkouts of the payer become abandoned once one completes (their totals are stale). */
export async function abandonOtherCheckouts(
  tx: Queryable,
  payerId: string,
  keepId: string,
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE billing_checkouts SET status = 'abandoned', updated_at = $3
      WHERE payer_id = $1 AND id <> $2 AND status = 'needs_confirmation' AND confirm_started_at IS NULL`,
    [payerId, keepId, now],
  );
}
