import { billingErrors } from '../../billing/billing-errors.ts';
import type { OfflineGateway } from '../../billing/gateways/offline-gateway.ts';
import { errors } from '../../errors.ts';
import type { RateLimitRule } from '../../store/rate-limits.ts';
import type { FapiRequestInfo, FapiRoute } from '../context.ts';
import { field } from '../form.ts';
import { formInput } from '../form-input.ts';

/** Card confirmations per network address per hour: a card-testing flood gets nowhere. */
const PER_IP_PER_HOUR = 30;

const limits = (req: FapiRequestInfo): RateLimitRule[] => [
  { key: `billing:offline-confirm:ip:${req.ip}`, limit: PER_IP_PER_HOUR, windowSeconds: 3600 },
];

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function required(body: FapiRequestInfo['body'], name: string, max: number): string {
  const value = field(body, name);
  if (value === undefined || value === '') throw errors.paramMissing(name);
  if (value.length > max) throw errors.paramFormatInvalid(name, `at most ${max} characters`);
  return value;
}

/**
 * POST /v1/commerce/offline_gateway/setup_intents/confirm — the offline gateway's card form (the Web
 * helper's stand-in of Stripe.js) confirms a setup intent here, as Stripe.js's `confirmSetup` does at Stripe.
 *
 * Contract. Form fields:
 * - `client_secret`: the `external_client_secret` of `POST …/payment_sources/initialize` (`seti_…_secret_…`);
 * - `card_number`: 13–19 digits (spaces allowed), Luhn-valid;
 * - `exp_month` 1–12 and `exp_year` (4 digits, or 2 read as 20xx): not in the past;
 * - `cvc`: 3–4 digits.
 * Answers `{id, status: 'succeeded', payment_method: 'pm_offline_…'}` (bare): the payment method is the
 * `payment_token` clerk-js then sends. A malformed field: 422 `form_param_format_invalid` naming it
 * (`meta.param_name`); an unknown, expired or already confirmed secret: 422 `form_param_value_invalid` on
 * `client_secret`. 404 when the instance's gateway is not the offline one. Rate limited per network address.
 * The number is never stored: only the brand, last four digits, expiry and whether test charges decline
 * (0002/0341 → card_declined, 9995 → insufficient_funds).
 */
export const offlineSetupConfirmRoute: FapiRoute = {
  method: 'POST',
  path: '/commerce/offline_gateway/setup_intents/confirm',
  auth: 'none',
  permission: null,
  input: {
    body: formInput({
      client_secret: 'token',
      card_number: 'text',
      exp_month: 'text',
      exp_year: 'text',
      cvc: 'text',
    }),
  },
  rateLimits: limits,
  async handler(ctx) {
    const gateway = ctx.deps.billing.gateway();
    if (!ctx.deps.billing.catalogue() || gateway.kind !== 'offline') throw billingErrors.notFound();
    const clientSecret = required(ctx.body, 'client_secret', 200);
    const number = required(ctx.body, 'card_number', 40).replace(/[\s-]/g, '');
    if (!/^\d{13,19}$/.test(number) || !luhn(number))
      throw errors.paramFormatInvalid('card_number', 'a valid card number');
    const expMonth = Number(required(ctx.body, 'exp_month', 2));
    if (!Number.isInteger(expMonth) || expMonth < 1 || expMonth > 12)
      throw errors.paramFormatInvalid('exp_month', 'a month from 1 to 12');
    const rawYear = required(ctx.body, 'exp_year', 4);
    if (!/^(\d{2}|\d{4})$/.test(rawYear)) throw errors.paramFormatInvalid('exp_year', 'a year');
    const expYear = rawYear.length === 2 ? 2000 + Number(rawYear) : Number(rawYear);
    const y = ctx.now.getUTCFullYear();
    const m = ctx.now.getUTCMonth() + 1;
    if (expYear < y || (expYear === y && expMonth < m) || expYear > y + 50) {
      throw errors.paramFormatInvalid('exp_year', 'a date not in the past');
    }
    const cvc = required(ctx.body, 'cvc', 4);
    if (!/^\d{3,4}$/.test(cvc)) throw errors.paramFormatInvalid('cvc', '3 or 4 digits');
    const confirmed = await (gateway as OfflineGateway).confirmSetup(
      clientSecret,
      { number, expMonth, expYear },
      ctx.tx,
    );
    if (!confirmed)
      throw billingErrors.invalidParam('client_secret', 'This card form has expired. Please start again.');
    return {
      bare: {
        id: confirmed.id,
        object: 'setup_intent',
        status: 'succeeded',
        payment_method: confirmed.paymentMethod,
      },
    };
  },
};
