import { ClerkError, type GatewayDeclineCode } from '../errors.ts';
import type { Plan, PlanPeriod } from './billing-model.ts';
import type { MailLanguage } from '../mail/language.ts';
import { textIn } from './localized-text.ts';
import { currencySymbol, formatAmount } from './money.ts';

const invalidPlanChange = (plan: Plan, upgradePossible: boolean, message: string, language: MailLanguage) =>
  new ClerkError(400, 'invalid_plan_change', 'Invalid plan change', message, {
    plan: {
      id: plan.id,
      name: textIn(plan.name, language),
      currency_symbol: currencySymbol(plan.currency),
      amount_formatted: formatAmount(plan.monthlyFee),
      annual_monthly_amount_formatted: formatAmount(plan.annualMonthlyFee ?? 0),
    },
    is_plan_upgrade_possible: upgradePossible,
  });

/** Billing's errors, in Clerk's envelope; clerk-js gives `invalid_plan_change` and `missing_payer_email` screens. */
export const billingErrors = {
  notFound: (param?: string) =>
    new ClerkError(
      404,
      'resource_not_found',
      'not found',
      'The requested resource was not found.',
      param ? { param_name: param } : {},
    ),
  invalidParam: (param: string, message: string) =>
    new ClerkError(422, 'form_param_value_invalid', 'is invalid', message, { param_name: param }),
  /** `meta.plan` and `meta.is_plan_upgrade_possible`: read by clerk-js's InvalidPlanScreen (Checkout/parts.tsx). */
  invalidPlanChange: (plan: Plan, period: PlanPeriod, upgradePossible: boolean, language: MailLanguage) =>
    invalidPlanChange(
      plan,
      upgradePossible,
      period === 'month'
        ? 'You are already subscribed to this plan, billed monthly.'
        : 'You are already subscribed to this plan, billed annually.',
      language,
    ),
  /**
   * From a plan billed annually to another plan billed monthly. clerk-js then says "you need to choose to
   * pay annually" when the plan has annual billing (`is_plan_upgrade_possible`), and that it cannot be
   * subscribed to otherwise.
   */
  annualPlanToMonthly: (plan: Plan, annualPossible: boolean, language: MailLanguage) =>
    invalidPlanChange(
      plan,
      annualPossible,
      annualPossible
        ? 'Your current plan is billed annually: choose annual billing to subscribe to this plan.'
        : 'Your current plan is billed annually, and this plan is not offered with annual billing.',
      language,
    ),
  missingPayerEmail: () =>
    new ClerkError(
      422,
      'missing_payer_email',
      'Email address required',
      'Add an email address to your account before subscribing to a plan.',
    ),
  checkoutInProgress: () =>
    new ClerkError(
      409,
      'checkout_already_in_progress',
      'Checkout in progress',
      'This checkout is being confirmed. Please wait a moment.',
    ),
  checkoutNotConfirmable: () =>
    new ClerkError(
      422,
      'checkout_not_confirmable',
      'Checkout expired',
      'This checkout has expired or was replaced by another. Please start again.',
    ),
  paymentSourceRequired: () =>
    new ClerkError(422, 'form_param_missing', 'is missing', 'A payment method is required.', {
      param_name: 'payment_source_id',
    }),
  /** A declined card: `code` is the gateway's (card_declined, insufficient_funds…); clerk-js shows the words. */
  paymentDeclined: (code: string) =>
    new ClerkError(
      402,
      code as GatewayDeclineCode,
      'Payment declined',
      code === 'insufficient_funds' ? 'The card has insufficient funds.' : 'The card was declined.',
      { decline_code: code },
    ),
  testCardUnavailable: () =>
    new ClerkError(
      422,
      'form_param_value_invalid',
      'is invalid',
      'The test card is available only with the offline gateway in development mode.',
      { param_name: 'use_test_card' },
    ),
  paymentTokenInvalid: () =>
    new ClerkError(
      422,
      'form_param_value_invalid',
      'is invalid',
      'This payment method could not be added. Please enter your card again.',
      { param_name: 'payment_token' },
    ),
  defaultPlanNotCancelable: () =>
    new ClerkError(
      400,
      'default_plan_cannot_be_canceled',
      'Cannot cancel the free plan',
      'The default free plan cannot be canceled: subscribe to another plan instead.',
    ),
  paymentSourceInUse: () =>
    new ClerkError(
      400,
      'payment_source_in_use',
      'Payment method in use',
      'This payment method pays for an active subscription and cannot be removed.',
    ),
  /** A payer at its cap of payment methods (billing/payment-sources.ts): one must be removed first. */
  tooManyPaymentSources: (max: number) =>
    new ClerkError(
      422,
      'payment_source_limit_reached',
      'Too many payment methods',
      `You can keep at most ${max} payment methods. Remove one before adding another.`,
      { param_name: 'payment_token' },
    ),
  gatewayUnavailable: () =>
    new ClerkError(
      502,
      'payment_gateway_unavailable',
      'Payment provider unavailable',
      'The payment provider could not be reached. Please try again.',
    ),
};
