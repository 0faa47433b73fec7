import { deletedJSON, pageJSON, paymentSourceJSON } from '../../billing/billing-json.ts';
import type { PaymentSourceRow } from '../../billing/billing-model.ts';
import type { InitializedSetup } from '../../billing/gateways/payment-gateway.ts';
import {
  addPaymentSource,
  initializePaymentSource,
  listPaymentSources,
  removePaymentSource,
  setDefaultPaymentSource,
} from '../../billing/payment-sources.ts';
import { errors } from '../../errors.ts';
import type { FapiContext } from '../context.ts';
import { field } from '../form.ts';
import { WorkOutsideTransaction } from '../work-outside-transaction.ts';
import { billingCaller, type BillingCaller } from './billing-access.ts';
import { billingId, billingPage, validPaymentToken } from './billing-input.ts';
import { billingLimits, checkBillingLimits, countGatewayCall } from './billing-limits.ts';
import { scopedRoutes } from './scoped-routes.ts';
import { formInput } from '../form-input.ts';

const payerKey = (caller: BillingCaller) =>
  caller.ref.type === 'user' ? caller.ref.userId : caller.ref.organizationId;

function gatewayOf(ctx: FapiContext): 'stripe' {
  const gateway = field(ctx.body, 'gateway') ?? 'stripe';
  if (gateway !== 'stripe') throw errors.paramValueInvalid('gateway', 'gateway must be stripe.');
  return gateway;
}

/**
 * POST {scope}/commerce/payment_sources/initialize — every mount of the card form (PaymentElementProvider)
 * asks for a setup: `{external_client_secret, external_gateway_id, payment_method_order}`. The gateway is
 * called with no transaction held (see work-outside-transaction.ts).
 */
export const initializePaymentSourceRoutes = scopedRoutes(
  'POST',
  '/commerce/payment_sources/initialize',
  { body: formInput({ gateway: 'enum' }) },
  async (ctx) => {
    const caller = await billingCaller(ctx, 'manage');
    gatewayOf(ctx);
    const key = `initialize:${payerKey(caller)}`;
    const done = ctx.prepared.billing;
    if (done?.key === key) {
      const setup = done.result as InitializedSetup;
      return {
        response: {
          object: 'commerce_payment_source_initialize',
          external_client_secret: setup.clientSecret,
          external_gateway_id: setup.gatewayAccountId,
          payment_method_order: setup.paymentMethodOrder,
        },
      };
    }
    const { deps, now } = ctx;
    const ref = caller.ref;
    const limits = billingLimits(caller, 'initialize');
    throw new WorkOutsideTransaction(async () => {
      await countGatewayCall(deps, limits, now);
      return { billing: { key, result: await initializePaymentSource(deps, ref, now) } };
    });
  },
);

/**
 * POST {scope}/commerce/payment_sources — Billing → "Add payment method": the `payment_token` the card
 * form's confirmed setup produced, checked by the gateway to be this payer's, kept as a payment source.
 */
export const addPaymentSourceRoutes = scopedRoutes(
  'POST',
  '/commerce/payment_sources',
  { body: formInput({ gateway: 'enum', payment_token: 'token' }) },
  async (ctx) => {
    const caller = await billingCaller(ctx, 'manage');
    const gateway = gatewayOf(ctx);
    const paymentToken = field(ctx.body, 'payment_token');
    if (!paymentToken) throw errors.paramMissing('payment_token');
    if (!validPaymentToken(paymentToken))
      throw errors.paramValueInvalid('payment_token', 'payment_token is not valid.');
    const key = `add:${payerKey(caller)}:${paymentToken}`;
    const done = ctx.prepared.billing;
    if (done?.key === key) {
      const added = done.result as PaymentSourceRow;
      // Whether it became the default is read again now, with the rest of the list.
      const { data } = await listPaymentSources(ctx.tx, caller.ref, { limit: 500, offset: 0 });
      const listed = data.find((s) => s.id === added.id);
      return {
        response: paymentSourceJSON(added, {
          isDefault: listed?.isDefault ?? false,
          isRemovable: listed?.isRemovable ?? true,
        }),
      };
    }
    const { deps, now } = ctx;
    const ref = caller.ref;
    const limits = billingLimits(caller, 'add_source');
    throw new WorkOutsideTransaction(async () => {
      await countGatewayCall(deps, limits, now);
      return { billing: { key, result: await addPaymentSource(deps, ref, { gateway, paymentToken }, now) } };
    });
  },
);

/** GET {scope}/commerce/payment_sources — the saved methods (checkout, PricingTable, Billing → methods). */
export const listPaymentSourcesRoutes = scopedRoutes(
  'GET',
  '/commerce/payment_sources',
  { query: formInput({ limit: 'page', offset: 'page' }) },
  async (ctx) => {
    const caller = await billingCaller(ctx, 'read');
    const page = billingPage(ctx);
    const { data, totalCount } = await listPaymentSources(ctx.tx, caller.ref, page);
    return {
      response: pageJSON(
        data.map((s) => paymentSourceJSON(s, { isDefault: s.isDefault, isRemovable: s.isRemovable })),
        totalCount,
      ),
    };
  },
);

/**
 * DELETE {scope}/commerce/payment_sources/:id — "Remove". The domain refuses the method an active paid
 * item renews with (clerk-js shows such a method without "Remove": `is_removable: false`).
 */
export const removePaymentSourceRoutes = scopedRoutes(
  'DELETE',
  '/commerce/payment_sources/:id',
  { body: formInput() },
  async (ctx) => {
    const caller = await billingCaller(ctx, 'manage');
    const id = billingId(ctx.params.id, 'payment source');
    await checkBillingLimits(ctx, billingLimits(caller, 'change_source'));
    await removePaymentSource(ctx.tx, caller.ref, id, ctx.now);
    return { response: deletedJSON('commerce_payment_source', id) };
  },
);

/** PUT {scope}/commerce/payers/default_payment_source — "Make default" (`payment_source_id`). */
export const defaultPaymentSourceRoutes = scopedRoutes(
  'PUT',
  '/commerce/payers/default_payment_source',
  { body: formInput({ payment_source_id: 'id' }) },
  async (ctx) => {
    const caller = await billingCaller(ctx, 'manage');
    const given = field(ctx.body, 'payment_source_id');
    if (!given) throw errors.paramMissing('payment_source_id');
    const id = billingId(given, 'payment source');
    await checkBillingLimits(ctx, billingLimits(caller, 'change_source'));
    await setDefaultPaymentSource(ctx.tx, caller.ref, id, ctx.now);
    // clerk-js ignores the body; the payer's methods as they are now.
    const { data, totalCount } = await listPaymentSources(ctx.tx, caller.ref, { limit: 10, offset: 0 });
    return {
      response: pageJSON(
        data.map((s) => paymentSourceJSON(s, { isDefault: s.isDefault, isRemovable: s.isRemovable })),
        totalCount,
      ),
    };
  },
);
