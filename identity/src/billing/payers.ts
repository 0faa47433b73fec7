import type { Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';
import { insertPayerIfAbsent, selectPayer, type PayerKey } from '../store/billing-payers.ts';
import type { PayerRef, PayerRow } from './billing-model.ts';

export const payerKey = (ref: PayerRef): PayerKey =>
  ref.type === 'user' ? { userId: ref.userId } : { organizationId: ref.organizationId };

/** The payer of `ref`, made on first use. */
export function ensurePayer(tx: Queryable, ref: PayerRef, now: Date): Promise<PayerRow> {
  return insertPayerIfAbsent(tx, { id: newId('cpayer'), key: payerKey(ref), now });
}

export function findPayer(tx: Queryable, ref: PayerRef): Promise<PayerRow | null> {
  return selectPayer(tx, payerKey(ref));
}
