import type { Queryable } from '../db/database.ts';
import type { LedgerKind } from '../billing/billing-model.ts';

/** Migration 027: the ledger, every movement of money signed from the payer's side (docs/billing.md). */

export async function insertLedgerEntry(
  tx: Queryable,
  e: {
    payerId: string;
    kind: LedgerKind;
    amount: number;
    currency: string;
    paymentAttemptId: string | null;
    subscriptionItemId: string | null;
    memo: string;
    now: Date;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO billing_ledger (payer_id, kind, amount, currency, payment_attempt_id, subscription_item_id,
       memo, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [e.payerId, e.kind, e.amount, e.currency, e.paymentAttemptId, e.subscriptionItemId, e.memo, e.now],
  );
}

/** Sums per kind for one payer (signed as stored). */
export async function ledgerSums(tx: Queryable, payerId: string): Promise<Record<LedgerKind, number>> {
  const rows = await tx.query<{ kind: LedgerKind; total: string }>(
    `SELECT kind, COALESCE(sum(amount), 0) AS total FROM billing_ledger WHERE payer_id = $1 GROUP BY kind`,
    [payerId],
  );
  const sums: Record<LedgerKind, number> = { charge: 0, refund: 0, credit_granted: 0, credit_applied: 0 };
  for (const r of rows) sums[r.kind] = Number(r.total);
  return sums;
}

export interface PayerReconciliationRow {
  payer_id: string;
  charges: string;
  refunds: string;
  credit_granted: string;
  credit_applied: string;
  paid_attempts: string;
}

/** For every payer: the ledger's sums and what its paid payment attempts add up to. */
export async function reconciliationRows(tx: Queryable): Promise<PayerReconciliationRow[]> {
  return tx.query<PayerReconciliationRow>(
    `SELECT p.id AS payer_id,
       COALESCE((SELECT sum(amount) FROM billing_ledger l WHERE l.payer_id = p.id AND kind = 'charge'), 0) AS charges,
       COALESCE((SELECT sum(amount) FROM billing_ledger l WHERE l.payer_id = p.id AND kind = 'refund'), 0) AS refunds,
       COALESCE((SELECT sum(amount) FROM billing_ledger l WHERE l.payer_id = p.id AND kind = 'credit_granted'), 0)
         AS credit_granted,
       COALESCE((SELECT sum(amount) FROM billing_ledger l WHERE l.payer_id = p.id AND kind = 'credit_applied'), 0)
         AS credit_applied,
       COALESCE((SELECT sum(amount) FROM billing_payment_attempts a WHERE a.payer_id = p.id AND status = 'paid'), 0)
         AS paid_attempts
     FROM billing_payers p ORDER BY p.id`,
  );
}

/** Ledger charges whose payment attempt is not paid, or paid attempts charged twice or not at all. */
export async function chargesOutOfStep(tx: Queryable): Promise<{ payment_attempt_id: string; n: string }[]> {
  return tx.query(
    `SELECT a.id AS payment_attempt_id, count(l.id) AS n FROM billing_payment_attempts a
       LEFT JOIN billing_ledger l ON l.payment_attempt_id = a.id AND l.kind = 'charge'
      GROUP BY a.id, a.status HAVING (a.status = 'paid') <> (count(l.id) = 1)`,
  );
}
