import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Page, Response } from 'playwright-core';
import {
  advanceBillingClock,
  badgeBecomes,
  drawer,
  enableBilling,
  openPricing,
  planCard,
  planClaimBecomes,
  signedIn,
  subscribeWithNewCard,
  team,
} from '../support/billing.ts';
import { uniqueEmail, waitForClerkSession } from '../support/flows.ts';
import { waitForCode } from '../support/outbox.ts';
import { nextFapiResponse, errorCodeOf, useSuite } from '../support/suite.ts';
import { UI_WAIT_MS } from '../support/timeouts.ts';

/**
 * clerk-js 5.90.0's billing screens not covered elsewhere, through the real UI on the offline gateway:
 * the checkout drawer for the default free plan (a downgrade at the period's end, nothing due), cancelling
 * from the subscription-details drawer, and the `missing_payer_email` screen (clerk-js's add-an-address
 * form inside the checkout, Checkout/parts.tsx AddEmailForm). The badge on the dashboard follows each
 * subscription as the renewal schedule's clock (not wall time) moves past the period's end.
 */

const BILLING = {
  enabled: true,
  currency: 'usd',
  gateway: { kind: 'offline' },
  features: {},
  plans: {
    free_org: { name: 'Free', payerType: 'org', monthlyFee: 0, isDefault: true },
    pro: { name: 'Pro', payerType: 'org', monthlyFee: 2900 },
    free_user: { name: 'Personal Free', payerType: 'user', monthlyFee: 0, isDefault: true },
    personal: { name: 'Personal Plus', payerType: 'user', monthlyFee: 900 },
  },
};

/** The organisation's subscription list on <OrganizationProfile/> → Billing, one row per plan. */
function billingRow(page: Page, name: RegExp) {
  return page.locator('.cl-organizationProfile-root').getByRole('row', { name });
}

async function openOrganizationBilling(page: Page, origin: string) {
  await page.goto(`${origin}/organization/organization-billing`);
}

describe('billing: the free-plan checkout, cancelling, and the missing_payer_email screen', () => {
  const suite = useSuite();

  before(async () => {
    await enableBilling(suite.server, BILLING);
  });

  test('an organisation on Pro chooses the free plan: it starts at the end of the period, nothing due, then NO', async () => {
    const { admin } = await team(suite.server, 'screens-free');
    const { page, offOrigin } = await signedIn(suite, admin);
    await subscribeWithNewCard(page, 'Pro');
    await badgeBecomes(page, suite.server.origin, 'YES');

    await openPricing(page, 'Free');
    const organizationTable = page.getByTestId('pricing-organization');
    await planCard(organizationTable, 'Free').getByRole('button', { name: 'Switch to this plan' }).click();
    const checkout = drawer(page);
    await checkout.getByText('Total Due Today').waitFor({ timeout: UI_WAIT_MS });
    const text = await checkout.innerText();
    // clerk-js's downgrade notice: Pro stays until the end of the cycle, then Free.
    assert.match(text, /until the end of the billing cycle/);
    assert.match(text, /Total Due Today\s*\$0\.00/);
    // Nothing to pay: no card form, and the button subscribes rather than pays.
    assert.equal(await checkout.getByTestId('offline-card-form').count(), 0);
    assert.equal(await checkout.getByRole('button', { name: /^Pay/ }).count(), 0);
    await checkout.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByText('Success!').waitFor({ timeout: UI_WAIT_MS });
    await page.getByRole('button', { name: 'Continue' }).click();
    await checkout.waitFor({ state: 'detached', timeout: UI_WAIT_MS });

    // The subscription: Pro canceled and ending, Free upcoming; the drawer says when each happens.
    await openOrganizationBilling(page, suite.server.origin);
    await billingRow(page, /^Pro .*Canceled • Ends/).waitFor({ timeout: UI_WAIT_MS });
    await billingRow(page, /^Free .*Upcoming.*Starts/).waitFor();
    await billingRow(page, /^Pro /).getByRole('button', { name: 'Manage subscription' }).click();
    const details = drawer(page);
    await details.getByText('Begins on').waitFor({ timeout: UI_WAIT_MS });
    await details.getByText('Ends on').waitFor();
    await details.getByText('Free', { exact: true }).first().waitFor();
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached', timeout: UI_WAIT_MS });

    // Until the period ends the organisation still has Pro; past it, Free, and the badge says NO.
    await badgeBecomes(page, suite.server.origin, 'YES', 1);
    assert.ok((await advanceBillingClock(suite.server, 40)) > 0);
    await badgeBecomes(page, suite.server.origin, 'NO');
    await planClaimBecomes(page, 'o:free_org');
    assert.deepEqual(offOrigin, [], 'no request left the machine');
  });

  test('cancelled from the subscription-details drawer: canceled with its end date, YES until then, NO after', async () => {
    const { admin } = await team(suite.server, 'screens-cancel');
    const { page } = await signedIn(suite, admin);
    await subscribeWithNewCard(page, 'Pro');
    await badgeBecomes(page, suite.server.origin, 'YES');

    await openOrganizationBilling(page, suite.server.origin);
    await billingRow(page, /^Pro .*Renews/).waitFor({ timeout: UI_WAIT_MS });
    await billingRow(page, /^Pro /).getByRole('button', { name: 'Manage subscription' }).click();
    const details = drawer(page);
    await details.getByText('Renews at').waitFor({ timeout: UI_WAIT_MS });
    await details.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('menuitem', { name: 'Cancel subscription' }).click();
    // clerk-js's confirmation: what is kept, and until when.
    await details.getByText('Cancel Pro Subscription?').waitFor({ timeout: UI_WAIT_MS });
    await details.getByText(/You can keep using 'Pro' features until/).waitFor();
    const cancel = nextFapiResponse(page, 'DELETE', /\/commerce\/subscription_items\/[^/]+$/);
    await details.getByRole('button', { name: 'Cancel subscription' }).click();
    assert.equal((await cancel).status(), 200);
    await details.waitFor({ state: 'detached', timeout: UI_WAIT_MS });

    // The plan shows as canceled with its end date, and the free plan as upcoming from then; the
    // organisation keeps Pro (and YES) until then.
    await billingRow(page, /^Pro .*Canceled • Ends/).waitFor({ timeout: UI_WAIT_MS });
    await billingRow(page, /^Free .*Upcoming.*Starts/).waitFor();
    await badgeBecomes(page, suite.server.origin, 'YES', 1);
    assert.ok((await advanceBillingClock(suite.server, 40)) > 0);
    await badgeBecomes(page, suite.server.origin, 'NO');
  });

  describe('a user without an email address', () => {
    let page: Page;
    let restarted: Promise<Response>;

    test("gets clerk-js's add-an-address form in the checkout, and adds and verifies an address there", async () => {
      // The instance requires an email address at sign-up and never removes the last verified one, so no
      // account reaches this through the product: the test removes it from the database (an account imported
      // or made before the rule), as clerk-js must still handle Clerk's `missing_payer_email`.
      // (An organisation too: the product asks a user without one to make one before anything else.)
      const { admin: user } = await team(suite.server, 'screens-no-email');
      ({ page } = await signedIn(suite, user));
      await waitForClerkSession(page);
      const db = suite.server.app.identity!.deps.db;
      await db.query('UPDATE users SET primary_email_address_id = NULL WHERE id = $1', [user.id]);
      await db.query('DELETE FROM email_addresses WHERE user_id = $1', [user.id]);

      await page.goto(`${suite.server.origin}/pricing`);
      const mine = page.getByTestId('pricing-user');
      await planCard(mine, 'Personal Plus').waitFor({ timeout: UI_WAIT_MS });
      const refused = nextFapiResponse(page, 'POST', /\/me\/commerce\/checkouts$/);
      await planCard(mine, 'Personal Plus').getByRole('button', { name: 'Subscribe' }).click();
      const answer = await refused;
      assert.equal(answer.status(), 422);
      assert.equal(await errorCodeOf(answer), 'missing_payer_email');

      // clerk-js's screen for it: the <UserProfile/> email form, inside the checkout drawer, and no card form.
      const checkout = drawer(page);
      await checkout.getByRole('heading', { name: 'Add an email address' }).waitFor({ timeout: UI_WAIT_MS });
      await checkout
        .getByText(
          'Before you can complete your purchase you must add an email address where receipts will be sent.',
        )
        .waitFor();
      assert.equal(await checkout.getByTestId('offline-card-form').count(), 0);

      // The address added, its code (from the development outbox) typed: verified, and clerk-js starts the
      // checkout again (AddEmailForm's onSuccess).
      const email = uniqueEmail('screens-payer');
      const since = new Date();
      await checkout.getByLabel('Email address').fill(email);
      await checkout.getByRole('button', { name: 'Add' }).click();
      const code = await waitForCode(suite.server.origin, email, since);
      const verified = nextFapiResponse(page, 'POST', /\/me\/email_addresses\/[^/]+\/attempt_verification$/);
      restarted = nextFapiResponse(page, 'POST', /\/me\/commerce\/checkouts$/);
      await checkout.locator('input[autocomplete="one-time-code"]').first().fill(code);
      assert.equal((await verified).status(), 200);
      await restarted;
    });

    test('then the checkout goes on: priced, with the card form', async () => {
      const answer = await restarted;
      assert.equal(answer.status(), 200, `${answer.status()} ${await errorCodeOf(answer)}`);
      const checkout = drawer(page);
      await checkout.getByText('Total Due Today').waitFor({ timeout: UI_WAIT_MS });
      await checkout.getByTestId('offline-card-form').waitFor({ timeout: UI_WAIT_MS });
      assert.equal(await checkout.getByRole('heading', { name: 'Add an email address' }).count(), 0);
    });
  });
});
