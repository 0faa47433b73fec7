import type { Queryable } from '../db/database.ts';
import { settleAttempt } from '../store/billing-payments.ts';
import type { PaymentAttemptRow, SubscriptionItemRow } from './billing-model.ts';
import { billingEvents } from './billing-webhook-data.ts';
import type { ChargeOutcome } from './gateways/payment-gateway.ts';
import { recordCharge } from './ledger.ts';

/**
 * Records a gateway's outcome on a pending attempt, once: paid writes the ledger's charge, in the same
 * transaction. An attempt settled already (a retried or resumed confirm, a late gateway event) is answered
 * as it is and nothing is written again.
 */
export async function settleCharge(
  tx: Queryable,
  attempt: PaymentAttemptRow,
  outcome: ChargeOutcome,
  item: SubscriptionItemRow | null,
  now: Date,
): Promise<PaymentAttemptRow> {
  if (attempt.status !== 'pending') return attempt;
  const settled = await settleAttempt(tx, attempt.id, outcome, now);
  if (!settled) return attempt;
  if (settled.status === 'paid') {
    await recordCharge(
      tx,
      {
        payerId: settled.payerId,
        currency: settled.currency,
        subscriptionItemId: settled.subscriptionItemId,
        now,
      },
      settled.amount,
      settled.id,
      `${settled.chargeType} charge`,
    );
  }
  await billingEvents.attempt(tx, 'paymentAttempt.updated', settled, item ? [item] : [], now);
  return settled;
}
