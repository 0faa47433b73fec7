import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { useSuite, nextFapiResponse } from '../support/suite.ts';
import {
  createOrganization,
  signOutFromUserButton,
  signUp,
  startSignIn,
  startSignUp,
  uniqueEmail,
  waitForHash,
  waitForPath,
} from '../support/flows.ts';
import { waitForLink } from '../support/outbox.ts';

/** On factor one: "Use another method", then "Email link to <email>"; the card waits for the link. */
async function chooseEmailLink(page: Page, email: string) {
  await page
    .getByRole('link', { name: 'Use another method' })
    .or(page.getByRole('button', { name: 'Use another method' }))
    .click();
  const prepared = nextFapiResponse(page, 'POST', /\/prepare_first_factor$/);
  await page.getByRole('button', { name: `Email link to ${email}` }).click();
  assert.equal((await prepared).status(), 200);
  await page.getByText('Use the verification link sent to your email').waitFor();
}

/** Signed in: the organisation rule may pass through /dashboard on its way to /create-organization. */
async function waitSignedIn(page: Page) {
  await page.getByTestId('create-organization-page').or(page.getByTestId('dashboard')).first().waitFor();
}

describe('email links through the Clerk UI (sign-ups verified by link)', () => {
  const suite = useSuite({ env: { IDENTITY_SIGN_UP_EMAIL_VERIFICATION: 'link' } });
  const email = uniqueEmail('emaillink');

  test('sign-up by email link: the link opened in a second tab signs up there; the first tab says so', async () => {
    const { page, context } = await suite.newPage();
    const since = new Date();
    await startSignUp(page, suite.server.origin, email);
    await waitForHash(page, '/verify-email-address');
    await page.getByText('Use the verification link sent to your email address').waitFor();
    const link = await waitForLink(suite.server.origin, email, since);

    const second = await context.newPage();
    await second.goto(link);
    await waitSignedIn(second);
    await page.getByText('Successfully verified email').waitFor();

    if (await second.getByTestId('create-organization-page').isVisible()) {
      await createOrganization(second, 'Link Labs');
    }
    await second.getByTestId('dashboard').waitFor();
    assert.equal(await second.getByTestId('user-email').textContent(), email);
    await signOutFromUserButton(second);
    await waitForPath(second, '/');
  });

  test('sign-in by email link in the same browser: the second tab signs in, the first tab continues signed in', async () => {
    const { page, context } = await suite.newPage();
    await startSignIn(page, suite.server.origin, email);
    await waitForHash(page, '/factor-one');
    const since = new Date();
    await chooseEmailLink(page, email);
    const link = await waitForLink(suite.server.origin, email, since);

    const second = await context.newPage();
    await second.goto(link);
    await waitForPath(second, '/dashboard');
    assert.equal(await second.getByTestId('user-email').textContent(), email);
    // Clerk's waiting card notices the verification by polling, and hands over to the other tab.
    await page.getByText('Signed in on other tab').waitFor();
    // Same browser, same client: this tab is signed in too.
    await page.goto(`${suite.server.origin}/dashboard`);
    await page.getByTestId('dashboard').waitFor();
    assert.equal(await page.getByTestId('user-email').textContent(), email);
  });

  test('the link opened in another browser: client_mismatch, and it still works in the browser that asked', async () => {
    const { page, context } = await suite.newPage();
    await startSignIn(page, suite.server.origin, email);
    await waitForHash(page, '/factor-one');
    const since = new Date();
    await chooseEmailLink(page, email);
    const link = await waitForLink(suite.server.origin, email, since);

    const { page: elsewhere } = await suite.newPage();
    await elsewhere.goto(link);
    await elsewhere.getByText('Verification link is invalid for this device').waitFor();
    await elsewhere
      .getByText('open the verification link on the device and browser from which you initiated the sign-in')
      .waitFor();
    assert.equal(new URL(elsewhere.url()).searchParams.get('__clerk_status'), 'client_mismatch');
    assert.equal(await elsewhere.getByTestId('dashboard').count(), 0);

    // The browser that asked still waits, and the link was not spent.
    await page.getByText('Use the verification link sent to your email').waitFor();
    const second = await context.newPage();
    await second.goto(link);
    await waitForPath(second, '/dashboard');
    assert.equal(await second.getByTestId('user-email').textContent(), email);
  });
});

describe('an expired email link through the Clerk UI', () => {
  // A short link lifetime for this server only: the end-to-end server runs on real time.
  const suite = useSuite({ env: { IDENTITY_EMAIL_LINK_TTL_SECONDS: '3' } });
  const email = uniqueEmail('expired');

  before(async () => {
    const { page, context } = await suite.newPage();
    await signUp(page, suite.server.origin, email);
    await context.close();
  });

  test('opened after its lifetime: Clerk shows the expired screen, and the waiting tab offers a new link', async () => {
    const { page, context } = await suite.newPage();
    await startSignIn(page, suite.server.origin, email);
    await waitForHash(page, '/factor-one');
    const since = new Date();
    await chooseEmailLink(page, email);
    const link = await waitForLink(suite.server.origin, email, since);
    await page
      .getByText('The verification link expired. Please request a new link.')
      .waitFor({ timeout: 20_000 });

    const second = await context.newPage();
    await second.goto(link);
    await second.getByText('This verification link has expired').waitFor();
    assert.equal(new URL(second.url()).searchParams.get('__clerk_status'), 'expired');
    assert.equal(await second.getByTestId('dashboard').count(), 0);
  });
});
