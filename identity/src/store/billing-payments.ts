import type { Queryable } from '../db/database.ts';
import type { ChargeType, PaymentAttemptRow, PaymentStatus, StatementRow } from '../billing/billing-model.ts';

/** Migration 027: statements (a payer's month) and payment attempts (docs/billing.md). */

interface AttemptDbRow {
  id: string;
  payer_id: string;
  statement_id: string;
  subscription_item_id: string | null;
  payment_source_id: string | null;
  charge_type: ChargeType;
  status: PaymentStatus;
  amount: number;
  currency: string;
  idempotency_key: string;
  gateway_ref: string | null;
  failure_code: string | null;
  paid_at: Date | null;
  failed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const attemptOf = (r: AttemptDbRow): PaymentAttemptRow => ({
  id: r.id,
  payerId: r.payer_id,
  statementId: r.statement_id,
  subscriptionItemId: r.subscription_item_id,
  paymentSourceId: r.payment_source_id,
  chargeType: r.charge_type,
  status: r.status,
  amount: r.amount,
  currency: r.currency,
  idempotencyKey: r.idempotency_key,
  gatewayRef: r.gateway_ref,
  failureCode: r.failure_code,
  paidAt: r.paid_at,
  failedAt: r.failed_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

interface StatementDbRow {
  id: string;
  payer_id: string;
  month: Date | string;
  created_at: Date;
}

const statementOf = (r: StatementDbRow): StatementRow => ({
  id: r.id,
  payerId: r.payer_id,
  month: r.month instanceof Date ? r.month : new Date(`${r.month}T00:00:00Z`),
  createdAt: r.created_at,
});

/** The payer's statement for the UTC month of `now`, made when absent. */
export async function ensureStatement(
  tx: Queryable,
  input: { id: string; payerId: string; now: Date },
): Promise<StatementRow> {
  const month = `${input.now.toISOString().slice(0, 7)}-01`;
  await tx.query(
    `INSERT INTO billing_statements (id, payer_id, month, created_at) VALUES ($1, $2, $3::date, $4)
     ON CONFLICT (payer_id, month) DO NOTHING`,
    [input.id, input.payerId, month, input.now],
  );
  const [row] = await tx.query<StatementDbRow>(
    `SELECT id, payer_id, to_char(month, 'YYYY-MM-DD') AS month, created_at FROM billing_statements
      WHERE payer_id = $1 AND month = $2::date`,
    [input.payerId, month],
  );
  return statementOf(row!);
}

export async function listStatementRows(
  tx: Queryable,
  payerId: string,
  paging: { limit: number; offset: number },
): Promise<{ rows: StatementRow[]; totalCount: number }> {
  const rows = await tx.query<StatementDbRow & { total: string }>(
    `SELECT id, payer_id, to_char(month, 'YYYY-MM-DD') AS month, created_at, count(*) OVER () AS total
       FROM billing_statements WHERE payer_id = $1 ORDER BY month DESC LIMIT $2 OFFSET $3`,
    [payerId, paging.limit, paging.offset],
  );
  return { rows: rows.map(statementOf), totalCount: rows.length ? Number(rows[0]!.total) : 0 };
}

/** Statements of every payer (or of one), newest month first (the Backend API's `GET /v1/billing/statements`). */
export async function listStatementRowsOfInstance(
  tx: Queryable,
  payerId: string | null,
  paging: { limit: number; offset: number },
): Promise<{ rows: StatementRow[]; totalCount: number }> {
  const rows = await tx.query<StatementDbRow & { total: string }>(
    `SELECT id, payer_id, to_char(month, 'YYYY-MM-DD') AS month, created_at, count(*) OVER () AS total
       FROM billing_statements WHERE $1::text IS NULL OR payer_id = $1
      ORDER BY month DESC, created_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [payerId, paging.limit, paging.offset],
  );
  return { rows: rows.map(statementOf), totalCount: rows.length ? Number(rows[0]!.total) : 0 };
}

export async function selectStatement(
  tx: Queryable,
  payerId: string,
  id: string,
): Promise<StatementRow | null> {
  const [row] = await tx.query<StatementDbRow>(
    `SELECT id, payer_id, to_char(month, 'YYYY-MM-DD') AS month, created_at FROM billing_statements
      WHERE id = $1 AND payer_id = $2`,
    [id, payerId],
  );
  return row ? statementOf(row) : null;
}

export async function selectAttemptsOfStatement(
  tx: Queryable,
  statementId: string,
): Promise<PaymentAttemptRow[]> {
  const rows = await tx.query<AttemptDbRow>(
    `SELECT * FROM billing_payment_attempts WHERE statement_id = $1 ORDER BY created_at DESC, id DESC`,
    [statementId],
  );
  return rows.map(attemptOf);
}

export async function insertPaymentAttempt(
  tx: Queryable,
  a: Pick<
    PaymentAttemptRow,
    | 'id'
    | 'payerId'
    | 'statementId'
    | 'subscriptionItemId'
    | 'paymentSourceId'
    | 'chargeType'
    | 'amount'
    | 'currency'
    | 'idempotencyKey'
  > & { now: Date },
): Promise<PaymentAttemptRow> {
  const [row] = await tx.query<AttemptDbRow>(
    `INSERT INTO billing_payment_attempts (id, payer_id, statement_id, subscription_item_id, payment_source_id,
       charge_type, status, amount, currency, idempotency_key, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $8, $9, $10, $10) RETURNING *`,
    [
      a.id,
      a.payerId,
      a.statementId,
      a.subscriptionItemId,
      a.paymentSourceId,
      a.chargeType,
      a.amount,
      a.currency,
      a.idempotencyKey,
      a.now,
    ],
  );
  return attemptOf(row!);
}

export async function selectAttemptByKey(
  tx: Queryable,
  key: string,
  lock = false,
): Promise<PaymentAttemptRow | null> {
  const [row] = await tx.query<AttemptDbRow>(
    `SELECT * FROM billing_payment_attempts WHERE idempotency_key = $1${lock ? ' FOR UPDATE' : ''}`,
    [key],
  );
  return row ? attemptOf(row) : null;
}

export async function selectAttemptByGatewayRef(
  tx: Queryable,
  ref: string,
): Promise<PaymentAttemptRow | null> {
  const [row] = await tx.query<AttemptDbRow>(
    `SELECT * FROM billing_payment_attempts WHERE gateway_ref = $1 FOR UPDATE`,
    [ref],
  );
  return row ? attemptOf(row) : null;
}

export async function selectAttempt(
  tx: Queryable,
  payerId: string,
  id: string,
): Promise<PaymentAttemptRow | null> {
  const [row] = await tx.query<AttemptDbRow>(
    `SELECT * FROM billing_payment_attempts WHERE id = $1 AND payer_id = $2`,
    [id, payerId],
  );
  return row ? attemptOf(row) : null;
}

export async function listAttemptRows(
  tx: Queryable,
  payerId: string,
  paging: { limit: number; offset: number },
): Promise<{ rows: PaymentAttemptRow[]; totalCount: number }> {
  const rows = await tx.query<AttemptDbRow & { total: string }>(
    `SELECT *, count(*) OVER () AS total FROM billing_payment_attempts WHERE payer_id = $1
      ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [payerId, paging.limit, paging.offset],
  );
  return { rows: rows.map(attemptOf), totalCount: rows.length ? Number(rows[0]!.total) : 0 };
}

/** Settles a pending attempt; answers null when it was settled already (a second settle changes nothing). */
export async function settleAttempt(
  tx: Queryable,
  id: string,
  outcome: { status: 'paid'; ref: string } | { status: 'failed'; ref: string | null; code: string },
  now: Date,
): Promise<PaymentAttemptRow | null> {
  const [row] = await tx.query<AttemptDbRow>(
    `UPDATE billing_payment_attempts SET status = $2, gateway_ref = COALESCE($3, gateway_ref),
       failure_code = $4,
       paid_at = CASE WHEN $2 = 'paid' THEN $5::timestamptz ELSE NULL END,
       failed_at = CASE WHEN $2 = 'failed' THEN $5::timestamptz ELSE NULL END,
       updated_at = GREATEST($5::timestamptz, updated_at + interval '1 millisecond')
     WHERE id = $1 AND status = 'pending' RETURNING *`,
    [id, outcome.status, outcome.ref, outcome.status === 'failed' ? outcome.code : null, now],
  );
  return row ? attemptOf(row) : null;
}

/** Keeps the gateway's reference of a charge still pending there (settled later by its event). */
export async function setAttemptGatewayRef(tx: Queryable, id: string, ref: string): Promise<void> {
  await tx.query(`UPDATE billing_payment_attempts SET gateway_ref = $2 WHERE id = $1`, [id, ref]);
}

/** The item a checkout's payment bought, known once the change is made. */
export async function linkAttemptItem(tx: Queryable, attemptId: string, itemId: string): Promise<void> {
  await tx.query(
    `UPDATE billing_payment_attempts SET subscription_item_id = $2 WHERE id = $1 AND subscription_item_id IS NULL`,
    [attemptId, itemId],
  );
  await tx.query(
    `UPDATE billing_ledger SET subscription_item_id = $2 WHERE payment_attempt_id = $1 AND subscription_item_id IS NULL`,
    [attemptId, itemId],
  );
}

/** Declined tries of one checkout (keys `checkout:<id>:…`): each new try gets a key of its own. */
export async function countFailedCheckoutAttempts(tx: Queryable, checkoutId: string): Promise<number> {
  const [row] = await tx.query<{ n: string }>(
    `SELECT count(*) AS n FROM billing_payment_attempts WHERE idempotency_key LIKE $1 AND status = 'failed'`,
    [`checkout:${checkoutId}:%`],
  );
  return Number(row!.n);
}
