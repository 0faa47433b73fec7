import assert from 'node:assert/strict';
import type { PayerRef } from '../../src/billing/billing-model.ts';
import type { BillingSettings } from '../../src/billing/billing-settings.ts';
import type { PlanPeriod } from '../../src/billing/billing-model.ts';
import { confirmCheckout, startCheckout } from '../../src/billing/checkouts.ts';
import { addPaymentSource, initializePaymentSource } from '../../src/billing/payment-sources.ts';
import { signUp } from './flows.ts';
import { uniqueEmail, type Browser, type Harness } from './harness.ts';

/** Plans for billing tests: a default free plan, three paid ones (one with a trial) and one for organisations. */
export const BILLING: BillingSettings = {
  enabled: true,
  currency: 'usd',
  gateway: { kind: 'offline' },
  features: {
    basic: { name: 'Basic', description: '' },
    reports: { name: 'Reports', description: '' },
  },
  plans: {
    free: {
      name: 'Free',
      payerType: 'user',
      description: '',
      monthlyFee: 0,
      features: ['basic'],
      isDefault: true,
      publiclyVisible: true,
    },
    pro: {
      name: 'Pro',
      payerType: 'user',
      description: '',
      monthlyFee: 1000,
      annualMonthlyFee: 800,
      features: ['basic', 'reports'],
      isDefault: false,
      publiclyVisible: true,
    },
    max: {
      name: 'Max',
      payerType: 'user',
      description: '',
      monthlyFee: 3000,
      features: ['basic', 'reports'],
      isDefault: false,
      publiclyVisible: true,
    },
    trial: {
      name: 'Trial',
      payerType: 'user',
      description: '',
      monthlyFee: 2000,
      freeTrialDays: 14,
      features: [],
      isDefault: false,
      publiclyVisible: true,
    },
    hidden: {
      name: 'Hidden',
      payerType: 'user',
      description: '',
      monthlyFee: 500,
      features: [],
      isDefault: false,
      publiclyVisible: false,
    },
    team: {
      name: 'Team',
      payerType: 'org',
      description: '',
      monthlyFee: 5000,
      features: [],
      isDefault: false,
      publiclyVisible: true,
    },
  },
};

export async function enableBilling(h: Harness, billing: BillingSettings = BILLING): Promise<void> {
  await h.identity.settings.set({ ...h.identity.settings.settings, billing });
}

export interface Payer {
  userId: string;
  ref: PayerRef;
  browser: Browser;
}

export async function newPayer(h: Harness, prefix = 'payer'): Promise<Payer> {
  const browser = h.browser();
  const { userId } = await signUp(h, browser, uniqueEmail(prefix));
  return { userId, ref: { type: 'user', userId }, browser };
}

/** The whole offline card flow: a setup intent, its confirmation by the card form, the source added. */
export async function addCard(h: Harness, payer: Payer, number = '4242424242424242') {
  const deps = h.identity.deps;
  const setup = await initializePaymentSource(deps, payer.ref, h.clock.now);
  const pm = await confirmCard(payer.browser, setup.clientSecret, number);
  return addPaymentSource(deps, payer.ref, { gateway: 'stripe', paymentToken: pm }, h.clock.now);
}

export async function confirmCard(browser: Browser, clientSecret: string, number: string): Promise<string> {
  const res = await browser.post('/commerce/offline_gateway/setup_intents/confirm', {
    client_secret: clientSecret,
    card_number: number,
    exp_month: '12',
    exp_year: '2040',
    cvc: '123',
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.status, 'succeeded');
  return res.body.payment_method as string;
}

export const days = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000);

/** A checkout of the plan `slug` for the payer, priced at `now` (as `POST …/commerce/checkouts`). */
export function startCheckoutAt(h: Harness, payer: Payer, slug: string, period: PlanPeriod, now: Date) {
  const deps = h.identity.deps;
  return deps.db.transaction((tx) =>
    startCheckout(
      tx,
      { ref: payer.ref, userId: payer.userId, planId: `cplan_${slug}`, planPeriod: period },
      deps.billing.catalogue()!,
      now,
    ),
  );
}

/** Confirms the payer's checkout with a saved payment source, at `now`. */
export function confirmCheckoutAt(
  h: Harness,
  payer: Payer,
  checkoutId: string,
  paymentSourceId: string,
  now: Date,
) {
  return confirmCheckout(
    h.identity.deps,
    { ref: payer.ref, userId: payer.userId, checkoutId, payment: { paymentSourceId } },
    now,
  );
}
