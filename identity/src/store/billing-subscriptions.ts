import type { Queryable } from '../db/database.ts';
import type {
  Plan,
  PlanPeriod,
  SubscriptionItemRow,
  SubscriptionItemStatus,
  SubscriptionRow,
  SubscriptionStatus,
} from '../billing/billing-model.ts';

/** Migration 027: a payer's subscription and its items, and the renewal schedule's leases (docs/billing.md). */

interface SubscriptionDbRow {
  id: string;
  payer_id: string;
  status: SubscriptionStatus;
  created_at: Date;
  active_at: Date;
  updated_at: Date;
  past_due_at: Date | null;
}

const subscriptionOf = (r: SubscriptionDbRow): SubscriptionRow => ({
  id: r.id,
  payerId: r.payer_id,
  status: r.status,
  createdAt: r.created_at,
  activeAt: r.active_at,
  updatedAt: r.updated_at,
  pastDueAt: r.past_due_at,
});

interface ItemDbRow {
  id: string;
  subscription_id: string;
  payer_id: string;
  plan_slug: string;
  plan_snapshot: Plan;
  plan_period: PlanPeriod;
  status: SubscriptionItemStatus;
  amount: number;
  currency: string;
  payment_source_id: string | null;
  is_free_trial: boolean;
  created_at: Date;
  updated_at: Date;
  period_start: Date;
  period_end: Date | null;
  canceled_at: Date | null;
  past_due_at: Date | null;
  ended_at: Date | null;
}

export const itemOf = (r: ItemDbRow): SubscriptionItemRow => ({
  id: r.id,
  subscriptionId: r.subscription_id,
  payerId: r.payer_id,
  planSlug: r.plan_slug,
  plan: typeof r.plan_snapshot === 'string' ? (JSON.parse(r.plan_snapshot) as Plan) : r.plan_snapshot,
  planPeriod: r.plan_period,
  status: r.status,
  amount: r.amount,
  currency: r.currency,
  paymentSourceId: r.payment_source_id,
  isFreeTrial: r.is_free_trial,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  periodStart: r.period_start,
  periodEnd: r.period_end,
  canceledAt: r.canceled_at,
  pastDueAt: r.past_due_at,
  endedAt: r.ended_at,
});

export async function selectSubscription(
  tx: Queryable,
  payerId: string,
  lock = false,
): Promise<SubscriptionRow | null> {
  const [row] = await tx.query<SubscriptionDbRow>(
    `SELECT * FROM billing_subscriptions WHERE payer_id = $1${lock ? ' FOR UPDATE' : ''}`,
    [payerId],
  );
  return row ? subscriptionOf(row) : null;
}

export async function selectSubscriptionById(tx: Queryable, id: string): Promise<SubscriptionRow | null> {
  const [row] = await tx.query<SubscriptionDbRow>(`SELECT * FROM billing_subscriptions WHERE id = $1`, [id]);
  return row ? subscriptionOf(row) : null;
}

/** The payer's subscription, made now when absent (one per payer: two at once make one). */
export async function insertSubscriptionIfAbsent(
  tx: Queryable,
  input: { id: string; payerId: string; now: Date },
): Promise<{ subscription: SubscriptionRow; created: boolean }> {
  const [row] = await tx.query<SubscriptionDbRow>(
    `INSERT INTO billing_subscriptions (id, payer_id, status, created_at, active_at, updated_at)
     VALUES ($1, $2, 'active', $3, $3, $3) ON CONFLICT (payer_id) DO NOTHING RETURNING *`,
    [input.id, input.payerId, input.now],
  );
  if (row) return { subscription: subscriptionOf(row), created: true };
  return { subscription: (await selectSubscription(tx, input.payerId, true))!, created: false };
}

export async function updateSubscriptionStatus(
  tx: Queryable,
  id: string,
  status: SubscriptionStatus,
  now: Date,
): Promise<SubscriptionRow> {
  const [row] = await tx.query<SubscriptionDbRow>(
    `UPDATE billing_subscriptions SET status = $2,
       past_due_at = CASE WHEN $2 = 'past_due' THEN COALESCE(past_due_at, $3) ELSE NULL END,
       updated_at = GREATEST($3, updated_at + interval '1 millisecond')
     WHERE id = $1 RETURNING *`,
    [id, status, now],
  );
  return subscriptionOf(row!);
}

/** Items not ended or abandoned, oldest first. */
export async function selectLiveItems(tx: Queryable, subscriptionId: string): Promise<SubscriptionItemRow[]> {
  const rows = await tx.query<ItemDbRow>(
    `SELECT * FROM billing_subscription_items
      WHERE subscription_id = $1 AND status IN ('active', 'past_due', 'upcoming')
      ORDER BY created_at, id`,
    [subscriptionId],
  );
  return rows.map(itemOf);
}

/** Every item of the payer, newest first (the Backend API's and clerk-js's item lists). */
export async function selectItemsOfPayer(
  tx: Queryable,
  payerId: string,
  paging: { limit: number; offset: number },
): Promise<{ rows: SubscriptionItemRow[]; totalCount: number }> {
  const rows = await tx.query<ItemDbRow & { total: string }>(
    `SELECT *, count(*) OVER () AS total FROM billing_subscription_items WHERE payer_id = $1
      AND status <> 'abandoned' ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [payerId, paging.limit, paging.offset],
  );
  return { rows: rows.map(itemOf), totalCount: rows.length ? Number(rows[0]!.total) : 0 };
}

export async function selectItem(
  tx: Queryable,
  payerId: string,
  id: string,
  lock = false,
): Promise<SubscriptionItemRow | null> {
  const [row] = await tx.query<ItemDbRow>(
    `SELECT * FROM billing_subscription_items WHERE id = $1 AND payer_id = $2${lock ? ' FOR UPDATE' : ''}`,
    [id, payerId],
  );
  return row ? itemOf(row) : null;
}

export async function selectItemById(tx: Queryable, id: string): Promise<SubscriptionItemRow | null> {
  const [row] = await tx.query<ItemDbRow>(`SELECT * FROM billing_subscription_items WHERE id = $1`, [id]);
  return row ? itemOf(row) : null;
}

export interface NewItem {
  id: string;
  subscriptionId: string;
  payerId: string;
  plan: Plan;
  planPeriod: PlanPeriod;
  status: SubscriptionItemStatus;
  amount: number;
  paymentSourceId: string | null;
  isFreeTrial: boolean;
  periodStart: Date;
  periodEnd: Date | null;
  nextActionAt: Date | null;
  now: Date;
}

export async function insertItem(tx: Queryable, item: NewItem): Promise<SubscriptionItemRow> {
  const [row] = await tx.query<ItemDbRow>(
    `INSERT INTO billing_subscription_items
       (id, subscription_id, payer_id, plan_slug, plan_snapshot, plan_period, status, amount, currency,
        payment_source_id, is_free_trial, created_at, updated_at, period_start, period_end, next_action_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $13, $14, $15) RETURNING *`,
    [
      item.id,
      item.subscriptionId,
      item.payerId,
      item.plan.slug,
      JSON.stringify(item.plan),
      item.planPeriod,
      item.status,
      item.amount,
      item.plan.currency,
      item.paymentSourceId,
      item.isFreeTrial,
      item.now,
      item.periodStart,
      item.periodEnd,
      item.nextActionAt,
    ],
  );
  return itemOf(row!);
}

export interface ItemChanges {
  status?: SubscriptionItemStatus;
  periodStart?: Date;
  periodEnd?: Date | null;
  canceledAt?: Date | null;
  pastDueAt?: Date | null;
  endedAt?: Date;
  isFreeTrial?: boolean;
  paymentSourceId?: string;
  /** Undefined: unchanged; null: nothing more to do. */
  nextActionAt?: Date | null;
}

/** Changes an item; `updated_at` moves strictly (clerk-js compares it). Releases any lease. */
export async function updateItem(
  tx: Queryable,
  id: string,
  changes: ItemChanges,
  now: Date,
): Promise<SubscriptionItemRow> {
  const has = (k: keyof ItemChanges) => changes[k] !== undefined;
  const [row] = await tx.query<ItemDbRow>(
    `UPDATE billing_subscription_items SET
       status = COALESCE($2, status),
       period_start = COALESCE($3, period_start),
       period_end = CASE WHEN $4 THEN $5 ELSE period_end END,
       canceled_at = CASE WHEN $6 THEN $7 ELSE canceled_at END,
       past_due_at = CASE WHEN $8 THEN $9 ELSE past_due_at END,
       ended_at = COALESCE($10, ended_at),
       is_free_trial = COALESCE($11, is_free_trial),
       payment_source_id = COALESCE($12, payment_source_id),
       next_action_at = CASE WHEN $13 THEN $14 ELSE next_action_at END,
       lease_owner = NULL, lease_until = NULL,
       updated_at = GREATEST($15, updated_at + interval '1 millisecond')
     WHERE id = $1 RETURNING *`,
    [
      id,
      changes.status ?? null,
      changes.periodStart ?? null,
      has('periodEnd'),
      changes.periodEnd ?? null,
      has('canceledAt'),
      changes.canceledAt ?? null,
      has('pastDueAt'),
      changes.pastDueAt ?? null,
      changes.endedAt ?? null,
      changes.isFreeTrial ?? null,
      changes.paymentSourceId ?? null,
      has('nextActionAt'),
      changes.nextActionAt ?? null,
      now,
    ],
  );
  return itemOf(row!);
}

/**
 * Leases up to `batch` items whose next action is due, skipping those another process holds (its row
 * lock, or a lease not yet run out): several processes never work on one item at once. Commit at once:
 * the lease, not the row lock, keeps others off while the gateway is called.
 */
export async function leaseDueItems(
  tx: Queryable,
  input: { owner: string; now: Date; leaseUntil: Date; batch: number },
): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(
    `UPDATE billing_subscription_items SET lease_owner = $1, lease_until = $3
      WHERE id IN (
        SELECT id FROM billing_subscription_items
         WHERE next_action_at IS NOT NULL AND next_action_at <= $2
           AND (lease_until IS NULL OR lease_until < $2)
         ORDER BY next_action_at LIMIT $4 FOR UPDATE SKIP LOCKED)
      RETURNING id`,
    [input.owner, input.now, input.leaseUntil, input.batch],
  );
  return rows.map((r) => r.id);
}

/** The item, locked, if `owner` still holds its lease (another process may have taken it after expiry). */
export async function selectLeasedItem(
  tx: Queryable,
  id: string,
  owner: string,
): Promise<SubscriptionItemRow | null> {
  const [row] = await tx.query<ItemDbRow>(
    `SELECT * FROM billing_subscription_items WHERE id = $1 AND lease_owner = $2 FOR UPDATE`,
    [id, owner],
  );
  return row ? itemOf(row) : null;
}

/** Gives a lease back without changing the item (the work failed: the next round tries again). */
export async function releaseLease(tx: Queryable, id: string, owner: string): Promise<void> {
  await tx.query(
    `UPDATE billing_subscription_items SET lease_owner = NULL, lease_until = NULL
      WHERE id = $1 AND lease_owner = $2`,
    [id, owner],
  );
}

/** Whether the item's next action is the `count`th retry: read from the past-due attempts since past_due_at. */
export async function countFailedAttemptsSince(tx: Queryable, itemId: string, since: Date): Promise<number> {
  const [row] = await tx.query<{ n: string }>(
    `SELECT count(*) AS n FROM billing_payment_attempts
      WHERE subscription_item_id = $1 AND status = 'failed' AND created_at >= $2`,
    [itemId, since],
  );
  return Number(row!.n);
}

/** Which items the instance-wide list keeps (the Backend API's `GET /v1/billing/subscription_items`). */
export interface ItemFilter {
  status?: SubscriptionItemStatus;
  payerType?: 'user' | 'org';
  planSlug?: string;
}

/** Items of every payer, newest first, each with whose it is (its payer's user or organisation). */
export async function selectItemsOfInstance(
  tx: Queryable,
  filter: ItemFilter,
  paging: { limit: number; offset: number },
): Promise<{
  rows: { item: SubscriptionItemRow; userId: string | null; organizationId: string | null }[];
  totalCount: number;
}> {
  const rows = await tx.query<
    ItemDbRow & { payer_user_id: string | null; payer_organization_id: string | null; total: string }
  >(
    `SELECT i.*, p.user_id AS payer_user_id, p.organization_id AS payer_organization_id,
            count(*) OVER () AS total
       FROM billing_subscription_items i JOIN billing_payers p ON p.id = i.payer_id
      WHERE ($1::text IS NULL AND i.status <> 'abandoned' OR i.status = $1)
        AND ($2::text IS NULL OR ($2 = 'user') = (p.user_id IS NOT NULL))
        AND ($3::text IS NULL OR i.plan_slug = $3)
      ORDER BY i.created_at DESC, i.id DESC LIMIT $4 OFFSET $5`,
    [filter.status ?? null, filter.payerType ?? null, filter.planSlug ?? null, paging.limit, paging.offset],
  );
  return {
    rows: rows.map((r) => ({
      item: itemOf(r),
      userId: r.payer_user_id,
      organizationId: r.payer_organization_id,
    })),
    totalCount: rows.length ? Number(rows[0]!.total) : 0,
  };
}
