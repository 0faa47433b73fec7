import type { Queryable } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import { newId } from '../ids.ts';
import { selectPayerById, selectPaymentSource } from '../store/billing-payers.ts';
import { ensureStatement, insertPaymentAttempt, selectAttemptByKey } from '../store/billing-payments.ts';
import {
  countFailedAttemptsSince,
  leaseDueItems,
  releaseLease,
  selectLeasedItem,
  selectLiveItems,
  updateItem,
  updateSubscriptionStatus,
} from '../store/billing-subscriptions.ts';
import type { PaymentAttemptRow, SubscriptionItemRow } from './billing-model.ts';
import { billingEvents } from './billing-webhook-data.ts';
import { settleCharge } from './charges.ts';
import type { ChargeOutcome } from './gateways/payment-gateway.ts';
import { payerBalance, recordCredit } from './ledger.ts';
import { atGateway, gatewayPayer } from './payment-sources.ts';
import { addDays, addPeriod } from './plans.ts';
import { endItemNow, restoreDefaultIfNone } from './subscriptions.ts';

/** After a failed renewal, the next tries (days after the previous one); ended when the last fails. */
export const RETRY_DAYS = [1, 3, 5];
/** How long a worker holds an item it leased: past it, another worker may take the item over. */
const LEASE_MS = 5 * 60 * 1000;

/**
 * The renewal schedule's one round (docs/billing.md): every item whose next action is due — a renewal, a
 * trial's first charge, an upcoming item's start, a canceled item's end, a past-due retry — leased with
 * `FOR UPDATE SKIP LOCKED` so several processes never work on one item; charges carry a key per item,
 * period and try, so a round retried after a crash charges once. Answers how many items it handled.
 */
export async function runDueBillingWork(
  deps: IdentityDeps,
  now: Date,
  opts: { owner: string; batch?: number },
): Promise<number> {
  const ids = await deps.db.transaction((tx) =>
    leaseDueItems(tx, {
      owner: opts.owner,
      now,
      leaseUntil: new Date(now.getTime() + LEASE_MS),
      batch: opts.batch ?? 50,
    }),
  );
  let done = 0;
  for (const id of ids) {
    try {
      if (await handleItem(deps, id, opts.owner, now)) done++;
    } catch (err) {
      await deps.db.transaction((tx) => releaseLease(tx, id, opts.owner)).catch(() => {});
      // The item's id only: nothing about the payer or their card.
      console.warn(
        `identity: billing work on ${id} failed, next round tries again: ${(err as Error).message}`,
      );
    }
  }
  return done;
}

type Work =
  | { kind: 'done' }
  | { kind: 'charge'; item: SubscriptionItemRow; attempt: PaymentAttemptRow; gatewayRef: string };

async function handleItem(deps: IdentityDeps, id: string, owner: string, now: Date): Promise<boolean> {
  const work = await deps.db.transaction(async (tx): Promise<Work | null> => {
    const item = await selectLeasedItem(tx, id, owner);
    if (!item) return null;
    return planWork(tx, deps, item, now);
  });
  if (!work) return false;
  if (work.kind === 'done') return true;
  let outcome: ChargeOutcome = { status: 'failed', ref: null, code: 'payment_source_missing' };
  if (work.attempt.status === 'pending' && work.attempt.amount === 0) {
    outcome = { status: 'paid', ref: `credit_${work.attempt.id}` };
  } else if (work.attempt.status === 'pending' && work.gatewayRef) {
    const payer = await deps.db.transaction(async (tx) =>
      gatewayPayer(tx, (await selectPayerById(tx, work.item.payerId))!),
    );
    outcome = await atGateway(() =>
      deps.billing.gateway().charge({
        payer,
        paymentMethodRef: work.gatewayRef,
        amount: work.attempt.amount,
        currency: work.attempt.currency,
        idempotencyKey: work.attempt.idempotencyKey,
        description: `Renewal of ${work.item.planSlug}`,
      }),
    );
  }
  await deps.db.transaction(async (tx) => {
    const item = await selectLeasedItem(tx, id, owner);
    if (!item) return;
    const attempt = (await selectAttemptByKey(tx, work.attempt.idempotencyKey, true))!;
    const settled = await settleCharge(tx, attempt, outcome, item, now);
    if (settled.status === 'paid') await renewed(tx, item, settled, now);
    else if (settled.status === 'failed') await failed(tx, item, now);
    else await releaseLease(tx, id, owner);
  });
  return true;
}

/** What is due on the item: changes made here, or a charge to make (its attempt inserted, pending). */
async function planWork(
  tx: Queryable,
  deps: IdentityDeps,
  item: SubscriptionItemRow,
  now: Date,
): Promise<Work> {
  const catalogue = deps.billing.catalogue() ?? undefined;
  const live = item.status === 'active' || item.status === 'past_due';
  if (item.status === 'upcoming' && item.amount === 0) {
    await activate(tx, item, now);
    return { kind: 'done' };
  }
  if (live && item.canceledAt && item.periodEnd && item.periodEnd <= now) {
    await endItemNow(tx, item, now, catalogue);
    return { kind: 'done' };
  }
  if (!(item.status === 'upcoming' || live) || !item.periodEnd) {
    await updateItem(tx, item.id, { nextActionAt: null }, now);
    return { kind: 'done' };
  }
  // A charge: the upcoming item's first period, a renewal, a trial's end, or a retry of a past-due one.
  const failures = item.pastDueAt ? await countFailedAttemptsSince(tx, item.id, item.pastDueAt) : 0;
  if (item.status === 'past_due' && failures > RETRY_DAYS.length) {
    await endItemNow(tx, item, now, catalogue);
    return { kind: 'done' };
  }
  const periodKey = (item.status === 'upcoming' ? item.periodStart : item.periodEnd).getTime();
  const key = `renewal:${item.id}:${periodKey}:${failures}`;
  let attempt = await selectAttemptByKey(tx, key);
  const payer = (await selectPayerById(tx, item.payerId))!;
  const preferred =
    item.status === 'past_due'
      ? [payer.defaultPaymentSourceId, item.paymentSourceId]
      : [item.paymentSourceId, payer.defaultPaymentSourceId];
  let source = null;
  for (const sid of preferred) {
    const s = sid ? await selectPaymentSource(tx, payer.id, sid) : null;
    if (s && s.status === 'active') {
      source = s;
      break;
    }
  }
  if (!attempt) {
    const balance = await payerBalance(tx, payer.id);
    const statement = await ensureStatement(tx, { id: newId('cstmt'), payerId: payer.id, now });
    attempt = await insertPaymentAttempt(tx, {
      id: newId('cpay'),
      payerId: payer.id,
      statementId: statement.id,
      subscriptionItemId: item.id,
      paymentSourceId: source?.id ?? null,
      chargeType: 'recurring',
      amount: item.amount - Math.min(balance, item.amount),
      currency: item.currency,
      idempotencyKey: key,
      now,
    });
    await billingEvents.attempt(tx, 'paymentAttempt.created', attempt, [item], now);
  }
  return { kind: 'charge', item, attempt, gatewayRef: source?.gatewayRef ?? '' };
}

/** A paid charge: the next period (or the upcoming item's first) starts; credit used is recorded. */
async function renewed(
  tx: Queryable,
  item: SubscriptionItemRow,
  attempt: PaymentAttemptRow,
  now: Date,
): Promise<void> {
  const applied = item.amount - attempt.amount;
  if (applied > 0) {
    await recordCredit(
      tx,
      { payerId: item.payerId, currency: item.currency, subscriptionItemId: item.id, now },
      0,
      applied,
      'renewal',
    );
  }
  if (item.status === 'upcoming') {
    await activate(tx, item, now, attempt.paymentSourceId);
    return;
  }
  const start = item.isFreeTrial || item.status === 'active' ? item.periodEnd! : now;
  const end = addPeriod(start, item.planPeriod);
  const wasPastDue = item.status === 'past_due';
  const updated = await updateItem(
    tx,
    item.id,
    {
      status: 'active',
      periodStart: start,
      periodEnd: end,
      isFreeTrial: false,
      pastDueAt: null,
      nextActionAt: end,
      paymentSourceId: attempt.paymentSourceId ?? undefined,
    },
    now,
  );
  await billingEvents.item(
    tx,
    wasPastDue ? ['subscriptionItem.updated', 'subscriptionItem.active'] : ['subscriptionItem.updated'],
    updated,
    now,
  );
  if (wasPastDue) {
    await updateSubscriptionStatus(tx, item.subscriptionId, 'active', now);
    await billingEvents.subscription(
      tx,
      ['subscription.updated', 'subscription.active'],
      item.subscriptionId,
      now,
    );
  }
}

/** A declined charge: past due, retried per RETRY_DAYS; the last failure ends the item. */
async function failed(tx: Queryable, item: SubscriptionItemRow, now: Date): Promise<void> {
  const pastDueAt = item.pastDueAt ?? now;
  const failures = await countFailedAttemptsSince(tx, item.id, pastDueAt);
  const retryIn = RETRY_DAYS[failures - 1];
  if (item.status === 'upcoming') {
    // Its start is due whatever the charge: the previous plan ends, this one starts past due.
    await endPrevious(tx, item, now);
  }
  const updated = await updateItem(
    tx,
    item.id,
    {
      status: 'past_due',
      pastDueAt,
      nextActionAt: retryIn === undefined ? now : addDays(now, retryIn),
    },
    now,
  );
  await billingEvents.item(tx, ['subscriptionItem.past_due'], updated, now);
  await updateSubscriptionStatus(tx, item.subscriptionId, 'past_due', now);
  await billingEvents.subscription(tx, ['subscription.past_due'], item.subscriptionId, now);
}

async function endPrevious(tx: Queryable, item: SubscriptionItemRow, now: Date): Promise<void> {
  for (const other of await selectLiveItems(tx, item.subscriptionId)) {
    if (other.id !== item.id && other.status !== 'upcoming') {
      const ended = await updateItem(
        tx,
        other.id,
        { status: 'ended', endedAt: now, nextActionAt: null },
        now,
      );
      await billingEvents.item(tx, ['subscriptionItem.ended'], ended, now);
    }
  }
}

/** An upcoming item's start: the previous plan ends and this one is active. */
async function activate(
  tx: Queryable,
  item: SubscriptionItemRow,
  now: Date,
  sourceId?: string | null,
): Promise<void> {
  await endPrevious(tx, item, now);
  const active = await updateItem(
    tx,
    item.id,
    {
      status: 'active',
      nextActionAt: item.periodEnd,
      pastDueAt: null,
      paymentSourceId: sourceId ?? undefined,
    },
    now,
  );
  await billingEvents.item(tx, ['subscriptionItem.active'], active, now);
  await updateSubscriptionStatus(tx, item.subscriptionId, 'active', now);
  await billingEvents.subscription(tx, ['subscription.updated'], item.subscriptionId, now);
  await restoreDefaultIfNone(tx, item.subscriptionId, item.payerId, item.plan.payerType, now);
}
