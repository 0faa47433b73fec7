import type { Database } from '../db/database.ts';
import { markPaymentSourcesDisconnected } from '../store/billing-payers.ts';
import { selectAttemptByGatewayRef } from '../store/billing-payments.ts';
import { settleCharge } from './charges.ts';
import type { GatewayEvent } from './gateways/payment-gateway.ts';

/**
 * Applies what a gateway says after the fact (Stripe's webhooks): a pending charge settled, or a method
 * detached at the gateway (its source becomes `disconnected`). Idempotent: an event delivered again, or
 * about an attempt settled already, changes nothing.
 */
export async function applyGatewayEvent(db: Database, event: GatewayEvent, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    if (event.type === 'payment_method_detached') {
      await markPaymentSourcesDisconnected(tx, event.ref);
      return;
    }
    const attempt = await selectAttemptByGatewayRef(tx, event.chargeRef);
    if (!attempt || attempt.status !== 'pending') return;
    await settleCharge(
      tx,
      attempt,
      event.type === 'charge_succeeded'
        ? { status: 'paid', ref: event.chargeRef }
        : { status: 'failed', ref: event.chargeRef, code: event.code },
      null,
      now,
    );
  });
}
