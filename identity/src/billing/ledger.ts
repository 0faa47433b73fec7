import type { Queryable } from '../db/database.ts';
import {
  chargesOutOfStep,
  insertLedgerEntry,
  ledgerSums,
  reconciliationRows,
} from '../store/billing-ledger.ts';

/**
 * The ledger (docs/billing.md): every movement of money, signed from the payer's side — charge (+),
 * refund (−), credit granted (−, owed back), credit applied (+, used towards a fee). The credit balance is
 * what was granted and not yet applied.
 */
export async function payerBalance(tx: Queryable, payerId: string): Promise<number> {
  const sums = await ledgerSums(tx, payerId);
  return -(sums.credit_granted + sums.credit_applied) || 0;
}

export interface LedgerMove {
  payerId: string;
  currency: string;
  subscriptionItemId: string | null;
  now: Date;
}

export async function recordCharge(
  tx: Queryable,
  m: LedgerMove,
  amount: number,
  paymentAttemptId: string,
  memo: string,
) {
  await insertLedgerEntry(tx, { ...m, kind: 'charge', amount, paymentAttemptId, memo });
}

/** Credit granted (the unused part of an upgraded plan) and credit applied towards the new fee. */
export async function recordCredit(
  tx: Queryable,
  m: LedgerMove,
  granted: number,
  applied: number,
  memo: string,
) {
  if (granted > 0)
    await insertLedgerEntry(tx, {
      ...m,
      kind: 'credit_granted',
      amount: -granted,
      paymentAttemptId: null,
      memo,
    });
  if (applied > 0)
    await insertLedgerEntry(tx, {
      ...m,
      kind: 'credit_applied',
      amount: applied,
      paymentAttemptId: null,
      memo,
    });
}

export interface ReconciliationProblem {
  payerId: string;
  problem: string;
}

/**
 * Checks the ledger against the payment attempts, for every payer: charges equal the paid attempts minus
 * refunds, each paid attempt is charged exactly once, and the credit balance is not negative.
 */
export async function reconcileLedger(tx: Queryable): Promise<ReconciliationProblem[]> {
  const problems: ReconciliationProblem[] = [];
  for (const r of await reconciliationRows(tx)) {
    const charges = Number(r.charges);
    const refunds = Number(r.refunds);
    const paid = Number(r.paid_attempts);
    // Refunds are kept negative: what the payer paid net is the paid attempts less what went back.
    if (charges !== paid || charges + refunds < 0) {
      problems.push({
        payerId: r.payer_id,
        problem: `charges ${charges} ≠ paid attempts ${paid} (refunds ${refunds})`,
      });
    }
    const balance = -(Number(r.credit_granted) + Number(r.credit_applied));
    if (balance < 0) problems.push({ payerId: r.payer_id, problem: `negative credit balance ${balance}` });
  }
  for (const r of await chargesOutOfStep(tx)) {
    problems.push({
      payerId: '',
      problem: `payment attempt ${r.payment_attempt_id} charged ${r.n} times in the ledger`,
    });
  }
  return problems;
}
