import type { Queryable } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import { newId } from '../ids.ts';
import {
  countLivePaymentSources,
  insertPaymentSource,
  listPaymentSourceRows,
  markPaymentSourceRemoved,
  selectOldestPaymentSource,
  selectPayer,
  selectPaymentSource,
  selectSourcesInUse,
  selectUserContact,
  updatePayer,
} from '../store/billing-payers.ts';
import { billingErrors } from './billing-errors.ts';
import type { PayerRef, PayerRow, PaymentSourceRow } from './billing-model.ts';
import {
  type GatewayPayer,
  GatewayUnavailableError,
  type InitializedSetup,
} from './gateways/payment-gateway.ts';
import { ensurePayer, findPayer, payerKey } from './payers.ts';

/**
 * Payment methods a payer may hold at once (not removed): adding one more is refused (422) before the
 * gateway is asked, so neither a flood nor a script fills the table or the Billing page.
 */
export const MAX_LIVE_PAYMENT_SOURCES = 20;

async function refuseOverCap(tx: Queryable, payerId: string, gatewayRef: string): Promise<void> {
  const { live, has } = await countLivePaymentSources(tx, payerId, gatewayRef);
  if (!has && live >= MAX_LIVE_PAYMENT_SOURCES)
    throw billingErrors.tooManyPaymentSources(MAX_LIVE_PAYMENT_SOURCES);
}

export async function gatewayPayer(tx: Queryable, payer: PayerRow): Promise<GatewayPayer> {
  const contact = payer.userId ? await selectUserContact(tx, payer.userId) : null;
  return {
    payerId: payer.id,
    customerId: payer.gatewayCustomerId,
    email: contact?.email ?? null,
    name: contact?.name ?? null,
  };
}

/** Calls the gateway, outside any transaction; its outages are 502s in Clerk's envelope. */
export async function atGateway<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof GatewayUnavailableError) throw billingErrors.gatewayUnavailable();
    throw err;
  }
}

/** Starts adding a card (`POST …/payment_sources/initialize`). Not in a transaction: the gateway is called. */
export async function initializePaymentSource(
  deps: IdentityDeps,
  ref: PayerRef,
  now: Date,
): Promise<InitializedSetup> {
  const { payer, gp } = await deps.db.transaction(async (tx) => {
    const payer = await ensurePayer(tx, ref, now);
    return { payer, gp: await gatewayPayer(tx, payer) };
  });
  const setup = await atGateway(() => deps.billing.gateway().initializeSetup(gp));
  if (setup.customerId && setup.customerId !== payer.gatewayCustomerId) {
    await deps.db.transaction((tx) =>
      updatePayer(tx, payer.id, { gatewayCustomerId: setup.customerId! }, now),
    );
  }
  return setup;
}

/**
 * Adds the payment method a confirmed setup made (`payment_token`). The gateway checks it came from this
 * payer's own setup: another payer's token is a 422 and changes nothing. The first source becomes default.
 */
export async function addPaymentSource(
  deps: IdentityDeps,
  ref: PayerRef,
  input: { gateway: string; paymentToken: string },
  now: Date,
): Promise<PaymentSourceRow> {
  const gateway = deps.billing.gateway();
  if (input.gateway !== 'stripe' && input.gateway !== gateway.kind)
    throw billingErrors.invalidParam('gateway', 'Unknown payment gateway.');
  if (!input.paymentToken || input.paymentToken.length > 255) throw billingErrors.paymentTokenInvalid();
  // A token comes from a setup `initialize` made, which made the payer: without one the token is not
  // this payer's, and the refusal must leave nothing behind (a payer row included).
  const { payer, gp } = await deps.db.transaction(async (tx) => {
    const payer = await findPayer(tx, ref);
    if (!payer) throw billingErrors.paymentTokenInvalid();
    await refuseOverCap(tx, payer.id, input.paymentToken);
    return { payer, gp: await gatewayPayer(tx, payer) };
  });
  const method = await atGateway(() => gateway.attachPaymentMethod(gp, input.paymentToken));
  if (!method) throw billingErrors.paymentTokenInvalid();
  return deps.db.transaction(async (tx) => {
    // Again under the payer's lock: two adds at once cannot both take the last place.
    await selectPayer(tx, payerKey(ref), true);
    await refuseOverCap(tx, payer.id, method.ref);
    const source = await insertPaymentSource(tx, {
      id: newId('cps'),
      payerId: payer.id,
      gateway: gateway.kind,
      gatewayRef: method.ref,
      paymentMethod: method.paymentMethod,
      cardType: method.cardType,
      last4: method.last4,
      walletType: method.walletType,
      now,
    });
    if (!source) throw billingErrors.paymentTokenInvalid();
    const current = await findPayer(tx, ref);
    if (!current?.defaultPaymentSourceId)
      await updatePayer(tx, payer.id, { defaultPaymentSourceId: source.id }, now);
    return source;
  });
}

export type ListedPaymentSource = PaymentSourceRow & { isDefault: boolean; isRemovable: boolean };

export async function listPaymentSources(
  tx: Queryable,
  ref: PayerRef,
  paging: { limit: number; offset: number },
): Promise<{ data: ListedPaymentSource[]; totalCount: number }> {
  const payer = await findPayer(tx, ref);
  if (!payer) return { data: [], totalCount: 0 };
  const { rows, totalCount } = await listPaymentSourceRows(tx, payer.id, paging);
  const inUse = await selectSourcesInUse(tx, payer.id);
  return {
    data: rows.map((s) => ({
      ...s,
      isDefault: s.id === payer.defaultPaymentSourceId,
      isRemovable: !inUse.has(s.id),
    })),
    totalCount,
  };
}

/** Removes a source not backing a paid plan; another payer's id is 404. A removed default passes to the oldest. */
export async function removePaymentSource(
  tx: Queryable,
  ref: PayerRef,
  id: string,
  now: Date,
): Promise<PaymentSourceRow> {
  const payer = await findPayer(tx, ref);
  const source = payer ? await selectPaymentSource(tx, payer.id, id) : null;
  if (!payer || !source) throw billingErrors.notFound();
  if ((await selectSourcesInUse(tx, payer.id)).has(id)) throw billingErrors.paymentSourceInUse();
  await markPaymentSourceRemoved(tx, id, now);
  if (payer.defaultPaymentSourceId === id) {
    await updatePayer(
      tx,
      payer.id,
      { defaultPaymentSourceId: await selectOldestPaymentSource(tx, payer.id) },
      now,
    );
  }
  return { ...source, removedAt: now };
}

export async function setDefaultPaymentSource(
  tx: Queryable,
  ref: PayerRef,
  id: string,
  now = new Date(),
): Promise<PaymentSourceRow> {
  const payer = await findPayer(tx, ref);
  const source = payer ? await selectPaymentSource(tx, payer.id, id) : null;
  if (!payer || !source) throw billingErrors.notFound('payment_source_id');
  await updatePayer(tx, payer.id, { defaultPaymentSourceId: id }, now);
  return source;
}
