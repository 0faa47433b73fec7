import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  advanceBillingClock,
  drawer,
  enableBilling,
  fillCard,
  GOOD_CARD,
  openPricing,
  payWithNewCard,
  planCard,
  planClaimBecomes,
  planClaims,
  SECOND_GOOD_CARD,
  sessionHasPlan,
  signedIn,
  team,
} from '../support/billing.ts';
import { useSuite } from '../support/suite.ts';
import { UI_WAIT_MS } from '../support/timeouts.ts';

/**
 * Plan changes through the unmodified Clerk UI (clerk-js 5.90.0) on the offline gateway, one organisation
 * and its admin throughout: subscribed to Starter with a new card, upgraded to Pro with the saved card (a
 * prorated credit, at once: the session token's `pla` follows), downgraded back to Starter, resubscribed to
 * Pro (the scheduled Starter dropped) and downgraded again (at the period's end: the test advances the
 * renewal schedule's clock), the plan-details and subscription-details drawers,
 * and the Billing pages of <OrganizationProfile/> (statements, payments, payment methods) and
 * <UserProfile/> (the admin's own plan).
 */

const PRO_FEATURES = [
  'reports',
  'exports',
  'audit_log',
  'sso',
  'api',
  'webhooks',
  'priority_support',
  'custom_roles',
  'data_residency',
] as const;
const featureName = (slug: string) => `Feature ${slug.replace(/_/g, ' ')}`;

const BILLING = {
  enabled: true,
  currency: 'usd',
  gateway: { kind: 'offline' },
  features: Object.fromEntries(PRO_FEATURES.map((slug) => [slug, { name: featureName(slug) }])),
  plans: {
    free_org: { name: 'Free', payerType: 'org', monthlyFee: 0, isDefault: true },
    starter: { name: 'Starter', payerType: 'org', monthlyFee: 1500, features: ['reports', 'exports'] },
    // More than eight features: the card shows eight and "See all features" opens the plan-details drawer.
    pro: { name: 'Pro', payerType: 'org', monthlyFee: 2900, features: [...PRO_FEATURES] },
    free_user: { name: 'Personal Free', payerType: 'user', monthlyFee: 0, isDefault: true },
    personal: { name: 'Personal Plus', payerType: 'user', monthlyFee: 900 },
  },
};

describe('billing: upgrades, downgrades and the Billing pages', () => {
  const suite = useSuite();
  let page: Page;
  let offOrigin: string[];

  before(async () => {
    await enableBilling(suite.server, BILLING);
    const { admin } = await team(suite.server, 'plan-changes');
    ({ page, offOrigin } = await signedIn(suite, admin));
  });

  const organizationTable = () => page.getByTestId('pricing-organization');
  const billingPage = () => page.locator('.cl-organizationProfile-root');

  /** Waits for clerk-js's checkout drawer to show its totals, and answers its text. */
  async function checkoutText(): Promise<string> {
    const checkout = drawer(page).filter({ hasText: 'Total Due Today' });
    await checkout.waitFor({ timeout: UI_WAIT_MS });
    // A drawer that opened the checkout (the subscription details' Resubscribe) closes with an animation,
    // so for a moment there are two: wait for the checkout to be the only one, as the next steps expect.
    await page.waitForFunction(() => document.querySelectorAll('.cl-drawerContent').length === 1, null, {
      timeout: UI_WAIT_MS,
    });
    return checkout.innerText();
  }

  /** The amount of a "$12.34" in `text` after `label`, in cents. */
  function amountAfter(text: string, label: string): number {
    const match = new RegExp(`${label}[^$]*\\$([0-9,]+\\.[0-9]{2})`).exec(text);
    assert.ok(match, `no amount after "${label}" in: ${text}`);
    return Math.round(Number(match[1]!.replace(/,/g, '')) * 100);
  }

  async function continueAfterCheckout(title: string) {
    await page.getByText(title).waitFor({ timeout: UI_WAIT_MS });
    await page.getByRole('button', { name: 'Continue' }).click();
    await drawer(page).waitFor({ state: 'detached', timeout: UI_WAIT_MS });
  }

  test('the admin subscribes the organisation to Starter with a new card', async () => {
    await openPricing(page, 'Starter');
    // Signed in, with user plans on the instance: the page has both tables, each under its heading.
    await page.getByRole('heading', { name: 'Plans for organisations' }).waitFor();
    await page.getByRole('heading', { name: 'Plans for you' }).waitFor();
    await planCard(page.getByTestId('pricing-user'), 'Personal Plus').waitFor({ timeout: UI_WAIT_MS });
    assert.equal(await planCard(organizationTable(), 'Personal Plus').count(), 0);

    await planCard(organizationTable(), 'Starter').getByRole('button', { name: 'Subscribe' }).click();
    const text = await checkoutText();
    assert.equal(amountAfter(text, 'Total Due Today'), 1500);
    await payWithNewCard(page, GOOD_CARD);
    await continueAfterCheckout('Payment was successful!');
    const plans = await planClaimBecomes(page, 'o:starter');
    assert.ok(!plans.includes('o:free_org'), plans.join(','));
  });

  test("upgrading to Pro with the saved card credits Starter's whole fee, paid moments ago, and changes the plan at once", async () => {
    await openPricing(page, 'Pro');
    await planCard(organizationTable(), 'Pro').getByRole('button', { name: 'Switch to this plan' }).click();
    const text = await checkoutText();
    // The unused part of Starter's period comes off Pro's fee: paid moments ago, the whole of it.
    assert.match(text, /Credit for the remainder of your current subscription\./);
    const credit = amountAfter(text, 'Credit for the remainder of your current subscription\\.');
    assert.equal(credit, 1500);
    assert.equal(amountAfter(text, 'Total Due Today'), 2900 - 1500);
    // The saved card is the form's default choice: no card form, the card ending 4242 selected.
    assert.equal(await drawer(page).getByTestId('offline-card-form').count(), 0);
    assert.match(text, /4242/);
    await drawer(page)
      .getByRole('button', { name: /^Pay \$/ })
      .click();
    await continueAfterCheckout('Payment was successful!');

    const plans = await planClaimBecomes(page, 'o:pro');
    assert.ok(!plans.includes('o:starter'), plans.join(','));
    assert.equal(await sessionHasPlan(page, 'pro'), true);
    assert.equal(await sessionHasPlan(page, 'starter'), false);
  });

  test("the plan-details drawer lists all of a plan's features", async () => {
    await openPricing(page, 'Pro');
    const card = planCard(organizationTable(), 'Pro');
    // The card shows eight of the nine features; the drawer shows them all.
    await card.getByText('See all features').click();
    const details = drawer(page);
    await details.getByText(featureName('data_residency')).waitFor({ timeout: UI_WAIT_MS });
    for (const slug of PRO_FEATURES) await details.getByText(featureName(slug)).waitFor();
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached', timeout: UI_WAIT_MS });
  });

  test('downgrading to Starter waits for the end of the period; Resubscribe calls it off; the clock moves and Starter starts', async () => {
    await openPricing(page, 'Starter');
    await planCard(organizationTable(), 'Starter')
      .getByRole('button', { name: 'Switch to this plan' })
      .click();
    const text = await checkoutText();
    assert.match(text, /until the end of the billing cycle/);
    assert.equal(amountAfter(text, 'Total Due Today'), 0);
    await drawer(page).getByRole('button', { name: 'Subscribe' }).click();
    await continueAfterCheckout('Success!');
    // Pro stays until its period ends.
    assert.ok((await planClaims(page)).includes('o:pro'));

    // The subscription-details drawer: Pro ends, Starter is upcoming and begins then.
    await page.goto(`${suite.server.origin}/organization/organization-billing`);
    // The subscription list: Pro canceled and ending, Starter upcoming and starting.
    const row = (name: RegExp) => billingPage().getByRole('row', { name });
    await row(/^Pro .*Canceled • Ends/).waitFor({ timeout: UI_WAIT_MS });
    await row(/^Starter .*Upcoming.*Starts/).waitFor();
    await row(/^Pro /).getByRole('button', { name: 'Manage subscription' }).click();
    const details = drawer(page);
    await details.getByText('Upcoming').waitFor({ timeout: UI_WAIT_MS });
    await details.getByText('Starter', { exact: true }).first().waitFor();
    await details.getByText('Pro', { exact: true }).first().waitFor();
    await details.getByText('Begins on').waitFor();
    await details.getByText('Ends on').waitFor();

    // "Resubscribe" on Pro: Pro goes on at no charge, and the scheduled Starter is dropped.
    await details
      .locator('.cl-subscriptionDetailsCard')
      .filter({ has: page.getByText('Pro', { exact: true }) })
      .getByRole('button', { name: 'Open menu' })
      .click();
    await page.getByRole('menuitem', { name: 'Resubscribe' }).click();
    const resume = await checkoutText();
    assert.equal(amountAfter(resume, 'Total Due Today'), 0);
    await drawer(page).getByRole('button', { name: 'Subscribe' }).click();
    await continueAfterCheckout('Success!');
    await page.goto(`${suite.server.origin}/organization/organization-billing`);
    await row(/^Pro .*Renews/).waitFor({ timeout: UI_WAIT_MS });
    assert.equal(await row(/^Starter /).count(), 0);

    // Downgraded again, for good this time.
    await openPricing(page, 'Starter');
    await planCard(organizationTable(), 'Starter')
      .getByRole('button', { name: 'Switch to this plan' })
      .click();
    await checkoutText();
    await drawer(page).getByRole('button', { name: 'Subscribe' }).click();
    await continueAfterCheckout('Success!');
    await page.goto(`${suite.server.origin}/organization/organization-billing`);
    await row(/^Starter .*Upcoming.*Starts/).waitFor({ timeout: UI_WAIT_MS });

    // Past Pro's period end, the schedule ends Pro and starts Starter (charging the saved card).
    assert.ok((await advanceBillingClock(suite.server, 40)) > 0);
    const plans = await planClaimBecomes(page, 'o:starter');
    assert.ok(!plans.includes('o:pro'), plans.join(','));
    await page.reload();
    await billingPage().getByText('Starter', { exact: true }).first().waitFor({ timeout: UI_WAIT_MS });
    assert.equal(await billingPage().getByText('Pro', { exact: true }).count(), 0);
  });

  test('<OrganizationProfile/> Billing: a statement, a payment, and payment methods added, made default, removed', async () => {
    await page.goto(`${suite.server.origin}/organization/organization-billing`);
    const profile = billingPage();

    // Statements: one opens with what was paid for.
    await profile.getByRole('tab', { name: 'Statements' }).click();
    await profile.locator('tbody tr').first().click();
    await profile.getByText('Total paid').waitFor({ timeout: UI_WAIT_MS });
    await profile.getByText('Starter', { exact: true }).first().waitFor({ timeout: UI_WAIT_MS });

    // Payments: one opens with its amounts.
    await page.goto(`${suite.server.origin}/organization/organization-billing`);
    await profile.getByRole('tab', { name: 'Payments' }).click();
    const rows = profile.locator('tbody tr');
    // The tab's table replaces the Subscriptions tab's (one row) once the payments have loaded: wait for a
    // third row rather than the first, which the old table may still show (seen under load).
    await rows.nth(2).waitFor({ timeout: UI_WAIT_MS });
    assert.equal(await rows.count(), 3, 'Starter, the upgrade to Pro, and Starter again');
    await rows.first().click();
    await profile.getByText('Total due').waitFor({ timeout: UI_WAIT_MS });
    await profile.getByText('Subtotal').waitFor();

    // Payment methods: a second card through the stand-in.
    await page.goto(`${suite.server.origin}/organization/organization-billing`);
    const methods = () => profile.locator('.cl-profileSectionItem__paymentSources');
    const method = (last4: string) => methods().filter({ hasText: last4 });
    await method('4242').waitFor({ timeout: UI_WAIT_MS });
    await profile.getByRole('button', { name: 'Add new payment method' }).click();
    await fillCard(profile, SECOND_GOOD_CARD);
    await profile.getByRole('button', { name: 'Add Payment Method' }).click();
    await method('4444').waitFor({ timeout: UI_WAIT_MS });

    // Made the default.
    await method('4444').getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('menuitem', { name: 'Make default' }).click();
    await method('4444').getByText('Default').waitFor({ timeout: UI_WAIT_MS });
    assert.equal(await method('4242').getByText('Default').count(), 0);

    // The first card pays for the active Starter: it cannot be removed (is_removable: false).
    await method('4242').getByRole('button', { name: 'Open menu' }).click();
    const removeFirst = page.getByRole('menuitem', { name: 'Remove' });
    await removeFirst.waitFor();
    assert.equal(await removeFirst.isDisabled(), true);
    await page.keyboard.press('Escape');

    // The other one can: removed, the first is the default again.
    await method('4444').getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('menuitem', { name: 'Remove' }).click();
    await profile.getByRole('button', { name: 'Remove' }).click();
    await method('4444').waitFor({ state: 'detached', timeout: UI_WAIT_MS });
    await method('4242').getByText('Default').waitFor({ timeout: UI_WAIT_MS });
    assert.equal(await methods().count(), 1);
  });

  test("<UserProfile/> Billing shows the user's own plan, bought from the pricing page", async () => {
    await openPricing(page, 'Personal Plus');
    const mine = page.getByTestId('pricing-user');
    await planCard(mine, 'Personal Plus').getByRole('button', { name: 'Subscribe' }).click();
    // The organisation's card is the organisation's: the user has none of their own yet.
    await payWithNewCard(page, GOOD_CARD);
    await continueAfterCheckout('Payment was successful!');
    const plans = await planClaimBecomes(page, 'u:personal');
    assert.ok(plans.includes('o:starter'), plans.join(','));

    await page.locator('.cl-userButtonTrigger').click();
    await page.getByRole('menuitem', { name: 'Manage account' }).click();
    const profile = page.locator('.cl-userProfile-root');
    await profile.getByRole('button', { name: 'Billing' }).click();
    await profile.getByText('Personal Plus', { exact: true }).first().waitFor({ timeout: UI_WAIT_MS });
    await profile.getByText(/4242/).first().waitFor({ timeout: UI_WAIT_MS });
    assert.equal(await profile.getByText('Starter', { exact: true }).count(), 0);

    assert.deepEqual(offOrigin, [], 'no request left the machine');
  });
});
