import { checkoutJSON } from '../../billing/billing-json.ts';
import type { CheckoutRow, PlanPeriod } from '../../billing/billing-model.ts';
import {
  confirmCheckout,
  getCheckout,
  STALE_CONFIRM_MS,
  startCheckout,
  type ConfirmPayment,
} from '../../billing/checkouts.ts';
import type { PlanCatalogue } from '../../billing/plans.ts';
import { findPayer } from '../../billing/payers.ts';
import { selectPaymentSource } from '../../store/billing-payers.ts';
import { errors } from '../../errors.ts';
import type { Queryable } from '../../db/database.ts';
import type { FapiContext } from '../context.ts';
import { booleanField, field } from '../form.ts';
import { WorkOutsideTransaction } from '../work-outside-transaction.ts';
import { billingCaller, type BillingCaller } from './billing-access.ts';
import { billingId, validPaymentToken } from './billing-input.ts';
import { billingLimits, checkBillingLimits, countGatewayCall } from './billing-limits.ts';
import { scopedRoutes } from './scoped-routes.ts';
import { formInput } from '../form-input.ts';

/** The checkout's chosen method, if it is still the payer's. */
async function paymentSourceOf(tx: Queryable, caller: BillingCaller, id: string) {
  const payer = await findPayer(tx, caller.ref);
  return payer ? selectPaymentSource(tx, payer.id, id) : null;
}

async function answerCheckout(tx: Queryable, caller: BillingCaller, checkout: CheckoutRow) {
  const plan = caller.catalogue.bySlug(checkout.planSlug);
  // A plan taken out of the settings since: its checkout can no longer be shown or confirmed.
  if (!plan) throw errors.notFound('plan');
  const source = checkout.paymentSourceId
    ? await paymentSourceOf(tx, caller, checkout.paymentSourceId)
    : null;
  return checkoutJSON(checkout, plan, caller.catalogue.currency, source, caller.language);
}

function planPeriodOf(ctx: FapiContext): PlanPeriod {
  const period = field(ctx.body, 'plan_period') ?? 'month';
  if (period !== 'month' && period !== 'annual')
    throw errors.paramValueInvalid('plan_period', 'plan_period must be one of month or annual.');
  return period;
}

function planIdOf(ctx: FapiContext, catalogue: PlanCatalogue, payerType: 'user' | 'org'): string {
  const planId = field(ctx.body, 'plan_id');
  if (!planId) throw errors.paramMissing('plan_id');
  const plan = planId.length <= 128 && /^[A-Za-z0-9_-]+$/.test(planId) ? catalogue.byId(planId) : undefined;
  // A plan of the other payer type is no plan this payer can buy.
  if (!plan || plan.payerType !== payerType) throw errors.notFound('plan');
  return plan.id;
}

/**
 * POST {scope}/commerce/checkouts — the checkout drawer opens: `plan_id`, `plan_period` (month|annual).
 * Its totals (proration credit, trial) are computed now; the domain refuses what the UI has screens for
 * (`invalid_plan_change`, `missing_payer_email`).
 */
export const startCheckoutRoutes = scopedRoutes(
  'POST',
  '/commerce/checkouts',
  { body: formInput({ plan_id: 'id', plan_period: 'enum' }) },
  async (ctx) => {
    const caller = await billingCaller(ctx, 'manage');
    const planId = planIdOf(ctx, caller.catalogue, caller.ref.type);
    const planPeriod = planPeriodOf(ctx);
    await checkBillingLimits(ctx, billingLimits(caller, 'checkout'));
    const checkout = await startCheckout(
      ctx.tx,
      { ref: caller.ref, userId: caller.userId, planId, planPeriod, language: caller.language },
      caller.catalogue,
      ctx.now,
    );
    return { response: await answerCheckout(ctx.tx, caller, checkout) };
  },
);

/**
 * How the browser pays: a saved method (`payment_source_id`), a card its form just set up
 * (`gateway=stripe&payment_token=`), or the development "Pay with test card" (`use_test_card=true`).
 * None: a checkout with nothing to pay now (a free plan, a downgrade).
 */
function paymentOf(ctx: FapiContext): ConfirmPayment {
  const sourceId = field(ctx.body, 'payment_source_id');
  const gateway = field(ctx.body, 'gateway');
  const token = field(ctx.body, 'payment_token');
  const testCard = booleanField(ctx.body, 'use_test_card');
  if (sourceId) return { paymentSourceId: billingId(sourceId, 'payment source') };
  if (gateway !== undefined && gateway !== 'stripe')
    throw errors.paramValueInvalid('gateway', 'gateway must be stripe.');
  if (token) {
    if (!validPaymentToken(token))
      throw errors.paramValueInvalid('payment_token', 'payment_token is not valid.');
    return { gateway: 'stripe', paymentToken: token };
  }
  if (testCard) return { gateway: 'stripe', useTestCard: true };
  // Nothing to pay with: the domain takes it for a checkout with nothing due (or asks for a method).
  return { paymentSourceId: '' };
}

/**
 * PATCH {scope}/commerce/checkouts/:id/confirm (clerk-js tunnels it: POST ?_method=PATCH) — pays and
 * subscribes. The charge goes to the gateway with no transaction held: the handler checks the caller
 * and the checkout, then asks for `confirmCheckout` to run outside (it takes the checkout once under its
 * own lock: a retry while it runs is 409 `checkout_already_in_progress`, after it the same answer, never
 * a second charge), and answers when it has.
 */
export const confirmCheckoutRoutes = scopedRoutes(
  'PATCH',
  '/commerce/checkouts/:id/confirm',
  {
    body: formInput({
      payment_source_id: 'id',
      gateway: 'enum',
      payment_token: 'token',
      use_test_card: 'bool',
    }),
  },
  async (ctx) => {
    const caller = await billingCaller(ctx, 'manage');
    const id = billingId(ctx.params.id, 'checkout');
    const checkout = await getCheckout(ctx.tx, caller.ref, id);
    if (!checkout) throw errors.notFound('checkout');
    const key = `confirm:${caller.ref.type === 'user' ? caller.ref.userId : caller.ref.organizationId}:${id}`;
    const done = ctx.prepared.billing;
    if (done?.key === key)
      return { response: await answerCheckout(ctx.tx, caller, done.result as CheckoutRow) };
    const payment = paymentOf(ctx);
    const { deps, now } = ctx;
    const input = { ref: caller.ref, userId: caller.userId, checkoutId: id, payment };
    // Only a confirm that will take the checkout (and call the gateway) counts: clerk-js's retries of a 409
    // `checkout_already_in_progress` or of a 5xx while the first runs, and a confirm of a completed
    // checkout, answer from what is recorded and are never refused by the limit.
    const takes =
      checkout.status === 'needs_confirmation' &&
      checkout.expiresAt >= now &&
      (!checkout.confirmStartedAt || now.getTime() - checkout.confirmStartedAt.getTime() >= STALE_CONFIRM_MS);
    const limits = takes ? billingLimits(caller, 'confirm') : [];
    throw new WorkOutsideTransaction(async () => {
      await countGatewayCall(deps, limits, now);
      return { billing: { key, result: await confirmCheckout(deps, input, now) } };
    });
  },
);
