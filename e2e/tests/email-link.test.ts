import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { useSuite, nextFapiResponse } from '../support/suite.ts';
import {
  clickUntilRequest,
  PASSWORD,
  settledUrl,
  signUp,
  startSignIn,
  uniqueEmail,
  waitForHash,
  waitForPath,
} from '../support/flows.ts';
import { backendClient, createOrganizationFor, createUser, type TestUser } from '../support/backend.ts';
import { waitForLink } from '../support/outbox.ts';
import { UI_WAIT_MS } from '../support/timeouts.ts';

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

/** `path` with `redirect_url` (absolute, as clerk-js's own redirects are) when one is given. */
function withRedirect(origin: string, path: string, redirectPath: string | null): string {
  const url = new URL(path, origin);
  if (redirectPath) url.searchParams.set('redirect_url', new URL(redirectPath, origin).toString());
  return url.toString();
}

/** Fills <SignUp/> at `url` (address and password) and stops on the step that waits for the email link. */
async function startLinkSignUp(page: Page, url: string, email: string) {
  await page.goto(url);
  await page.locator('input[name=emailAddress]').fill(email);
  await page.locator('input[name=password]').fill(PASSWORD);
  await clickUntilRequest(
    page,
    page.getByRole('button', { name: 'Continue', exact: true }),
    /\/v1\/client\/sign_ups$/,
  );
  await waitForHash(page, '/verify-email-address');
  await page.getByText('Use the verification link sent to your email address').waitFor();
}

/** Identifier on <SignIn/> at `url`, then the email link; stops on the card that waits for the link. */
async function startLinkSignIn(page: Page, url: string, email: string) {
  await page.goto(url);
  await page.locator('input[name=identifier]').fill(email);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await waitForHash(page, '/factor-one');
  await chooseEmailLink(page, email);
}

/** clerk-js in this tab holds `email`'s session (what Clerk's integration tests call "signed in"). */
async function signedInAs(page: Page, email: string) {
  await page.waitForFunction(
    (address) =>
      (window as unknown as { Clerk?: { user?: { primaryEmailAddress?: { emailAddress: string } } } }).Clerk
        ?.user?.primaryEmailAddress?.emailAddress === address,
    email,
    { timeout: UI_WAIT_MS },
  );
}

/**
 * `link` opened in a second tab of the same browser (same client) while the first tab waits on Clerk's card:
 * both tabs end signed in as `email` and settle on `landing`, the first by itself.
 */
async function openLinkInSecondTab(
  context: BrowserContext,
  waiting: Page,
  link: string,
  email: string,
  landing: string,
) {
  const second = await context.newPage();
  // Opened just after one of the waiting tab's polls (every second) was answered, not while one is on its
  // way: opening the link replaces the browser's credential, and a poll sent with the old one is refused
  // (docs/email-links-and-password-reset.md, "Same browser").
  await waiting.waitForResponse(
    (r) =>
      r.request().method() === 'GET' && /\/client\/sign_(ins|ups)\/[^/]+$/.test(new URL(r.url()).pathname),
  );
  await second.goto(link);
  for (const tab of [second, waiting]) {
    // The tab that opened the link holds the session from its first load, and goes on after Clerk's card.
    await waitForPath(tab, landing);
    await signedInAs(tab, email);
    assert.equal(await settledUrl(tab), landing);
    // The product shows it too: the signed-in header.
    await tab.locator('.cl-userButtonTrigger').waitFor();
  }
}

describe('email links through the Clerk UI (sign-ups verified by link)', () => {
  const suite = useSuite({ env: { IDENTITY_SIGN_UP_EMAIL_VERIFICATION: 'link' } });
  let member: TestUser;

  before(async () => {
    member = await createUser(suite.server, 'emaillink-member');
    await createOrganizationFor(backendClient(suite.server), member, 'Link Labs');
  });

  // A new user has no organisation: the product sends them to create one, unless the page lets them get one.
  for (const redirectPath of [null, '/organizations']) {
    const landing = redirectPath ?? '/create-organization';
    test(`sign-up, link opened in a second tab of the same browser${redirectPath ? ', with redirect_url' : ''}: both tabs end signed in on ${landing}`, async () => {
      const { page, context } = await suite.newPage();
      const email = uniqueEmail('emaillink-signup');
      const since = new Date();
      await startLinkSignUp(page, withRedirect(suite.server.origin, '/sign-up', redirectPath), email);
      const link = await waitForLink(suite.server.origin, email, since);
      await openLinkInSecondTab(context, page, link, email, landing);
    });
  }

  for (const redirectPath of [null, '/settings']) {
    const landing = redirectPath ?? '/dashboard';
    test(`sign-in, link opened in a second tab of the same browser${redirectPath ? ', with redirect_url' : ''}: both tabs end signed in on ${landing}`, async () => {
      const { page, context } = await suite.newPage();
      const since = new Date();
      await startLinkSignIn(page, withRedirect(suite.server.origin, '/sign-in', redirectPath), member.email);
      const link = await waitForLink(suite.server.origin, member.email, since);
      await openLinkInSecondTab(context, page, link, member.email, landing);
    });
  }

  test('the link opened in another browser: client_mismatch, and it still works in the browser that asked', async () => {
    const email = member.email;
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
    await openLinkInSecondTab(context, page, link, email, '/dashboard');
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
