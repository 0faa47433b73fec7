import { z } from '@app/contract';
import { secretReference } from '../instance/settings/secret-reference.ts';
import { localizedTextSetting } from './localized-text.ts';

/**
 * Billing (Clerk's dashboard → Billing): the plans and features offered to users and to organisations,
 * and the payment gateway that charges them (docs/billing.md). Absent, or `enabled: false`: clerk-js gets
 * `commerce_settings: null` and shows no billing anywhere.
 *
 * Plans and features are keyed by slug; their ids are derived from the slug (`cplan_<slug>`,
 * `cfeat_<slug>`), so a document applied on another instance names the same plans. Money is in integer
 * minor units of `currency` (cents for USD, EUR). Names and descriptions are one string, or `{ fr, en }`
 * when they differ by language (docs/languages.md).
 */
const slug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'must be a slug: lower-case letters, digits, _ and -, up to 63.');

/** An amount in minor units: whole, non-negative, at most 1,000,000.00. */
const minorUnits = z.number().int().min(0).max(100_000_000);

export const billingFeatureSettings = z
  .object({
    name: localizedTextSetting(1, 128),
    description: localizedTextSetting(0, 1024).default(''),
  })
  .strict();

export const billingPlanSettings = z
  .object({
    name: localizedTextSetting(1, 128),
    /** Who subscribes to it: a user for themselves, or an organisation (by its billing managers). */
    payerType: z.enum(['user', 'org']),
    description: localizedTextSetting(0, 1024).default(''),
    /** Monthly fee, in minor units; 0 makes a free plan. */
    monthlyFee: minorUnits,
    /** Fee per month when billed annually (the annual fee is twelve of them); absent: no annual billing. */
    annualMonthlyFee: minorUnits.optional(),
    /** Feature slugs, from `features`. */
    features: z.array(slug).max(100).default([]),
    /** A paid plan's free trial, in days (0 or absent: none). A payer gets one trial. */
    freeTrialDays: z.number().int().min(0).max(365).optional(),
    /** The plan every payer of its type is on without subscribing (one per payer type, free). */
    isDefault: z.boolean().default(false),
    /** Shown in <PricingTable/>; a hidden plan is kept for those already on it. */
    publiclyVisible: z.boolean().default(true),
  })
  .strict();
export type BillingPlanSettings = z.output<typeof billingPlanSettings>;

/**
 * The payment gateway: `offline` (default) charges a test card kept by this instance, for development and
 * tests, and serves clerk-js a local stand-in of Stripe.js; `stripe` uses a Stripe account (test or live).
 */
export const billingGatewaySettings = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('offline') }).strict(),
  z
    .object({
      kind: z.literal('stripe'),
      /** `pk_test_…`/`pk_live_…`: handed to clerk-js for Stripe.js. */
      publishableKey: z.string().regex(/^pk_(test|live)_[A-Za-z0-9]+$/, 'must be a Stripe publishable key.'),
      /**
       * The Stripe account (`acct_…`) that holds the customers and charges. clerk-js loads Stripe.js for that
       * account (`loadStripe(pk, {stripeAccount})`) and shows no card form without one, as Clerk bills
       * through Stripe Connect: with a platform's keys it is the connected account.
       */
      accountId: z.string().regex(/^acct_[A-Za-z0-9]{1,64}$/, 'must be a Stripe account id (acct_…).'),
      secretKey: secretReference,
      /** The signing secret of the Stripe webhook endpoint (`whsec_…`). */
      webhookSecret: secretReference,
      /** Stripe's API origin; only to point at a stand-in in tests. */
      apiBase: z.url({ protocol: /^https?$/ }).optional(),
    })
    .strict(),
]);
export type BillingGatewaySettings = z.output<typeof billingGatewaySettings>;

export const billingSettings = z
  .object({
    enabled: z.boolean().default(true),
    /** ISO 4217, lower case, for every plan. */
    currency: z.enum(['usd', 'eur', 'gbp', 'chf', 'cad']).default('usd'),
    gateway: billingGatewaySettings.default({ kind: 'offline' }),
    features: z.record(slug, billingFeatureSettings).default({}),
    plans: z.record(slug, billingPlanSettings).default({}),
  })
  .strict()
  .superRefine((billing, ctx) => {
    const defaults = new Map<string, string>();
    for (const [planSlug, plan] of Object.entries(billing.plans)) {
      const problem = (message: string, ...path: string[]) =>
        ctx.addIssue({ code: 'custom', path: ['plans', planSlug, ...path], message });
      for (const feature of plan.features) {
        if (!billing.features[feature])
          problem(`names the feature ${feature}, which is not in features.`, 'features');
      }
      if (plan.isDefault) {
        if (plan.monthlyFee > 0 || (plan.annualMonthlyFee ?? 0) > 0)
          problem('a default plan is free.', 'isDefault');
        const other = defaults.get(plan.payerType);
        if (other) problem(`the plan ${other} is already the default for ${plan.payerType}.`, 'isDefault');
        defaults.set(plan.payerType, planSlug);
      }
      if (plan.freeTrialDays && plan.monthlyFee === 0) problem('a free plan has no trial.', 'freeTrialDays');
    }
  });
export type BillingSettings = z.output<typeof billingSettings>;

/** Whether the instance bills (settings present and on). */
export function billingEnabled(settings: BillingSettings | undefined): settings is BillingSettings {
  return settings?.enabled === true;
}
