import { errors } from '../../errors.ts';
import type { IdentityDeps } from '../../deps.ts';
import { hit, type RateLimitRule } from '../../store/rate-limits.ts';
import type { FapiContext } from '../context.ts';
import type { BillingCaller } from './billing-access.ts';

/**
 * How often a payer may make each billing write (docs/input-limits-and-retention.md). Keyed by the payer
 * (the user for `/me`, the organisation for `/organizations/:id`) and, for checkouts, by the signed-in user
 * too, so one user managing many organisations is bounded as a whole. Not by network address: an office
 * behind one address holds many payers, and every call is already signed in. Each number is far above
 * what clerk-js's screens make a person send (initialize runs on every mount of the card form).
 */
export const BILLING_LIMITS = {
  /** Checkouts started (the checkout drawer opens). */
  checkoutPerPayer: 30,
  checkoutPerUser: 60,
  /** Confirms that take a checkout and call the gateway; a 409 or an already-completed answer is free. */
  confirmPerPayer: 20,
  confirmPerUser: 40,
  /** Card-form setups (clerk-js asks for one on every mount of the form). */
  initializePerPayer: 60,
  /** Payment methods added (each asks the gateway whether the card is the payer's). */
  addSourcePerPayer: 10,
  /** Payment methods removed, or made the default. */
  changeSourcePerPayer: 30,
  /** Subscription items canceled. */
  cancelItemPerPayer: 30,
} as const;

const HOUR = 3600;

export type BillingAction =
  'checkout' | 'confirm' | 'initialize' | 'add_source' | 'change_source' | 'cancel_item';

const payerPart = (caller: BillingCaller) =>
  caller.ref.type === 'user' ? `user:${caller.ref.userId}` : `org:${caller.ref.organizationId}`;

/** The limits one billing write of `caller` counts against. */
export function billingLimits(caller: BillingCaller, action: BillingAction): RateLimitRule[] {
  const payer = (limit: number): RateLimitRule => ({
    key: `billing:${action}:payer:${payerPart(caller)}`,
    limit,
    windowSeconds: HOUR,
  });
  const user = (limit: number): RateLimitRule => ({
    key: `billing:${action}:by:${caller.userId}`,
    limit,
    windowSeconds: HOUR,
  });
  switch (action) {
    case 'checkout':
      return [payer(BILLING_LIMITS.checkoutPerPayer), user(BILLING_LIMITS.checkoutPerUser)];
    case 'confirm':
      return [payer(BILLING_LIMITS.confirmPerPayer), user(BILLING_LIMITS.confirmPerUser)];
    case 'initialize':
      return [payer(BILLING_LIMITS.initializePerPayer)];
    case 'add_source':
      return [payer(BILLING_LIMITS.addSourcePerPayer)];
    case 'change_source':
      return [payer(BILLING_LIMITS.changeSourcePerPayer)];
    case 'cancel_item':
      return [payer(BILLING_LIMITS.cancelItemPerPayer)];
  }
}

/**
 * Counts a call that reaches the payment gateway, with no transaction held (inside a
 * WorkOutsideTransaction's work, before the gateway is called): the count stays whatever the outcome, as
 * a declined card or a refused token cost a gateway call too. 429 `too_many_requests` with Retry-After
 * when a window is full; nothing else is done then.
 */
export async function countGatewayCall(deps: IdentityDeps, rules: RateLimitRule[], now: Date): Promise<void> {
  for (const rule of rules) {
    const wait = await hit(deps.db, rule, now);
    if (wait > 0) throw errors.tooManyRequests(wait);
  }
}

/**
 * Checks a write done in the request's transaction (no gateway call): 429 when a window is full, counted
 * by the transaction's last statement, so a refused or failed call (nothing changed) counts nothing.
 */
export async function checkBillingLimits(ctx: FapiContext, rules: RateLimitRule[]): Promise<void> {
  for (const rule of rules) await ctx.checkLimitAtCommit(rule);
}
