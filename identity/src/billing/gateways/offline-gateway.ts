import { createHash } from 'node:crypto';
import type { Database, Queryable } from '../../db/database.ts';
import { newId, randomBase62 } from '../../ids.ts';
import {
  confirmSetupIntent,
  deleteSurplusSetupIntents,
  insertSetupIntent,
  selectSetupIntentByMethodRef,
  selectSetupIntentBySecretHash,
  selectSourceDeclines,
  type SetupIntentRow,
} from '../../store/billing-payers.ts';
import type {
  ChargeOutcome,
  ChargeRequest,
  GatewayPayer,
  GatewayPaymentMethod,
  InitializedSetup,
  PaymentGateway,
  RefundRequest,
} from './payment-gateway.ts';

/**
 * The offline gateway (docs/billing.md): cards are test cards kept by this instance, no request leaves the
 * machine. The browser's card form (the Web helper's stand-in of Stripe.js) confirms a setup intent at
 * `POST /v1/commerce/offline_gateway/setup_intents/confirm` with the intent's client secret and a card
 * number; the confirmation makes a `pm_offline_…` payment method, which clerk-js then hands back as the
 * `payment_token` of `POST …/payment_sources` or of a checkout's confirm.
 *
 * Test cards, as Stripe's: any Luhn-valid number is accepted; charges to one ending 0002 or 0341 are
 * declined `card_declined`, to one ending 9995 `insufficient_funds`. Only the brand, the last four digits,
 * the expiry and the decline flag are kept, never the number.
 */
export const OFFLINE_PUBLISHABLE_KEY = 'pk_test_offline';

/** How long an unconfirmed setup intent may be confirmed (then the retention purge deletes it). */
const SETUP_INTENT_TTL_MS = 60 * 60 * 1000;
/**
 * Unconfirmed setup intents kept per payer: clerk-js initialises one on every mount of the card form, so
 * a new one retires the oldest past this many (with the initialize rate limit, a payer's rows stay few).
 */
export const MAX_OPEN_SETUP_INTENTS = 10;

export const hashClientSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** The decline code of a card by its last four digits (Stripe's test cards), null when it pays. */
export function offlineDeclineCode(last4: string): string | null {
  if (last4 === '0002' || last4 === '0341') return 'card_declined';
  if (last4 === '9995') return 'insufficient_funds';
  return null;
}

export function cardBrand(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  if (/^6(011|5)/.test(number)) return 'discover';
  return 'card';
}

export interface ConfirmCard {
  number: string;
  expMonth: number;
  expYear: number;
}

/** The offline gateway plus what only it has: confirming a setup intent from the card form. */
export interface OfflineGateway extends PaymentGateway {
  readonly kind: 'offline';
  /**
   * Confirms the setup intent whose client secret is `clientSecret` with a card (already checked for form):
   * answers its id and the payment method made, or null for an unknown, expired or already-used secret.
   */
  confirmSetup(
    clientSecret: string,
    card: ConfirmCard,
    tx?: Queryable,
  ): Promise<{ id: string; paymentMethod: string } | null>;
}

export function createOfflineGateway(deps: { db: () => Database; clock: () => Date }): OfflineGateway {
  const declineOf = async (ref: string): Promise<string | null> => {
    const intent = await selectSetupIntentByMethodRef(deps.db(), ref);
    return intent ? offlineDeclineCode(intent.card_last4 ?? '') : 'card_declined';
  };
  return {
    kind: 'offline',
    publishableKey: OFFLINE_PUBLISHABLE_KEY,

    async initializeSetup(payer: GatewayPayer): Promise<InitializedSetup> {
      const id = newId('seti');
      const clientSecret = `${id}_secret_${randomBase62(32)}`;
      const now = deps.clock();
      await deps.db().transaction(async (tx) => {
        await insertSetupIntent(tx, {
          id,
          payerId: payer.payerId,
          gateway: 'offline',
          clientSecretHash: hashClientSecret(clientSecret),
          now,
          expiresAt: new Date(now.getTime() + SETUP_INTENT_TTL_MS),
        });
        await deleteSurplusSetupIntents(tx, payer.payerId, MAX_OPEN_SETUP_INTENTS);
      });
      // Not empty: clerk-js 5.90.0 loads Stripe.js (here the page's stand-in) only when the initialised
      // payment source names a gateway account (shared/react/commerce.tsx); the stand-in ignores it.
      return {
        clientSecret,
        setupIntentId: id,
        gatewayAccountId: 'acct_offline',
        paymentMethodOrder: ['card'],
        customerId: null,
      };
    },

    async confirmSetup(clientSecret, card, outer) {
      const inTx = <T>(fn: (tx: Queryable) => Promise<T>) => (outer ? fn(outer) : deps.db().transaction(fn));
      return inTx(async (tx) => {
        const intent = await selectSetupIntentBySecretHash(tx, hashClientSecret(clientSecret));
        if (!intent || intent.payment_method_ref || intent.expires_at.getTime() < deps.clock().getTime())
          return null;
        const paymentMethod = `pm_offline_${randomBase62(24)}`;
        const last4 = card.number.slice(-4);
        await confirmSetupIntent(tx, {
          id: intent.id,
          paymentMethodRef: paymentMethod,
          brand: cardBrand(card.number),
          last4,
          expMonth: card.expMonth,
          expYear: card.expYear,
          declines: offlineDeclineCode(last4) !== null,
        });
        return { id: intent.id, paymentMethod };
      });
    },

    async attachPaymentMethod(payer, paymentToken): Promise<GatewayPaymentMethod | null> {
      if (!/^pm_offline_[A-Za-z0-9]{1,64}$/.test(paymentToken)) return null;
      const intent: SetupIntentRow | null = await selectSetupIntentByMethodRef(deps.db(), paymentToken);
      // Only a method made by confirming this payer's own setup: another payer's token finds nothing.
      if (!intent || intent.payer_id !== payer.payerId) return null;
      return {
        ref: paymentToken,
        paymentMethod: 'card',
        cardType: intent.card_brand ?? 'card',
        last4: intent.card_last4 ?? '',
        walletType: null,
      };
    },

    /**
     * Idempotent by construction: the outcome depends only on the card (its decline flag never changes)
     * and the reference on the key, so the same key answers the same outcome and no money moves twice.
     */
    async charge(request: ChargeRequest): Promise<ChargeOutcome> {
      const ref = `ch_offline_${createHash('sha256').update(request.idempotencyKey).digest('hex').slice(0, 24)}`;
      const declines = await selectSourceDeclines(deps.db(), request.paymentMethodRef);
      if (declines === null) return { status: 'failed', ref, code: 'card_declined' };
      const code = declines ? await declineOf(request.paymentMethodRef) : null;
      return code ? { status: 'failed', ref, code } : { status: 'paid', ref };
    },

    async refund(request: RefundRequest) {
      return {
        ref: `re_offline_${createHash('sha256').update(request.idempotencyKey).digest('hex').slice(0, 24)}`,
      };
    },

    async detachPaymentMethod() {
      // Nothing is kept at an offline "gateway" beyond the setup intent, which stays for past statements.
    },
  };
}
