/**
 * What billing asks of a payment gateway (docs/billing.md). Two implementations: `offline-gateway.ts`
 * (the default: a test card kept by this instance, no request leaves the machine) and `stripe-gateway.ts`
 * (a Stripe account: SetupIntents for cards, PaymentIntents for charges). Everything else in billing —
 * plans, checkouts, proration, trials, renewals, the ledger — is the same whichever gateway charges.
 *
 * Money is in integer minor units. Every call that moves money carries an idempotency key: the same key
 * again answers the first call's outcome and charges nothing more (a confirm retried by clerk-js, a renewal
 * retried after a crash).
 */

/** The gateway's view of a payer: its customer at the gateway, made on first need. */
export interface GatewayPayer {
  payerId: string;
  /** Stripe's `cus_…`; null until the gateway made one (the offline gateway never does). */
  customerId: string | null;
  email: string | null;
  name: string | null;
}

/** What clerk-js's payment form needs (`POST …/payment_sources/initialize`). */
export interface InitializedSetup {
  /** Handed to Stripe.js (`elements({clientSecret})`); only its hash is kept. */
  clientSecret: string;
  /** The setup intent's id at the gateway. */
  setupIntentId: string;
  /** clerk-js passes it to `loadStripe(pk, {stripeAccount})`: the connected account, or '' for none. */
  gatewayAccountId: string;
  paymentMethodOrder: string[];
  /** Set when this call made the payer's customer at the gateway: billing keeps it on the payer. */
  customerId: string | null;
}

/** A payment method as billing keeps it (`CommercePaymentSourceJSON`). */
export interface GatewayPaymentMethod {
  /** The gateway's payment method id (Stripe's `pm_…`). */
  ref: string;
  paymentMethod: 'card' | string;
  cardType: string;
  last4: string;
  walletType: string | null;
}

export interface ChargeRequest {
  payer: GatewayPayer;
  paymentMethodRef: string;
  amount: number;
  currency: string;
  idempotencyKey: string;
  description: string;
}

export type ChargeOutcome =
  | { status: 'paid'; ref: string }
  /** Declined or failed at the gateway: no money moved. `code` is the gateway's (card_declined…). */
  | { status: 'failed'; ref: string | null; code: string };

export interface RefundRequest {
  chargeRef: string;
  amount: number;
  idempotencyKey: string;
}

export interface PaymentGateway {
  readonly kind: 'offline' | 'stripe';
  /** `commerce_settings.billing.stripe_publishable_key`: clerk-js shows no card form without one. */
  readonly publishableKey: string;
  /** Starts adding a card: a setup intent whose secret the browser's card form confirms. */
  initializeSetup(payer: GatewayPayer): Promise<InitializedSetup>;
  /**
   * The payment method a browser's confirmed setup produced (`payment_token`), checked to belong to this
   * payer's setup; null when it does not (another payer's token, an unknown or unconfirmed one).
   */
  attachPaymentMethod(payer: GatewayPayer, paymentToken: string): Promise<GatewayPaymentMethod | null>;
  /** Charges a saved method off-session. Never throws for a decline: that is `failed`. */
  charge(request: ChargeRequest): Promise<ChargeOutcome>;
  refund(request: RefundRequest): Promise<{ ref: string }>;
  /** Forgets a removed method at the gateway (Stripe: detach). */
  detachPaymentMethod(ref: string): Promise<void>;
}

/** A gateway failure billing reports as Clerk does (502-class), as opposed to a decline. */
export class GatewayUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GatewayUnavailableError';
  }
}

/**
 * What a gateway tells billing after the fact (Stripe's webhooks): a charge settled later (3-D Secure,
 * bank delays) or a method removed at the gateway. `billing/gateway-events.ts` applies them.
 */
export type GatewayEvent =
  | { type: 'charge_succeeded'; chargeRef: string }
  | { type: 'charge_failed'; chargeRef: string; code: string }
  | { type: 'payment_method_detached'; ref: string };
