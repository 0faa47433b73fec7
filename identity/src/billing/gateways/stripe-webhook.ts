import Stripe from 'stripe';
import type { GatewayEvent } from './payment-gateway.ts';

/** Under the Frontend API's path: the URL to register at Stripe is `<public URL><fapiPath>` + this. */
export const STRIPE_WEBHOOK_PATH = '/v1/commerce/stripe/webhook';

/** How old a signed event may be (Stripe's own default): an older delivery is refused as a replay. */
export const STRIPE_WEBHOOK_TOLERANCE_SECONDS = 300;

/** The events billing listens to (docs/billing.md § Stripe): the ones to select at Stripe's dashboard. */
export const STRIPE_WEBHOOK_EVENTS = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_method.detached',
] as const;

export type StripeWebhookOutcome =
  /** Signed by this endpoint's secret, recently: `event` is what billing applies (null: ignored). */
  | { verified: true; eventType: string; event: GatewayEvent | null }
  /** A missing or wrong signature, an old timestamp, a body changed after signing: nothing is read. */
  | { verified: false };

/**
 * Checks a Stripe delivery's `Stripe-Signature` over the exact bytes received (the body is not parsed
 * before), then maps the event. `receivedAt` is the instance's clock.
 */
export function readStripeWebhook(
  rawBody: Buffer | undefined,
  signature: string | undefined,
  webhookSecret: string,
  receivedAt: Date,
): StripeWebhookOutcome {
  if (!rawBody || !signature) return { verified: false };
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(
      rawBody,
      signature,
      webhookSecret,
      STRIPE_WEBHOOK_TOLERANCE_SECONDS,
      undefined,
      receivedAt.getTime(),
    );
  } catch {
    // Stripe's signature error, or a signed body that is no event: either way nothing to act on.
    return { verified: false };
  }
  return { verified: true, eventType: String(event.type), event: gatewayEventOf(event) };
}

/** What billing learns from a Stripe event; null for the events it does not follow. */
export function gatewayEventOf(event: Stripe.Event): GatewayEvent | null {
  switch (event.type) {
    case 'payment_intent.succeeded': {
      const intent = event.data.object;
      return typeof intent?.id === 'string' ? { type: 'charge_succeeded', chargeRef: intent.id } : null;
    }
    case 'payment_intent.payment_failed': {
      const intent = event.data.object;
      if (typeof intent?.id !== 'string') return null;
      const error = intent.last_payment_error;
      return {
        type: 'charge_failed',
        chargeRef: intent.id,
        code: error?.decline_code ?? error?.code ?? 'card_declined',
      };
    }
    case 'payment_method.detached': {
      const method = event.data.object;
      return typeof method?.id === 'string' ? { type: 'payment_method_detached', ref: method.id } : null;
    }
    default:
      return null;
  }
}
