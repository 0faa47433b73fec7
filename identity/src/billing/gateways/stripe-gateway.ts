import { createHash } from 'node:crypto';
import Stripe from 'stripe';
import { secretFromEnv } from '../../instance/settings/secret-reference.ts';
import type { BillingGatewaySettings } from '../billing-settings.ts';
import {
  GatewayUnavailableError,
  type ChargeOutcome,
  type ChargeRequest,
  type GatewayPayer,
  type GatewayPaymentMethod,
  type InitializedSetup,
  type PaymentGateway,
  type RefundRequest,
} from './payment-gateway.ts';

export type StripeGatewaySettings = Extract<BillingGatewaySettings, { kind: 'stripe' }>;

export interface StripeGateway extends PaymentGateway {
  readonly kind: 'stripe';
}

/** A payment method id as Stripe makes them; anything else is refused before a request is made. */
const PAYMENT_METHOD_ID = /^pm_[A-Za-z0-9_]{1,200}$/;

/**
 * A Stripe account as billing's gateway (docs/billing.md § Stripe): customers and SetupIntents for the
 * card form clerk-js shows with Stripe.js, off-session PaymentIntents for charges, refunds.
 *
 * The secret key comes from the environment variable the settings name, read on the first call to Stripe,
 * not here: the publishable key (the environment clerk-js loads on every page) never depends on it. A
 * missing variable fails that call as the gateway being unavailable, naming the variable. (The webhook
 * secret is read by the webhook route: stripe-webhook-route.ts.)
 */
export function createStripeGateway(
  settings: StripeGatewaySettings,
  env: NodeJS.ProcessEnv = process.env,
): StripeGateway {
  let client: Stripe | null = null;
  const api = (): Stripe => {
    if (client) return client;
    let secretKey: string;
    try {
      secretKey = secretFromEnv(settings.secretKey, env);
    } catch (err) {
      throw new GatewayUnavailableError((err as Error).message);
    }
    return (client = stripeClient(settings, secretKey));
  };

  return {
    kind: 'stripe',
    publishableKey: settings.publishableKey,

    async initializeSetup(payer: GatewayPayer): Promise<InitializedSetup> {
      return unavailableOnError('initializing a setup', async () => {
        let customerId = payer.customerId;
        let created: string | null = null;
        if (!customerId) {
          // Keyed by the payer: two first cards added at once (two tabs) make one customer, not two.
          const customer = await api().customers.create(
            {
              ...(payer.email ? { email: payer.email } : {}),
              ...(payer.name ? { name: payer.name } : {}),
              metadata: { payer_id: payer.payerId },
            },
            { idempotencyKey: customerKey(payer) },
          );
          customerId = created = customer.id;
        }
        const intent = await api().setupIntents.create({
          customer: customerId,
          usage: 'off_session',
          allowed_payment_method_types: ['card'],
          metadata: { payer_id: payer.payerId },
        });
        if (!intent.client_secret)
          throw new GatewayUnavailableError('Stripe answered a setup intent without a secret.');
        return {
          clientSecret: intent.client_secret,
          setupIntentId: intent.id,
          gatewayAccountId: settings.accountId,
          paymentMethodOrder: ['card'],
          customerId: created,
        };
      });
    },

    async attachPaymentMethod(payer, paymentToken): Promise<GatewayPaymentMethod | null> {
      if (!payer.customerId || !PAYMENT_METHOD_ID.test(paymentToken)) return null;
      let method: Stripe.PaymentMethod;
      try {
        method = await api().paymentMethods.retrieve(paymentToken);
      } catch (err) {
        // An unknown id (another account's, made up) is no card of this payer.
        if (err instanceof Stripe.errors.StripeInvalidRequestError) return null;
        throw unavailable('retrieving a payment method', err);
      }
      // The browser confirmed a SetupIntent of this payer's customer, which attached the method to it;
      // a method of another customer (another payer's token) or of none is refused.
      const customer = typeof method.customer === 'string' ? method.customer : method.customer?.id;
      if (customer !== payer.customerId) return null;
      return {
        ref: method.id,
        paymentMethod: method.type,
        cardType: method.card?.brand ?? '',
        last4: method.card?.last4 ?? '',
        walletType: method.card?.wallet?.type ?? null,
      };
    },

    async charge(request: ChargeRequest): Promise<ChargeOutcome> {
      if (!request.payer.customerId) throw new Error("A Stripe charge needs the payer's customer.");
      let intent: Stripe.PaymentIntent;
      try {
        intent = await api().paymentIntents.create(
          {
            amount: request.amount,
            currency: request.currency,
            customer: request.payer.customerId,
            payment_method: request.paymentMethodRef,
            allowed_payment_method_types: ['card'],
            confirm: true,
            off_session: true,
            description: request.description,
            metadata: { payer_id: request.payer.payerId },
          },
          // Stripe answers a repeated key with the first answer: a retried confirm or renewal charges once.
          { idempotencyKey: request.idempotencyKey },
        );
      } catch (err) {
        const declined = declineOf(err);
        if (declined) return declined;
        throw unavailable('charging', err);
      }
      if (intent.status === 'succeeded') return { status: 'paid', ref: intent.id };
      if (intent.status === 'requires_payment_method' || intent.status === 'canceled') {
        const error = intent.last_payment_error;
        return {
          status: 'failed',
          ref: intent.id,
          code: error?.decline_code ?? error?.code ?? 'card_declined',
        };
      }
      // Off-session, a card that needs the customer (3-D Secure) is a card_error above; what is left
      // (`processing`) has no outcome yet: no charge is recorded as paid on it.
      if (intent.status === 'requires_action')
        return { status: 'failed', ref: intent.id, code: 'authentication_required' };
      throw new GatewayUnavailableError(`Stripe answered the charge with status ${intent.status}.`);
    },

    async refund(request: RefundRequest): Promise<{ ref: string }> {
      return unavailableOnError('refunding', async () => {
        const refund = await api().refunds.create(
          { payment_intent: request.chargeRef, amount: request.amount },
          { idempotencyKey: request.idempotencyKey },
        );
        return { ref: refund.id };
      });
    },

    async detachPaymentMethod(ref: string): Promise<void> {
      if (!PAYMENT_METHOD_ID.test(ref)) return;
      try {
        await api().paymentMethods.detach(ref);
      } catch (err) {
        // Already detached (at the dashboard, or by an earlier try) or unknown: nothing is left to forget.
        if (err instanceof Stripe.errors.StripeInvalidRequestError) return;
        throw unavailable('detaching a payment method', err);
      }
    },
  };
}

/**
 * The customer's idempotency key: the payer, and what the customer is made with, so a retry after the
 * payer changed their name within Stripe's 24 hours is a new request rather than Stripe's
 * `idempotency_error` (a key reused with other parameters).
 */
function customerKey(payer: GatewayPayer): string {
  const params = createHash('sha256')
    .update(`${payer.email ?? ''}\n${payer.name ?? ''}`)
    .digest('hex');
  return `customer-${payer.payerId}-${params.slice(0, 16)}`;
}

/** Stripe's client on `apiBase` (a stand-in in tests) or api.stripe.com. */
function stripeClient(settings: StripeGatewaySettings, secretKey: string): Stripe {
  const base = settings.apiBase ? new URL(settings.apiBase) : null;
  return new Stripe(secretKey, {
    // One retry of a dropped connection or a 5xx, with the same idempotency key (stripe-node adds one).
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
    // Every call acts on the account the browser's Stripe.js was loaded for (Stripe-Account).
    stripeAccount: settings.accountId,
    ...(base
      ? {
          protocol: base.protocol === 'http:' ? 'http' : 'https',
          host: base.hostname,
          port: base.port || (base.protocol === 'http:' ? 80 : 443),
        }
      : {}),
  });
}

/** A card error (declined, expired, needs authentication) or a refused request: no money moved. */
function declineOf(err: unknown): ChargeOutcome | null {
  if (
    err instanceof Stripe.errors.StripeCardError ||
    err instanceof Stripe.errors.StripeInvalidRequestError
  ) {
    const intent = (err as Stripe.errors.StripeError).payment_intent;
    return {
      status: 'failed',
      ref: intent?.id ?? null,
      code:
        err.decline_code ??
        err.code ??
        (err instanceof Stripe.errors.StripeCardError ? 'card_declined' : 'invalid_request'),
    };
  }
  return null;
}

async function unavailableOnError<T>(doing: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw unavailable(doing, err);
  }
}

/**
 * Stripe failed us (unreachable, 5xx, rate limited, a key it refuses): billing answers 502-class. The
 * message names Stripe's error type and code only: Stripe's own text can quote the request.
 */
function unavailable(doing: string, err: unknown): Error {
  if (err instanceof GatewayUnavailableError) return err;
  if (err instanceof Stripe.errors.StripeError) {
    const detail = [err.type, err.code, err.statusCode].filter((part) => part !== undefined).join(' ');
    return new GatewayUnavailableError(`Stripe failed ${doing}: ${detail}.`);
  }
  return err instanceof Error ? err : new Error(String(err));
}
