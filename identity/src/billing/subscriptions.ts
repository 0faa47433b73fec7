import type { Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';
import {
  insertItem,
  insertSubscriptionIfAbsent,
  selectItem,
  selectLiveItems,
  selectSubscription,
  updateItem,
  updateSubscriptionStatus,
} from '../store/billing-subscriptions.ts';
import { selectLastDefaultSnapshot } from '../store/billing-subscriptions-history.ts';
import { billingErrors } from './billing-errors.ts';
import type { PayerRef, PayerRow, Plan, SubscriptionItemRow, SubscriptionRow } from './billing-model.ts';
import { billingEvents } from './billing-webhook-data.ts';
import { selectPayer } from '../store/billing-payers.ts';
import { ensurePayer, findPayer, payerKey } from './payers.ts';
import type { PlanCatalogue } from './plans.ts';

export interface CurrentSubscription {
  subscription: SubscriptionRow;
  items: SubscriptionItemRow[];
}

/** Slugs of the plans whose features the payer has now (active or past due: access until ended). */
export function activePlanSlugs(items: SubscriptionItemRow[]): string[] {
  return [
    ...new Set(items.filter((i) => i.status === 'active' || i.status === 'past_due').map((i) => i.planSlug)),
  ];
}

/**
 * Starts the default plan for the payer (period_end null: it does not renew), now, or upcoming from
 * `startsAt` when given (the schedule starts it then).
 */
export async function startDefaultItem(
  tx: Queryable,
  subscriptionId: string,
  payerId: string,
  plan: Plan,
  now: Date,
  startsAt?: Date,
): Promise<SubscriptionItemRow> {
  const status = startsAt ? 'upcoming' : 'active';
  const item = await insertItem(tx, {
    id: newId('csubi'),
    subscriptionId,
    payerId,
    plan,
    planPeriod: 'month',
    status,
    amount: 0,
    paymentSourceId: null,
    isFreeTrial: false,
    periodStart: startsAt ?? now,
    periodEnd: null,
    nextActionAt: startsAt ?? null,
    now,
  });
  await billingEvents.item(tx, ['subscriptionItem.created', `subscriptionItem.${status}`], item, now);
  return item;
}

/** The payer's subscription, made (with the default plan, if any) when it has none yet. */
export async function ensureSubscription(
  tx: Queryable,
  payer: PayerRow,
  defaultPlan: Plan | undefined,
  now: Date,
): Promise<SubscriptionRow> {
  const { subscription, created } = await insertSubscriptionIfAbsent(tx, {
    id: newId('csub'),
    payerId: payer.id,
    now,
  });
  if (created) {
    if (defaultPlan) await startDefaultItem(tx, subscription.id, payer.id, defaultPlan, now);
    await billingEvents.subscription(
      tx,
      ['subscription.created', 'subscription.active'],
      subscription.id,
      now,
    );
  }
  return subscription;
}

export async function currentSubscription(
  tx: Queryable,
  ref: PayerRef,
  catalogue: PlanCatalogue,
  now: Date,
): Promise<CurrentSubscription | null> {
  const defaultPlan = catalogue.defaultFor(ref.type);
  let payer = await findPayer(tx, ref);
  let subscription = payer ? await selectSubscription(tx, payer.id) : null;
  if (!subscription) {
    if (!defaultPlan) return null;
    payer ??= await ensurePayer(tx, ref, now);
    subscription = await ensureSubscription(tx, payer, defaultPlan, now);
  }
  return { subscription, items: await selectLiveItems(tx, subscription.id) };
}

/**
 * Ends an item now and, when the payer is left without a current plan, starts the default plan again
 * (from the catalogue, or as the payer last had it).
 */
export async function endItemNow(
  tx: Queryable,
  item: SubscriptionItemRow,
  now: Date,
  catalogue?: PlanCatalogue,
): Promise<SubscriptionItemRow> {
  const ended = await updateItem(tx, item.id, { status: 'ended', endedAt: now, nextActionAt: null }, now);
  await billingEvents.item(tx, ['subscriptionItem.ended'], ended, now);
  await restoreDefaultIfNone(tx, item.subscriptionId, item.payerId, item.plan.payerType, now, catalogue);
  return ended;
}

export async function restoreDefaultIfNone(
  tx: Queryable,
  subscriptionId: string,
  payerId: string,
  payerType: 'user' | 'org',
  now: Date,
  catalogue?: PlanCatalogue,
): Promise<void> {
  const live = await selectLiveItems(tx, subscriptionId);
  // An upcoming item takes over at its start (the schedule activates it).
  if (live.length > 0) return;
  const plan = catalogue ? catalogue.defaultFor(payerType) : await selectLastDefaultSnapshot(tx, payerId);
  if (plan) await startDefaultItem(tx, subscriptionId, payerId, plan, now);
  const subscription = await updateSubscriptionStatus(tx, subscriptionId, 'active', now);
  await billingEvents.subscription(tx, ['subscription.updated'], subscription.id, now);
}

/** An upcoming item that will not start (a scheduled change called off): abandoned, as canceled. */
export async function callOffUpcoming(
  tx: Queryable,
  item: SubscriptionItemRow,
  now: Date,
): Promise<SubscriptionItemRow> {
  const dropped = await updateItem(
    tx,
    item.id,
    { status: 'abandoned', endedAt: now, canceledAt: now, nextActionAt: null },
    now,
  );
  await billingEvents.item(tx, ['subscriptionItem.canceled'], dropped, now);
  return dropped;
}

/**
 * Cancels one of the payer's items: at the end of its period (it stays active until then, renews no more),
 * or at once (`endNow`). Another payer's or an unknown id: 404. The default plan is not cancelable.
 */
export async function cancelSubscriptionItem(
  tx: Queryable,
  ref: PayerRef,
  itemId: string,
  opts: { endNow: boolean },
  now: Date,
  catalogue?: PlanCatalogue,
): Promise<SubscriptionItemRow> {
  // The payer's lock first, as a checkout's confirm takes it: a cancellation and a plan change never cross.
  const payer = await selectPayer(tx, payerKey(ref), true);
  const item = payer ? await selectItem(tx, payer.id, itemId, true) : null;
  if (!item || item.status === 'ended' || item.status === 'abandoned') throw billingErrors.notFound();
  if (item.plan.isDefault || (item.amount === 0 && item.periodEnd === null))
    throw billingErrors.defaultPlanNotCancelable();
  if (item.status === 'upcoming') {
    // A scheduled change called off: the current plan renews again.
    const ended = await callOffUpcoming(tx, item, now);
    for (const other of await selectLiveItems(tx, item.subscriptionId)) {
      if (other.status === 'active' && other.canceledAt && other.periodEnd) {
        const resumed = await updateItem(tx, other.id, { canceledAt: null }, now);
        await billingEvents.item(tx, ['subscriptionItem.updated'], resumed, now);
      }
    }
    return ended;
  }
  if (opts.endNow) {
    const canceled = await updateItem(tx, item.id, { canceledAt: item.canceledAt ?? now }, now);
    await billingEvents.item(tx, ['subscriptionItem.canceled'], canceled, now);
    // A change scheduled after this one goes with it.
    for (const other of await selectLiveItems(tx, item.subscriptionId)) {
      if (other.status === 'upcoming') {
        await updateItem(tx, other.id, { status: 'abandoned', endedAt: now, nextActionAt: null }, now);
      }
    }
    return endItemNow(tx, canceled, now, catalogue);
  }
  if (item.canceledAt) return item;
  const canceled = await updateItem(tx, item.id, { canceledAt: now, nextActionAt: item.periodEnd }, now);
  await billingEvents.item(tx, ['subscriptionItem.canceled', 'subscriptionItem.updated'], canceled, now);
  await scheduleDefaultAfter(tx, canceled, now, catalogue);
  return canceled;
}

/**
 * The payer's default (free) plan, upcoming from the end of a canceled item's period, as a switch to it
 * would schedule it: the Billing pages show what follows, and the schedule starts it then.
 */
async function scheduleDefaultAfter(
  tx: Queryable,
  item: SubscriptionItemRow,
  now: Date,
  catalogue?: PlanCatalogue,
): Promise<void> {
  if (!item.periodEnd) return;
  const live = await selectLiveItems(tx, item.subscriptionId);
  if (live.some((i) => i.status === 'upcoming')) return;
  const plan = catalogue
    ? catalogue.defaultFor(item.plan.payerType)
    : await selectLastDefaultSnapshot(tx, item.payerId);
  if (!plan) return;
  await startDefaultItem(tx, item.subscriptionId, item.payerId, plan, now, item.periodEnd);
}
