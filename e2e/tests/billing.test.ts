import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { backendClient, type TestUser } from '../support/backend.ts';
import {
  advanceBillingClock,
  badgeBecomes as badgeOn,
  DECLINED_CARD,
  enableBilling,
  GOOD_CARD,
  openPricing,
  payWithNewCard,
  planCard,
  signedIn as signedInOn,
  team as teamOn,
} from '../support/billing.ts';
import { waitForPath } from '../support/flows.ts';
import { useSuite } from '../support/suite.ts';
import { UI_WAIT_MS } from '../support/timeouts.ts';

/**
 * Billing through the unmodified Clerk UI (clerk-js 5.90.0) in Chromium, on the offline gateway: the
 * product's /pricing page (<PricingTable forOrganizations/>), clerk-js's checkout drawer with the page's own
 * Stripe.js stand-in (a card typed into its form, sent to the instance, never off the machine), the
 * organisation's subscription flag derived by the product server (webhook → Backend API → metadata) and
 * shown on the dashboard, and <OrganizationProfile/>'s Billing page.
 */

const BILLING = {
  enabled: true,
  currency: 'usd',
  gateway: { kind: 'offline' },
  // Pro and its feature are named in both languages (docs/languages.md); the others in one, for both.
  features: { reports: { name: { fr: 'Rapports', en: 'Reports' } } },
  plans: {
    free_org: { name: 'Free', payerType: 'org', monthlyFee: 0, isDefault: true },
    pro: {
      name: { fr: 'Professionnel', en: 'Pro' },
      payerType: 'org',
      monthlyFee: 2900,
      features: ['reports'],
    },
    scale: { name: 'Scale', payerType: 'org', monthlyFee: 4900, freeTrialDays: 14, features: ['reports'] },
    free_user: { name: 'Personal Free', payerType: 'user', monthlyFee: 0, isDefault: true },
    personal: { name: 'Personal Plus', payerType: 'user', monthlyFee: 900 },
  },
};

describe('billing', () => {
  const suite = useSuite();

  before(async () => {
    await enableBilling(suite.server, BILLING);
  });

  const team = (label: string, withMember = false) => teamOn(suite.server, label, withMember);
  const signedIn = (user: TestUser) => signedInOn(suite, user);
  const badgeBecomes = (page: Page, status: 'YES' | 'NO' | 'TRIAL', timeoutMs?: number) =>
    badgeOn(page, suite.server.origin, status, timeoutMs);

  test('a visitor sees the organisation plans, not the personal ones', async () => {
    const { page } = await suite.newPage();
    // Linked from the header for visitors too.
    await page.goto(`${suite.server.origin}/`);
    await page.getByTestId('nav-pricing').click();
    await waitForPath(page, '/pricing');
    await page.getByTestId('pricing-page').waitFor();
    await planCard(page, 'Pro').waitFor({ timeout: UI_WAIT_MS });
    await planCard(page, 'Scale').waitFor();
    assert.equal(await planCard(page, 'Personal Plus').count(), 0);
    // The app config says offline; the stand-in is window.Stripe, and no Stripe host is allowed by the CSP.
    const config = await fetch(`${suite.server.origin}/app-config.json`);
    assert.deepEqual(((await config.json()) as { billing: unknown }).billing, {
      enabled: true,
      gateway: 'offline',
    });
    assert.ok(!config.headers.get('content-security-policy')!.includes('stripe.com'));
  });

  test("plan and feature names in the interface's language: a French browser, then English chosen", async () => {
    const { page } = await suite.newPage({ language: null, locale: 'fr-FR' });
    await page.goto(`${suite.server.origin}/pricing`);
    const pro = (name: string) => planCard(page, name);
    await pro('Professionnel').waitFor({ timeout: UI_WAIT_MS });
    await pro('Professionnel').getByText('Rapports', { exact: true }).first().waitFor();
    // A name given once is the same in both languages.
    await planCard(page, 'Scale').waitFor();
    assert.equal(await pro('Pro').count(), 0);
    // The choice is the interface's language from now on; clerk-js keeps the plans it has for a minute
    // (its cache), so the English names come with the next load (docs/languages.md).
    await page.getByTestId('language-EN').click();
    await page.reload();
    await pro('Pro').waitFor({ timeout: UI_WAIT_MS });
    await pro('Pro').getByText('Reports', { exact: true }).first().waitFor();
    await planCard(page, 'Scale').waitFor();
    assert.equal(await pro('Professionnel').count(), 0);
  });

  test('an English browser and interface read the English names from the start', async () => {
    const { page } = await suite.newPage({ language: 'EN', locale: 'en-US' });
    await page.goto(`${suite.server.origin}/pricing`);
    await planCard(page, 'Pro').waitFor({ timeout: UI_WAIT_MS });
    await planCard(page, 'Pro').getByText('Reports', { exact: true }).first().waitFor();
    assert.equal(await planCard(page, 'Professionnel').count(), 0);
  });

  test('an admin subscribes the organisation to Pro with a new card; the badge turns YES; a member cannot buy', async () => {
    const { admin, member, organizationId } = await team('billing-pro', true);
    const { page, offOrigin } = await signedIn(admin);
    await badgeBecomes(page, 'NO', 1);
    await openPricing(page, 'Pro');
    await planCard(page, 'Pro').getByRole('button', { name: 'Subscribe' }).click();
    await payWithNewCard(page, GOOD_CARD);
    await page.getByText('Payment was successful!').waitFor({ timeout: UI_WAIT_MS });
    await page.getByRole('button', { name: 'Continue' }).click();

    await badgeBecomes(page, 'YES');
    const stored = await backendClient(suite.server).organizations.getOrganization({ organizationId });
    assert.equal(stored.publicMetadata?.hasActiveSubscription, 'YES');

    // <OrganizationProfile/>'s Billing page: the subscription and the saved card.
    await page.goto(`${suite.server.origin}/organization/organization-billing`);
    const profile = page.locator('.cl-organizationProfile-root');
    await profile.getByText('Pro', { exact: true }).first().waitFor({ timeout: UI_WAIT_MS });
    await profile.getByText(/4242/).first().waitFor({ timeout: UI_WAIT_MS });
    assert.deepEqual(offOrigin, [], 'no request left the machine');

    // A member of the same organisation sees the plans, but no way to buy.
    const memberPage = (await signedIn(member!)).page;
    await openPricing(memberPage, 'Pro');
    // Pro is the organisation's (no button); Scale's button is there but disabled, and says why on hover.
    const scaleButton = planCard(memberPage, 'Scale').locator('.cl-pricingTableCardFooterButton');
    await scaleButton.waitFor({ timeout: UI_WAIT_MS });
    // (The organisation's table: the member's own plans, below it, are theirs to buy.)
    const buy = memberPage.getByTestId('pricing-organization').locator('.cl-pricingTableCardFooterButton');
    assert.ok((await buy.count()) > 0);
    for (const button of await buy.all()) assert.equal(await button.isEnabled(), false);
    await planCard(memberPage, 'Scale').locator('.cl-pricingTableCardFooter').hover();
    await memberPage
      .getByText('You do not have permissions to manage billing for this organization.')
      .first()
      .waitFor({ timeout: UI_WAIT_MS });
    assert.equal(await memberPage.getByTestId('offline-card-form').count(), 0);

    // Cancelled (as an operator would, through the Backend API): still YES until the period ends, then NO.
    const clerk = backendClient(suite.server);
    const subscription = await clerk.billing.getOrganizationBillingSubscription(organizationId);
    // (The Backend API names plans in French: "Professionnel".)
    const pro = subscription.subscriptionItems.find((item) => item.plan.slug === 'pro');
    assert.ok(pro, JSON.stringify(subscription.subscriptionItems.map((i) => i.plan.slug)));
    await clerk.billing.cancelSubscriptionItem(pro.id);
    await badgeBecomes(page, 'YES', 1);
    // The clock moved past the period's end: the instance's renewal round (test-only call) ends the item.
    await advanceBillingClock(suite.server, 40);
    await badgeBecomes(page, 'NO');
  });

  test('a declined card shows its error in the form, and nothing is bought', async () => {
    const { admin, organizationId } = await team('billing-declined');
    const { page } = await signedIn(admin);
    await openPricing(page, 'Pro');
    await planCard(page, 'Pro').getByRole('button', { name: 'Subscribe' }).click();
    await payWithNewCard(page, DECLINED_CARD);
    // The card is saved (the form's check passes); the charge is declined, and clerk-js's checkout says so
    // in Clerk's words.
    await page.getByText('The card was declined.').first().waitFor({ timeout: UI_WAIT_MS });
    assert.equal(await page.getByText('Payment was successful!').count(), 0);
    const stored = await backendClient(suite.server).organizations.getOrganization({ organizationId });
    assert.notEqual(stored.publicMetadata?.hasActiveSubscription, 'YES');
  });

  test('a plan with a free trial makes the badge TRIAL', async () => {
    const { admin } = await team('billing-trial');
    const { page } = await signedIn(admin);
    await openPricing(page, 'Pro');
    await planCard(page, 'Scale')
      .getByRole('button', { name: /free trial/i })
      .click();
    await payWithNewCard(page, GOOD_CARD);
    await page.getByText('Trial successfully started!').waitFor({ timeout: UI_WAIT_MS });
    await page.getByRole('button', { name: 'Continue' }).click();
    await badgeBecomes(page, 'TRIAL');
  });
});
