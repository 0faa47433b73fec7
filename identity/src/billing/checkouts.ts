import type { Queryable } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import { newId } from '../ids.ts';
import {
  abandonCheckout,
  abandonOtherCheckouts,
  finishCheckoutConfirm,
  insertCheckout,
  selectCheckout,
  selectConfirmInFlight,
  startCheckoutConfirm,
} from '../store/billing-checkouts.ts';
import { selectPayer, selectPaymentSource, selectUserContact, updatePayer } from '../store/billing-payers.ts';
import {
  countFailedCheckoutAttempts,
  ensureStatement,
  insertPaymentAttempt,
  linkAttemptItem,
  selectAttemptByKey,
} from '../store/billing-payments.ts';
import {
  insertItem,
  selectLiveItems,
  selectSubscription,
  updateItem,
  updateSubscriptionStatus,
} from '../store/billing-subscriptions.ts';
import { ClerkError } from '../errors.ts';
import { billingErrors } from './billing-errors.ts';
import type { MailLanguage } from '../mail/language.ts';
import { BILLING_DEFAULT_LANGUAGE } from './localized-text.ts';
import type {
  CheckoutRow,
  CheckoutTotals,
  PaymentAttemptRow,
  PayerRef,
  PayerRow,
  Plan,
  PlanPeriod,
  SubscriptionItemRow,
} from './billing-model.ts';
import { billingEvents } from './billing-webhook-data.ts';
import { settleCharge } from './charges.ts';
import { payerBalance, recordCredit } from './ledger.ts';
import { ensurePayer, findPayer, payerKey } from './payers.ts';
import { addPaymentSource, atGateway, gatewayPayer } from './payment-sources.ts';
import { addDays, addPeriod, isFreePlan, monthlyEquivalent, periodFee, type PlanCatalogue } from './plans.ts';
import { callOffUpcoming, ensureSubscription } from './subscriptions.ts';
import { unusedCredit } from './proration.ts';

/** How long a started checkout may be confirmed (its totals were computed for now). */
const CHECKOUT_TTL_MS = 60 * 60 * 1000;
/** A confirm started this long ago and not finished is taken to have died with its process: it is resumed. */
export const STALE_CONFIRM_MS = 30 * 1000;

type ChangeKind = 'new' | 'trial' | 'upgrade' | 'downgrade' | 'resume';

export interface PlanChange {
  kind: ChangeKind;
  plan: Plan;
  period: PlanPeriod;
  fee: number;
  totals: CheckoutTotals;
  isImmediate: boolean;
  planPeriodStart: Date | null;
  freeTrialEndsAt: Date | null;
  current: SubscriptionItemRow | null;
}

/**
 * What subscribing to `plan` billed per `period` means for this payer now (docs/billing.md):
 * from nothing or a free plan, immediate at full price (or a trial, once per payer); to a plan costing more
 * per month, immediate with the unused share of the current paid period as credit; to one costing the
 * same or less (or a free one), at the end of the current period. From a plan billed annually, another
 * paid plan is offered annually only (clerk-js's "choose to pay annually" screen); the current plan chosen
 * again resumes it if it was canceled.
 */
export function planChange(
  payer: PayerRow,
  live: SubscriptionItemRow[],
  plan: Plan,
  period: PlanPeriod,
  balance: number,
  now: Date,
  /** The language of the refusals' `meta.plan.name` (clerk-js shows it): the reader's. */
  language: MailLanguage = BILLING_DEFAULT_LANGUAGE,
): PlanChange {
  const fee = periodFee(plan, period);
  if (fee === null)
    throw billingErrors.invalidParam('plan_period', 'This plan is not offered with annual billing.');
  const current = live.find((i) => i.status === 'active' || i.status === 'past_due') ?? null;
  const upcoming = live.find((i) => i.status === 'upcoming');
  const base = {
    plan,
    period,
    fee,
    current,
    freeTrialEndsAt: null as Date | null,
    planPeriodStart: null as Date | null,
  };
  const totals = (dueNow: number, credit: number): CheckoutTotals => ({
    subtotal: fee,
    grandTotal: fee,
    taxTotal: 0,
    totalDueNow: dueNow,
    credit,
    pastDue: 0,
  });
  const sameAsCurrent = current && current.planSlug === plan.slug && current.planPeriod === period;
  // "Resubscribe": the canceled plan goes on, and whatever was scheduled after it (a downgrade, the free
  // plan) is dropped when the change is made.
  if (sameAsCurrent && current.canceledAt) {
    return { ...base, kind: 'resume', totals: totals(0, 0), isImmediate: true };
  }
  if (sameAsCurrent || (upcoming && upcoming.planSlug === plan.slug && upcoming.planPeriod === period)) {
    const upgradePossible = period === 'month' && plan.annualMonthlyFee !== null;
    throw billingErrors.invalidPlanChange(plan, period, upgradePossible, language);
  }
  const currentPaid = current !== null && current.amount > 0 && current.periodEnd !== null;
  if (!currentPaid) {
    if (plan.freeTrialDays > 0 && !payer.trialUsed && fee > 0) {
      const ends = addDays(now, plan.freeTrialDays);
      return { ...base, kind: 'trial', totals: totals(0, 0), isImmediate: true, freeTrialEndsAt: ends };
    }
    return { ...base, kind: 'new', totals: totals(fee - Math.min(balance, fee), 0), isImmediate: true };
  }
  const annualToMonthly = current.planPeriod === 'annual' && period === 'month' && !isFreePlan(plan);
  if (annualToMonthly && current.planSlug !== plan.slug) {
    // As Clerk: a year paid for is not traded for another plan's month; the plan can be chosen annually.
    throw billingErrors.annualPlanToMonthly(plan, plan.annualMonthlyFee !== null, language);
  }
  if (
    !annualToMonthly &&
    !isFreePlan(plan) &&
    monthlyEquivalent(plan, period) > monthlyEquivalent(current.plan, current.planPeriod)
  ) {
    // Nothing was paid for a trial or an unpaid (past due) period: no credit for it.
    const credit = current.isFreeTrial || current.status === 'past_due' ? 0 : unusedCredit(current, now);
    const applied = Math.min(fee, credit + balance);
    return { ...base, kind: 'upgrade', totals: totals(fee - applied, credit), isImmediate: true };
  }
  // Cheaper, free, or the same plan billed monthly after its paid year: from the end of the period.
  return {
    ...base,
    kind: 'downgrade',
    totals: totals(0, 0),
    isImmediate: false,
    planPeriodStart: current.periodEnd,
  };
}

function planFor(catalogue: PlanCatalogue, ref: PayerRef, planId: string, live: SubscriptionItemRow[]): Plan {
  const plan = catalogue.byId(planId);
  // A hidden plan is offered only to those already on it; it is not found for anyone else.
  if (!plan || (!plan.publiclyVisible && !live.some((i) => i.planSlug === plan.slug)))
    throw billingErrors.notFound('plan_id');
  if (plan.payerType !== ref.type) {
    throw billingErrors.invalidParam(
      'plan_id',
      ref.type === 'user'
        ? 'This plan is for organizations: switch to an organization to subscribe to it.'
        : 'This plan is for users: it cannot be subscribed to by an organization.',
    );
  }
  return plan;
}

/** `POST {scope}/commerce/checkouts`: the plan change priced for now, to confirm. */
export async function startCheckout(
  tx: Queryable,
  input: { ref: PayerRef; userId: string; planId: string; planPeriod: PlanPeriod; language?: MailLanguage },
  catalogue: PlanCatalogue,
  now: Date,
): Promise<CheckoutRow> {
  const contact = await selectUserContact(tx, input.userId);
  if (!contact?.email) throw billingErrors.missingPayerEmail();
  const payer = await ensurePayer(tx, input.ref, now);
  const subscription = await ensureSubscription(tx, payer, catalogue.defaultFor(input.ref.type), now);
  const live = await selectLiveItems(tx, subscription.id);
  const plan = planFor(catalogue, input.ref, input.planId, live);
  const balance = await payerBalance(tx, payer.id);
  const change = planChange(payer, live, plan, input.planPeriod, balance, now, input.language);
  return insertCheckout(tx, {
    id: newId('cco'),
    payerId: payer.id,
    userId: input.userId,
    planSlug: plan.slug,
    planPeriod: input.planPeriod,
    totals: change.totals,
    isImmediatePlanChange: change.isImmediate,
    planPeriodStart: change.planPeriodStart,
    freeTrialEndsAt: change.freeTrialEndsAt,
    now,
    expiresAt: new Date(now.getTime() + CHECKOUT_TTL_MS),
  });
}

export async function getCheckout(
  tx: Queryable,
  ref: PayerRef,
  checkoutId: string,
): Promise<CheckoutRow | null> {
  const payer = await findPayer(tx, ref);
  return payer ? selectCheckout(tx, payer.id, checkoutId) : null;
}

export type ConfirmPayment =
  | { paymentSourceId: string }
  | { gateway: 'stripe'; paymentToken: string }
  | { gateway: 'stripe'; useTestCard: true };

/** The offline gateway's test card (Stripe's 4242…): it always pays. */
const TEST_CARD = { number: '4242424242424242', expMonth: 12, expYear: 2099 };

/** The payment source a confirm pays with: saved, added from a token, or the test card (development). */
async function sourceForConfirm(
  deps: IdentityDeps,
  ref: PayerRef,
  payment: ConfirmPayment,
  now: Date,
): Promise<string | null> {
  if ('paymentSourceId' in payment) return payment.paymentSourceId || null;
  if ('paymentToken' in payment)
    return (
      await addPaymentSource(deps, ref, { gateway: payment.gateway, paymentToken: payment.paymentToken }, now)
    ).id;
  const gateway = deps.billing.gateway();
  if (gateway.kind !== 'offline' || deps.config.mode !== 'development' || !('confirmSetup' in gateway)) {
    throw billingErrors.testCardUnavailable();
  }
  const offline = gateway as import('./gateways/offline-gateway.ts').OfflineGateway;
  const payer = await deps.db.transaction((tx) => ensurePayer(tx, ref, now));
  const gp = await deps.db.transaction((tx) => gatewayPayer(tx, payer));
  const setup = await offline.initializeSetup(gp);
  const confirmed = await offline.confirmSetup(setup.clientSecret, TEST_CARD);
  return (
    await addPaymentSource(deps, ref, { gateway: 'stripe', paymentToken: confirmed!.paymentMethod }, now)
  ).id;
}

/** One key per try: a resumed try finds the same (its declined predecessors are counted the same). */
const attemptKey = async (tx: Queryable, checkout: CheckoutRow) =>
  `checkout:${checkout.id}:${checkout.confirmStartedAt!.getTime()}:${await countFailedCheckoutAttempts(tx, checkout.id)}`;

const confirmRunning = (checkout: CheckoutRow, now: Date) =>
  checkout.confirmStartedAt !== null &&
  now.getTime() - checkout.confirmStartedAt.getTime() < STALE_CONFIRM_MS;

const time = (d: Date | null) => d?.getTime() ?? null;

/** Whether the change priced again is exactly the one the checkout showed (the same kind, dates and money). */
const asShown = (checkout: CheckoutRow, change: PlanChange) =>
  checkout.isImmediatePlanChange === change.isImmediate &&
  time(checkout.planPeriodStart) === time(change.planPeriodStart) &&
  time(checkout.freeTrialEndsAt) === time(change.freeTrialEndsAt) &&
  checkout.totals.totalDueNow === change.totals.totalDueNow &&
  checkout.totals.credit === change.totals.credit;

/**
 * Another checkout of the payer whose confirm was left by a process that died (or a gateway that never
 * answered) is finished first, with its own key, so that what it may have charged is settled before
 * anything else is decided. Its decline, or its being outgrown, is its own answer: not this confirm's.
 */
async function finishLeftConfirm(deps: IdentityDeps, ref: PayerRef, left: CheckoutRow, now: Date) {
  const payment = { paymentSourceId: left.paymentSourceId ?? '' };
  await confirmCheckout(deps, { ref, userId: left.userId, checkoutId: left.id, payment }, now).catch(
    (err: unknown) => {
      if (!(err instanceof ClerkError) || (err.status !== 402 && err.code !== 'checkout_not_confirmable'))
        throw err;
    },
  );
}

/**
 * `PATCH {scope}/commerce/checkouts/{id}/confirm`. Charges at most once: the confirm is taken under the
 * payer's and the checkout's row locks (confirm_started_at) with its pending payment attempt and idempotency
 * key, committed; the gateway is called outside any transaction; a second transaction records the outcome
 * and makes the change. Confirms of one payer are serialised: while one is taken and unfinished, a confirm
 * of it or of another of the payer's checkouts is 409 checkout_already_in_progress (clerk-js retries); after
 * completion, the completed checkout again (and the payer's other checkouts are abandoned); a confirm left
 * by a dead process is resumed with the same key, by its own retry or before another checkout's confirm.
 * The change is priced again when the confirm is taken, against the subscription as it stands, as of the
 * moment the checkout was priced: one that no longer prices as it showed is refused,
 * checkout_not_confirmable, and charges nothing.
 */
export async function confirmCheckout(
  deps: IdentityDeps,
  input: { ref: PayerRef; userId: string; checkoutId: string; payment: ConfirmPayment },
  now: Date,
): Promise<CheckoutRow> {
  const { ref, checkoutId } = input;
  // A look first: nothing is added for a checkout that cannot be confirmed.
  const seen = await deps.db.transaction(async (tx) => {
    const payer = await findPayer(tx, ref);
    const checkout = payer ? await selectCheckout(tx, payer.id, checkoutId) : null;
    return checkout && { checkout, left: await selectConfirmInFlight(tx, checkout.payerId, checkout.id) };
  });
  if (!seen) throw billingErrors.notFound();
  const { checkout: looked, left } = seen;
  if (looked.status === 'completed') return looked;
  // A confirm once taken may be resumed after the checkout's hour: the payer agreed within it.
  if (looked.status !== 'needs_confirmation' || (!looked.confirmStartedAt && looked.expiresAt < now))
    throw billingErrors.checkoutNotConfirmable();
  if (confirmRunning(looked, now)) throw billingErrors.checkoutInProgress();
  const resuming = looked.confirmStartedAt !== null;
  if (!resuming && left) {
    if (confirmRunning(left, now)) throw billingErrors.checkoutInProgress();
    await finishLeftConfirm(deps, ref, left, now);
  }
  const sourceId = resuming ? looked.paymentSourceId : await sourceForConfirm(deps, ref, input.payment, now);

  // 1. Take the confirm, under the payer's lock: one confirm of the payer at a time.
  type Taken =
    | { outgrown: true }
    | {
        outgrown?: false;
        done: CheckoutRow | null;
        checkout: CheckoutRow;
        payer: PayerRow;
        attempt: PaymentAttemptRow | null;
      };
  const taken = await deps.db.transaction(async (tx): Promise<Taken> => {
    const payer = (await selectPayer(tx, payerKey(ref), true))!;
    const checkout = await selectCheckout(tx, payer.id, checkoutId, true);
    if (!checkout) throw billingErrors.notFound();
    if (checkout.status === 'completed') return { done: checkout, checkout, payer, attempt: null };
    if (checkout.status !== 'needs_confirmation') throw billingErrors.checkoutNotConfirmable();
    if (checkout.confirmStartedAt) {
      if (confirmRunning(checkout, now)) throw billingErrors.checkoutInProgress();
      // Resumed: the same key, so the gateway answers the first charge's outcome.
      const attempt = await selectAttemptByKey(tx, await attemptKey(tx, checkout));
      return { done: null, checkout, payer, attempt };
    }
    if (checkout.expiresAt < now) throw billingErrors.checkoutNotConfirmable();
    if (await selectConfirmInFlight(tx, payer.id, checkout.id)) throw billingErrors.checkoutInProgress();
    const subscription = (await selectSubscription(tx, payer.id, true))!;
    const live = await selectLiveItems(tx, subscription.id);
    const plan = live.find((i) => i.planSlug === checkout.planSlug)?.plan;
    const catalogue = deps.billing.catalogue();
    const wanted = catalogue?.bySlug(checkout.planSlug) ?? plan;
    // Priced again as of when it was priced (the credit it showed holds for the checkout's hour): anything
    // else that differs is the subscription having changed since (another checkout, a cancellation, a
    // period's end), and the payer agreed to something that is no longer on offer.
    let change: PlanChange | null = null;
    if (wanted) {
      const balance = await payerBalance(tx, payer.id);
      try {
        change = planChange(payer, live, wanted, checkout.planPeriod, balance, checkout.createdAt);
      } catch (err) {
        if (!(err instanceof ClerkError)) throw err;
      }
    }
    if (!change || !asShown(checkout, change)) {
      await abandonCheckout(tx, checkout.id, now);
      return { outgrown: true };
    }
    const source = sourceId ? await selectPaymentSource(tx, payer.id, sourceId) : null;
    if (sourceId && !source) throw billingErrors.notFound('payment_source_id');
    if (!source && (change.totals.totalDueNow > 0 || (change.fee > 0 && change.kind !== 'resume'))) {
      throw billingErrors.paymentSourceRequired();
    }
    const started = await startCheckoutConfirm(tx, checkout.id, source?.id ?? null, change.totals, now);
    let attempt: PaymentAttemptRow | null = null;
    if (change.totals.totalDueNow > 0) {
      const statement = await ensureStatement(tx, { id: newId('cstmt'), payerId: payer.id, now });
      attempt = await insertPaymentAttempt(tx, {
        id: newId('cpay'),
        payerId: payer.id,
        statementId: statement.id,
        subscriptionItemId: null,
        paymentSourceId: source!.id,
        chargeType: 'checkout',
        amount: change.totals.totalDueNow,
        currency: wanted!.currency,
        idempotencyKey: await attemptKey(tx, started),
        now,
      });
      await billingEvents.attempt(tx, 'paymentAttempt.created', attempt, [], now);
    }
    return { done: null, checkout: started, payer, attempt };
  });
  if (taken.outgrown) throw billingErrors.checkoutNotConfirmable();
  if (taken.done) return taken.done;

  // 2. Charge, outside any transaction.
  let outcome = null;
  if (taken.attempt && taken.attempt.status === 'pending') {
    const attempt = taken.attempt;
    const { source, gp } = await deps.db.transaction(async (tx) => ({
      source: (await selectPaymentSource(tx, taken.payer.id, attempt.paymentSourceId!)) ?? null,
      gp: await gatewayPayer(tx, taken.payer),
    }));
    outcome = await atGateway(() =>
      deps.billing.gateway().charge({
        payer: gp,
        paymentMethodRef: source?.gatewayRef ?? '',
        amount: attempt.amount,
        currency: attempt.currency,
        idempotencyKey: attempt.idempotencyKey,
        description: `Subscription to ${taken.checkout.planSlug}`,
      }),
    );
  }

  // 3. Record the outcome and make the change.
  type Result = { checkout: CheckoutRow } | { declined: string } | { pending: true };
  const result = await deps.db.transaction(async (tx): Promise<Result> => {
    const payer = (await selectPayer(tx, payerKey(ref), true))!;
    const checkout = (await selectCheckout(tx, payer.id, checkoutId, true))!;
    if (checkout.status === 'completed') return { checkout };
    let attempt = taken.attempt ? await selectAttemptByKey(tx, taken.attempt.idempotencyKey, true) : null;
    if (attempt && outcome) attempt = await settleCharge(tx, attempt, outcome, null, now);
    if (attempt?.status === 'failed') {
      await finishCheckoutConfirm(tx, checkout.id, { completed: false }, now);
      return { declined: attempt.failureCode ?? 'card_declined' };
    }
    if (attempt?.status === 'pending') return { pending: true };
    const item = await applyPlanChange(tx, deps, payer, checkout, attempt?.id ?? null, now);
    const done = await finishCheckoutConfirm(
      tx,
      checkout.id,
      { completed: true, subscriptionItemId: item?.id ?? null },
      now,
    );
    await abandonOtherCheckouts(tx, payer.id, checkout.id, now);
    if (checkout.paymentSourceId && !payer.defaultPaymentSourceId) {
      await updatePayer(tx, payer.id, { defaultPaymentSourceId: checkout.paymentSourceId }, now);
    }
    return { checkout: done };
  });
  if ('declined' in result) throw billingErrors.paymentDeclined(result.declined);
  if ('pending' in result) throw billingErrors.checkoutInProgress();
  return result.checkout;
}

/** Makes the change a confirmed (and, when due, paid) checkout bought. */
async function applyPlanChange(
  tx: Queryable,
  deps: IdentityDeps,
  payer: PayerRow,
  checkout: CheckoutRow,
  attemptId: string | null,
  now: Date,
): Promise<SubscriptionItemRow | null> {
  const subscription = (await selectSubscription(tx, payer.id, true))!;
  const live = await selectLiveItems(tx, subscription.id);
  const catalogue = deps.billing.catalogue();
  const plan =
    catalogue?.bySlug(checkout.planSlug) ?? live.find((i) => i.planSlug === checkout.planSlug)!.plan;
  const fee = periodFee(plan, checkout.planPeriod) ?? 0;
  const current = live.find((i) => i.status === 'active' || i.status === 'past_due') ?? null;
  const totals = checkout.totals;
  const kind: ChangeKind = checkout.freeTrialEndsAt
    ? 'trial'
    : !checkout.isImmediatePlanChange
      ? 'downgrade'
      : current && current.planSlug === plan.slug && current.planPeriod === checkout.planPeriod
        ? 'resume'
        : totals.credit > 0 || (current && current.amount > 0 && current.periodEnd)
          ? 'upgrade'
          : 'new';
  const move = { payerId: payer.id, currency: plan.currency, now };
  const newItem = (status: 'active' | 'upcoming', start: Date, end: Date | null, trial: boolean) =>
    insertItem(tx, {
      id: newId('csubi'),
      subscriptionId: subscription.id,
      payerId: payer.id,
      plan,
      planPeriod: checkout.planPeriod,
      status,
      amount: fee,
      paymentSourceId: checkout.paymentSourceId,
      isFreeTrial: trial,
      periodStart: start,
      periodEnd: end,
      nextActionAt: status === 'upcoming' ? start : end,
      now,
    });
  if (kind === 'resume') {
    // What was to follow the canceled plan (a downgrade, the free plan) is called off.
    for (const u of live.filter((i) => i.status === 'upcoming')) await callOffUpcoming(tx, u, now);
    const resumed = await updateItem(
      tx,
      current!.id,
      { canceledAt: null, nextActionAt: current!.periodEnd },
      now,
    );
    await billingEvents.item(tx, ['subscriptionItem.updated'], resumed, now);
    return resumed;
  }
  if (kind === 'downgrade') {
    for (const u of live.filter((i) => i.status === 'upcoming')) {
      await updateItem(tx, u.id, { status: 'abandoned', endedAt: now, nextActionAt: null }, now);
    }
    const start = current!.periodEnd!;
    const canceled = await updateItem(tx, current!.id, { canceledAt: current!.canceledAt ?? now }, now);
    await billingEvents.item(tx, ['subscriptionItem.updated'], canceled, now);
    const item = await newItem(
      'upcoming',
      start,
      fee > 0 ? addPeriod(start, checkout.planPeriod) : null,
      false,
    );
    await billingEvents.item(tx, ['subscriptionItem.created', 'subscriptionItem.upcoming'], item, now);
    return item;
  }
  // Immediate: the current plan (and any scheduled change) ends now.
  for (const old of live) {
    if (old.status === 'upcoming')
      await updateItem(tx, old.id, { status: 'abandoned', endedAt: now, nextActionAt: null }, now);
    else {
      const ended = await updateItem(tx, old.id, { status: 'ended', endedAt: now, nextActionAt: null }, now);
      await billingEvents.item(tx, ['subscriptionItem.ended'], ended, now);
    }
  }
  const trial = kind === 'trial';
  const end = trial ? checkout.freeTrialEndsAt! : fee > 0 ? addPeriod(now, checkout.planPeriod) : null;
  const item = await newItem('active', now, end, trial);
  if (trial) await updatePayer(tx, payer.id, { trialUsed: true }, now);
  const applied = totals.subtotal - totals.totalDueNow;
  if (!trial && (totals.credit > 0 || applied > 0)) {
    await recordCredit(
      tx,
      { ...move, subscriptionItemId: item.id },
      totals.credit,
      applied,
      `${plan.slug}: ${kind}`,
    );
  }
  if (attemptId) await linkAttemptItem(tx, attemptId, item.id);
  await billingEvents.item(tx, ['subscriptionItem.created', 'subscriptionItem.active'], item, now);
  const wasPastDue = subscription.status === 'past_due';
  await updateSubscriptionStatus(tx, subscription.id, 'active', now);
  await billingEvents.subscription(
    tx,
    wasPastDue ? ['subscription.updated', 'subscription.active'] : ['subscription.updated'],
    subscription.id,
    now,
  );
  return item;
}
