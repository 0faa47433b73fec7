import type { Queryable } from '../db/database.ts';
import type { PayerRow, PaymentSourceRow, PaymentSourceStatus } from '../billing/billing-model.ts';

/** Migration 027: who pays, their set-up intents and their payment sources (docs/billing.md). */

interface PayerDbRow {
  id: string;
  user_id: string | null;
  organization_id: string | null;
  gateway_customer_id: string | null;
  default_payment_source_id: string | null;
  trial_used: boolean;
  created_at: Date;
  updated_at: Date;
}

const payerOf = (r: PayerDbRow): PayerRow => ({
  id: r.id,
  userId: r.user_id,
  organizationId: r.organization_id,
  gatewayCustomerId: r.gateway_customer_id,
  defaultPaymentSourceId: r.default_payment_source_id,
  trialUsed: r.trial_used,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export type PayerKey = { userId: string } | { organizationId: string };

const keyWhere = (key: PayerKey): [string, string] =>
  'userId' in key ? ['user_id = $1', key.userId] : ['organization_id = $1', key.organizationId];

export async function selectPayer(tx: Queryable, key: PayerKey, lock = false): Promise<PayerRow | null> {
  const [where, value] = keyWhere(key);
  const [row] = await tx.query<PayerDbRow>(
    `SELECT * FROM billing_payers WHERE ${where}${lock ? ' FOR UPDATE' : ''}`,
    [value],
  );
  return row ? payerOf(row) : null;
}

export async function selectPayerById(tx: Queryable, id: string): Promise<PayerRow | null> {
  const [row] = await tx.query<PayerDbRow>(`SELECT * FROM billing_payers WHERE id = $1`, [id]);
  return row ? payerOf(row) : null;
}

/** The payer of `key`, made now when absent; two first uses at once make one (the unique indexes decide). */
export async function insertPayerIfAbsent(
  tx: Queryable,
  input: { id: string; key: PayerKey; now: Date },
): Promise<PayerRow> {
  const user = 'userId' in input.key ? input.key.userId : null;
  const org = 'organizationId' in input.key ? input.key.organizationId : null;
  const [row] = await tx.query<PayerDbRow>(
    `INSERT INTO billing_payers (id, user_id, organization_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $4) ON CONFLICT DO NOTHING RETURNING *`,
    [input.id, user, org, input.now],
  );
  if (row) return payerOf(row);
  return (await selectPayer(tx, input.key))!;
}

export async function updatePayer(
  tx: Queryable,
  id: string,
  changes: { defaultPaymentSourceId?: string | null; trialUsed?: boolean; gatewayCustomerId?: string },
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE billing_payers SET
       default_payment_source_id = CASE WHEN $2 THEN $3 ELSE default_payment_source_id END,
       trial_used = COALESCE($4, trial_used),
       gateway_customer_id = COALESCE($5, gateway_customer_id),
       updated_at = GREATEST($6, updated_at + interval '1 millisecond')
     WHERE id = $1`,
    [
      id,
      changes.defaultPaymentSourceId !== undefined,
      changes.defaultPaymentSourceId ?? null,
      changes.trialUsed ?? null,
      changes.gatewayCustomerId ?? null,
      now,
    ],
  );
}

/** The paying user's primary email address and name, for the gateway's customer and `missing_payer_email`. */
export async function selectUserContact(
  tx: Queryable,
  userId: string,
): Promise<{ email: string | null; name: string | null } | null> {
  const [row] = await tx.query<{ email: string | null; first_name: string | null; last_name: string | null }>(
    `SELECT e.email_address AS email, u.first_name, u.last_name
       FROM users u LEFT JOIN email_addresses e ON e.id = u.primary_email_address_id
      WHERE u.id = $1`,
    [userId],
  );
  if (!row) return null;
  const name = [row.first_name, row.last_name].filter(Boolean).join(' ');
  return { email: row.email, name: name || null };
}

// --- Setup intents (the offline gateway's; Stripe keeps its own) ---------------------------------

export interface SetupIntentRow {
  id: string;
  payer_id: string;
  gateway: string;
  payment_method_ref: string | null;
  card_brand: string | null;
  card_last4: string | null;
  declines: boolean;
  created_at: Date;
  expires_at: Date;
}

export async function insertSetupIntent(
  tx: Queryable,
  input: {
    id: string;
    payerId: string;
    gateway: string;
    clientSecretHash: string;
    now: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO billing_setup_intents (id, payer_id, gateway, client_secret_hash, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [input.id, input.payerId, input.gateway, input.clientSecretHash, input.now, input.expiresAt],
  );
}

/**
 * Deletes the payer's unconfirmed setup intents beyond the newest `keep` (every mount of the card form
 * makes one; an older form left open then finds its secret expired). Confirmed ones stay: a payment
 * source may name their payment method.
 */
export async function deleteSurplusSetupIntents(
  tx: Queryable,
  payerId: string,
  keep: number,
): Promise<number> {
  const rows = await tx.query(
    `DELETE FROM billing_setup_intents WHERE payer_id = $1 AND payment_method_ref IS NULL
        AND id NOT IN (SELECT id FROM billing_setup_intents WHERE payer_id = $1 AND payment_method_ref IS NULL
                        ORDER BY created_at DESC, id DESC LIMIT $2)
      RETURNING 1`,
    [payerId, keep],
  );
  return rows.length;
}

export async function selectSetupIntentBySecretHash(
  tx: Queryable,
  hash: string,
): Promise<SetupIntentRow | null> {
  const [row] = await tx.query<SetupIntentRow>(
    `SELECT * FROM billing_setup_intents WHERE client_secret_hash = $1 FOR UPDATE`,
    [hash],
  );
  return row ?? null;
}

/** Confirms an unconfirmed intent once; answers false when it was confirmed already. */
export async function confirmSetupIntent(
  tx: Queryable,
  input: {
    id: string;
    paymentMethodRef: string;
    brand: string;
    last4: string;
    expMonth: number;
    expYear: number;
    declines: boolean;
  },
): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE billing_setup_intents SET payment_method_ref = $2, card_brand = $3, card_last4 = $4,
       card_exp_month = $5, card_exp_year = $6, declines = $7
     WHERE id = $1 AND payment_method_ref IS NULL RETURNING id`,
    [
      input.id,
      input.paymentMethodRef,
      input.brand,
      input.last4,
      input.expMonth,
      input.expYear,
      input.declines,
    ],
  );
  return rows.length === 1;
}

export async function selectSetupIntentByMethodRef(
  tx: Queryable,
  ref: string,
): Promise<SetupIntentRow | null> {
  const [row] = await tx.query<SetupIntentRow>(
    `SELECT * FROM billing_setup_intents WHERE payment_method_ref = $1`,
    [ref],
  );
  return row ?? null;
}

// --- Payment sources -------------------------------------------------------------------------------

interface SourceDbRow {
  id: string;
  payer_id: string;
  gateway: string;
  gateway_ref: string;
  payment_method: string;
  card_type: string;
  last4: string;
  wallet_type: string | null;
  declines: boolean;
  status: PaymentSourceStatus;
  created_at: Date;
  removed_at: Date | null;
}

export const sourceOf = (r: SourceDbRow): PaymentSourceRow => ({
  id: r.id,
  payerId: r.payer_id,
  gateway: r.gateway,
  gatewayRef: r.gateway_ref,
  paymentMethod: r.payment_method,
  cardType: r.card_type,
  last4: r.last4,
  walletType: r.wallet_type,
  status: r.status,
  createdAt: r.created_at,
  removedAt: r.removed_at,
});

/**
 * A method attached once per gateway: attaching it again (a retried add) answers the existing source when
 * it is this payer's and not removed, null when it belongs to another payer.
 */
export async function insertPaymentSource(
  tx: Queryable,
  input: Pick<
    PaymentSourceRow,
    'id' | 'payerId' | 'gateway' | 'gatewayRef' | 'paymentMethod' | 'cardType' | 'last4' | 'walletType'
  > & { now: Date },
): Promise<PaymentSourceRow | null> {
  const [row] = await tx.query<SourceDbRow>(
    `INSERT INTO billing_payment_sources
       (id, payer_id, gateway, gateway_ref, payment_method, card_type, last4, wallet_type, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (gateway, gateway_ref) DO NOTHING RETURNING *`,
    [
      input.id,
      input.payerId,
      input.gateway,
      input.gatewayRef,
      input.paymentMethod,
      input.cardType,
      input.last4,
      input.walletType,
      input.now,
    ],
  );
  if (row) return sourceOf(row);
  const [existing] = await tx.query<SourceDbRow>(
    `SELECT * FROM billing_payment_sources WHERE gateway = $1 AND gateway_ref = $2
       AND payer_id = $3 AND removed_at IS NULL`,
    [input.gateway, input.gatewayRef, input.payerId],
  );
  return existing ? sourceOf(existing) : null;
}

/** The payer's source by id (not removed); another payer's id finds nothing. */
export async function selectPaymentSource(
  tx: Queryable,
  payerId: string,
  id: string,
): Promise<PaymentSourceRow | null> {
  const [row] = await tx.query<SourceDbRow>(
    `SELECT * FROM billing_payment_sources WHERE id = $1 AND payer_id = $2 AND removed_at IS NULL`,
    [id, payerId],
  );
  return row ? sourceOf(row) : null;
}

/** Any source by id, removed or not (statements show the card a past payment used). */
export async function selectPaymentSourceById(tx: Queryable, id: string): Promise<PaymentSourceRow | null> {
  const [row] = await tx.query<SourceDbRow>(`SELECT * FROM billing_payment_sources WHERE id = $1`, [id]);
  return row ? sourceOf(row) : null;
}

/** Whether the offline gateway declines charges to it (kept from the test card number, as a flag). */
export async function selectSourceDeclines(tx: Queryable, gatewayRef: string): Promise<boolean | null> {
  const [row] = await tx.query<{ declines: boolean }>(
    `SELECT declines FROM billing_setup_intents WHERE payment_method_ref = $1`,
    [gatewayRef],
  );
  return row ? row.declines : null;
}

export async function listPaymentSourceRows(
  tx: Queryable,
  payerId: string,
  paging: { limit: number; offset: number },
): Promise<{ rows: PaymentSourceRow[]; totalCount: number }> {
  const rows = await tx.query<SourceDbRow & { total: string }>(
    `SELECT *, count(*) OVER () AS total FROM billing_payment_sources
      WHERE payer_id = $1 AND removed_at IS NULL ORDER BY created_at, id LIMIT $2 OFFSET $3`,
    [payerId, paging.limit, paging.offset],
  );
  let totalCount = rows.length ? Number(rows[0]!.total) : 0;
  if (!rows.length && paging.offset > 0) {
    const [c] = await tx.query<{ n: string }>(
      `SELECT count(*) AS n FROM billing_payment_sources WHERE payer_id = $1 AND removed_at IS NULL`,
      [payerId],
    );
    totalCount = Number(c!.n);
  }
  return { rows: rows.map(sourceOf), totalCount };
}

/** Ids of the payer's sources that back a live paid item (active, past due or upcoming): not removable. */
export async function selectSourcesInUse(tx: Queryable, payerId: string): Promise<Set<string>> {
  const rows = await tx.query<{ payment_source_id: string }>(
    `SELECT DISTINCT payment_source_id FROM billing_subscription_items
      WHERE payer_id = $1 AND payment_source_id IS NOT NULL AND amount > 0
        AND status IN ('active', 'past_due', 'upcoming') AND canceled_at IS NULL`,
    [payerId],
  );
  return new Set(rows.map((r) => r.payment_source_id));
}

/**
 * The payer's payment sources not removed, and whether `gatewayRef` is already one of them (adding it
 * again answers that source: it adds nothing, so a cap does not refuse it).
 */
export async function countLivePaymentSources(
  tx: Queryable,
  payerId: string,
  gatewayRef: string,
): Promise<{ live: number; has: boolean }> {
  const [row] = await tx.query<{ live: string; has: boolean }>(
    `SELECT count(*) AS live, coalesce(bool_or(gateway_ref = $2), false) AS has
       FROM billing_payment_sources WHERE payer_id = $1 AND removed_at IS NULL`,
    [payerId, gatewayRef],
  );
  return { live: Number(row!.live), has: row!.has };
}

export async function markPaymentSourceRemoved(tx: Queryable, id: string, now: Date): Promise<void> {
  await tx.query(`UPDATE billing_payment_sources SET removed_at = $2 WHERE id = $1`, [id, now]);
}

/** A method the gateway says is gone: answers the sources it marked. */
export async function markPaymentSourcesDisconnected(tx: Queryable, gatewayRef: string): Promise<number> {
  const rows = await tx.query(
    `UPDATE billing_payment_sources SET status = 'disconnected'
      WHERE gateway_ref = $1 AND status <> 'disconnected' RETURNING id`,
    [gatewayRef],
  );
  return rows.length;
}

/** The payer's oldest remaining source, to become default when the default one is removed. */
export async function selectOldestPaymentSource(tx: Queryable, payerId: string): Promise<string | null> {
  const [row] = await tx.query<{ id: string }>(
    `SELECT id FROM billing_payment_sources WHERE payer_id = $1 AND removed_at IS NULL
      ORDER BY created_at, id LIMIT 1`,
    [payerId],
  );
  return row?.id ?? null;
}

/** What webhook payloads name a payer by: the user's names and address, or the organisation's name. */
export async function selectPayerProfile(
  tx: Queryable,
  payerId: string,
): Promise<{
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  organization_name: string | null;
} | null> {
  const [row] = await tx.query<{
    first_name: string | null;
    last_name: string | null;
    email: string | null;
    organization_name: string | null;
  }>(
    `SELECT u.first_name, u.last_name, e.email_address AS email, o.name AS organization_name
       FROM billing_payers p
       LEFT JOIN users u ON u.id = p.user_id
       LEFT JOIN email_addresses e ON e.id = u.primary_email_address_id
       LEFT JOIN organizations o ON o.id = p.organization_id
      WHERE p.id = $1`,
    [payerId],
  );
  return row ?? null;
}
