import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { runDueBillingWork } from '../../identity/src/billing/renewals.ts';
import { addMember, backendClient, createOrganizationFor, createUser, type TestUser } from './backend.ts';
import { signInUntilSettled, waitForPath } from './flows.ts';
import { sessionClaims } from './organizations.ts';
import type { Suite } from './suite.ts';
import type { TestServer } from './server.ts';
import { UI_WAIT_MS } from './timeouts.ts';

/**
 * What the billing end-to-end tests share: the instance's plans set as an operator would, teams made
 * through the Backend API, the pricing page's plan cards, the offline gateway's card form (the product's
 * Stripe.js stand-in) in clerk-js's drawers, the dashboard's subscription badge, and the renewal schedule
 * run at a chosen time (the test's clock, never wall time).
 */

/** Test cards, as Stripe's: 4242… pays; 0002 is saved but its charges are declined. */
export const GOOD_CARD = '4242 4242 4242 4242';
export const SECOND_GOOD_CARD = '5555 5555 5555 4444';
export const DECLINED_CARD = '4000 0000 0000 0002';

/** Turns billing on with these plans, as the instance settings document holds them. */
export async function enableBilling(server: TestServer, billing: Record<string, unknown>) {
  const settings = server.app.identity!.settings;
  await settings.set({ ...settings.settings, billing });
}

/** An organisation with a fresh admin (and optionally a member), made through the Backend API. */
export async function team(server: TestServer, label: string, withMember = false) {
  const clerk = backendClient(server);
  const admin = await createUser(server, `${label}-admin`);
  const organization = await createOrganizationFor(clerk, admin, `${label} Org`);
  let member: TestUser | null = null;
  if (withMember) {
    member = await createUser(server, `${label}-member`);
    await addMember(clerk, organization.id, member.id, 'org:member');
  }
  return { admin, member, organizationId: organization.id };
}

/**
 * A signed-in page, settled on its first page, that records every request leaving the server's origin
 * (none may, offline).
 */
export async function signedIn(suite: Suite, user: TestUser) {
  // Through <SignIn/>, not the wire set-up (wire-session.ts): once in a fresh-clone CI run the billing
  // file's wire-signed-in page never settled on the dashboard, which reruns did not reproduce; until
  // its cause is known the billing files keep the sign-in they were stable with.
  const { page } = await suite.newPage();
  const offOrigin: string[] = [];
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(suite.server.origin) && !url.startsWith('data:') && !url.startsWith('blob:'))
      offOrigin.push(url);
  });
  await signInUntilSettled(page, suite.server.origin, user.email);
  return { page, offOrigin };
}

/** A plan's card in <PricingTable/>, by the plan's name (within `scope`: the page, or one section of it). */
export function planCard(scope: Page | Locator, name: string): Locator {
  const page = 'page' in scope ? scope.page() : scope;
  return scope
    .locator('.cl-pricingTableCard')
    .filter({ has: page.getByRole('heading', { name, exact: true }) });
}

/** /pricing from the navigation, once `planName`'s card shows. */
export async function openPricing(page: Page, planName: string) {
  await page.getByTestId('nav-pricing').click();
  await waitForPath(page, '/pricing');
  await planCard(page, planName).first().waitFor({ timeout: UI_WAIT_MS });
}

/** clerk-js's open drawer (checkout, plan details or subscription details). */
export function drawer(page: Page): Locator {
  return page.locator('.cl-drawerContent');
}

/** Types a card into the stand-in's form (in a checkout drawer or a profile's add-payment-method form). */
export async function fillCard(scope: Page | Locator, card: string) {
  const form = scope.getByTestId('offline-card-form');
  await form.waitFor({ timeout: UI_WAIT_MS });
  await form.getByLabel('Card number').fill(card);
  await form.getByLabel('Expiration date (MM/YY)').fill('12/34');
  await form.getByLabel('Security code (CVC)').fill('123');
}

/** Types a card into the checkout drawer's form and pays (or starts the trial). */
export async function payWithNewCard(page: Page, card: string) {
  await fillCard(page, card);
  await page
    .getByRole('button', { name: /^(Pay|Start)/ })
    .last()
    .click();
}

/**
 * Subscribes the active organisation to `planName` from /pricing with a new card (the good test card),
 * through clerk-js's checkout drawer, and closes the drawer once it says the payment went through.
 */
export async function subscribeWithNewCard(page: Page, planName: string) {
  await openPricing(page, planName);
  await planCard(page.getByTestId('pricing-organization'), planName)
    .getByRole('button', { name: 'Subscribe' })
    .click();
  await payWithNewCard(page, GOOD_CARD);
  await page.getByText('Payment was successful!').waitFor({ timeout: UI_WAIT_MS });
  await page.getByRole('button', { name: 'Continue' }).click();
  await drawer(page).waitFor({ state: 'detached', timeout: UI_WAIT_MS });
}

/** The dashboard's badge, reloaded until it shows `status` (the webhook and the projection are async). */
export async function badgeBecomes(
  page: Page,
  origin: string,
  status: 'YES' | 'NO' | 'TRIAL',
  timeoutMs = 30_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await page.goto(`${origin}/dashboard`);
    const badge = page.getByTestId('dashboard-organization').getByTestId('subscription-badge');
    await badge.waitFor({ timeout: UI_WAIT_MS });
    if ((await badge.getAttribute('data-status')) === status) return;
    if (Date.now() > deadline) {
      assert.fail(`the badge shows ${await badge.getAttribute('data-status')}, not ${status}`);
    }
    await page.waitForTimeout(500);
  }
}

/**
 * Runs the instance's renewal round as if `days` had passed: the schedule's own work (ends, starts,
 * charges), at a time the test chooses. Answers how many items it worked on.
 */
export async function advanceBillingClock(server: TestServer, days: number): Promise<number> {
  const identity = server.app.identity!;
  return runDueBillingWork(identity.deps, new Date(Date.now() + days * 24 * 3600 * 1000), {
    owner: 'e2e-billing',
  });
}

/** The `pla` claim of a fresh session token (`u:…`, `o:…`, comma-joined), split. */
export async function planClaims(page: Page): Promise<string[]> {
  const { pla } = await sessionClaims(page);
  return typeof pla === 'string' && pla ? pla.split(',') : [];
}

/** Waits until the session token's `pla` claim includes `plan` (clerk-js refreshes it after a checkout). */
export async function planClaimBecomes(page: Page, plan: string, timeoutMs = UI_WAIT_MS) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const plans = await planClaims(page);
    if (plans.includes(plan)) return plans;
    if (Date.now() > deadline) assert.fail(`the token's plans are ${plans.join(',')}, not ${plan}`);
    await page.waitForTimeout(300);
  }
}

/** clerk-js's has({ plan }) for the session, as a page's code would ask. */
export async function sessionHasPlan(page: Page, plan: string): Promise<boolean> {
  return page.evaluate((p) => {
    const clerk = (
      window as unknown as {
        Clerk: { session: { checkAuthorization(params: { plan: string }): boolean } | null };
      }
    ).Clerk;
    return !!clerk.session?.checkAuthorization({ plan: p });
  }, plan);
}
