import type { Queryable } from '../db/database.ts';
import { selectPaymentSourceById } from '../store/billing-payers.ts';
import {
  listAttemptRows,
  listStatementRows,
  listStatementRowsOfInstance,
  selectAttempt,
  selectAttemptsOfStatement,
  selectStatement,
} from '../store/billing-payments.ts';
import { selectItemById } from '../store/billing-subscriptions.ts';
import type {
  PaymentAttemptRow,
  PaymentSourceRow,
  StatementRow,
  SubscriptionItemRow,
} from './billing-model.ts';
import { findPayer } from './payers.ts';
import type { PayerRef } from './billing-model.ts';

export interface Paging {
  limit: number;
  offset: number;
}

/** A payment attempt with what its JSON shows: the card it used and the item it paid for. */
export interface PaymentDetail {
  attempt: PaymentAttemptRow;
  paymentSource: PaymentSourceRow | null;
  subscriptionItem: SubscriptionItemRow | null;
}

export interface StatementDetail {
  statement: StatementRow;
  /** `open` until its month is over. */
  status: 'open' | 'closed';
  /** Its payments by UTC day, newest day first. */
  groups: { day: Date; payments: PaymentDetail[] }[];
  /** Paid in it, minor units. */
  total: number;
}

async function detail(tx: Queryable, attempt: PaymentAttemptRow): Promise<PaymentDetail> {
  return {
    attempt,
    paymentSource: attempt.paymentSourceId
      ? await selectPaymentSourceById(tx, attempt.paymentSourceId)
      : null,
    subscriptionItem: attempt.subscriptionItemId
      ? await selectItemById(tx, attempt.subscriptionItemId)
      : null,
  };
}

async function statementDetail(tx: Queryable, statement: StatementRow, now: Date): Promise<StatementDetail> {
  const attempts = await selectAttemptsOfStatement(tx, statement.id);
  const groups = new Map<string, PaymentDetail[]>();
  for (const a of attempts) {
    const day = a.createdAt.toISOString().slice(0, 10);
    const list = groups.get(day) ?? [];
    list.push(await detail(tx, a));
    groups.set(day, list);
  }
  const next = new Date(Date.UTC(statement.month.getUTCFullYear(), statement.month.getUTCMonth() + 1, 1));
  return {
    statement,
    status: now >= next ? 'closed' : 'open',
    groups: [...groups].map(([day, payments]) => ({ day: new Date(`${day}T00:00:00Z`), payments })),
    total: attempts.filter((a) => a.status === 'paid').reduce((n, a) => n + a.amount, 0),
  };
}

export async function listStatements(
  tx: Queryable,
  ref: PayerRef,
  paging: Paging,
  now = new Date(),
): Promise<{ data: StatementDetail[]; totalCount: number }> {
  const payer = await findPayer(tx, ref);
  if (!payer) return { data: [], totalCount: 0 };
  const { rows, totalCount } = await listStatementRows(tx, payer.id, paging);
  const data = [];
  for (const s of rows) data.push(await statementDetail(tx, s, now));
  return { data, totalCount };
}

/** Every payer's statements, or one payer's (`payerId`), newest first: what the Backend API lists. */
export async function listStatementsOfInstance(
  tx: Queryable,
  payerId: string | null,
  paging: Paging,
  now = new Date(),
): Promise<{ data: StatementDetail[]; totalCount: number }> {
  const { rows, totalCount } = await listStatementRowsOfInstance(tx, payerId, paging);
  const data = [];
  for (const s of rows) data.push(await statementDetail(tx, s, now));
  return { data, totalCount };
}

/** The payer's statement; another payer's id: null. */
export async function getStatement(
  tx: Queryable,
  ref: PayerRef,
  id: string,
  now = new Date(),
): Promise<StatementDetail | null> {
  const payer = await findPayer(tx, ref);
  const statement = payer ? await selectStatement(tx, payer.id, id) : null;
  return statement ? statementDetail(tx, statement, now) : null;
}

export async function listPaymentAttempts(
  tx: Queryable,
  ref: PayerRef,
  paging: Paging,
): Promise<{ data: PaymentDetail[]; totalCount: number }> {
  const payer = await findPayer(tx, ref);
  if (!payer) return { data: [], totalCount: 0 };
  const { rows, totalCount } = await listAttemptRows(tx, payer.id, paging);
  const data = [];
  for (const a of rows) data.push(await detail(tx, a));
  return { data, totalCount };
}

export async function getPaymentAttempt(
  tx: Queryable,
  ref: PayerRef,
  id: string,
): Promise<PaymentDetail | null> {
  const payer = await findPayer(tx, ref);
  const attempt = payer ? await selectAttempt(tx, payer.id, id) : null;
  return attempt ? detail(tx, attempt) : null;
}
