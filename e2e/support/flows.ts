import type { Locator, Page } from 'playwright-core';
import { waitForCode } from './outbox.ts';
import { UI_WAIT_MS } from './timeouts.ts';

export const PASSWORD = 'correct-horse-battery-staple';

let counter = 0;
/** A fresh address per test so tests never depend on each other's users. */
export function uniqueEmail(label: string): string {
  counter += 1;
  return `${label}-${Date.now()}-${counter}@example.com`;
}

export async function waitForHash(page: Page, fragment: string, timeout = UI_WAIT_MS) {
  await page.waitForFunction((f) => location.hash.includes(f), fragment, { timeout });
}

export async function waitForPath(page: Page, path: string, timeout = UI_WAIT_MS) {
  await page.waitForFunction((p) => location.pathname === p, path, { timeout });
}

export async function enterCode(page: Page, code: string) {
  await page.locator('input[autocomplete="one-time-code"]').first().fill(code);
}

/** Fills the real Clerk <SignUp/> card and stops on the verify-email-address step. */
/**
 * Ticks a checkbox of the Clerk UI. A click that lands while the form re-renders (clerk-js settles its
 * fields after the first keystrokes; slower on a loaded machine) leaves it unticked, which Playwright's
 * check() reports at once: the click is tried again, and the box must end up ticked.
 */
export async function tick(checkbox: Locator, tries = 3) {
  for (let attempt = 1; ; attempt++) {
    try {
      await checkbox.check();
      return;
    } catch (err) {
      if (attempt === tries || !/did not change its state/.test((err as Error).message)) throw err;
      await checkbox.page().waitForTimeout(250);
    }
  }
}

export async function startSignUp(page: Page, origin: string, email: string, password = PASSWORD) {
  await page.goto(`${origin}/sign-up`);
  await page.locator('input[name=emailAddress]').fill(email);
  await page.locator('input[name=password]').fill(password);
  await clickUntilRequest(
    page,
    page.getByRole('button', { name: 'Continue', exact: true }),
    /\/v1\/client\/sign_ups$/,
  );
}

/**
 * Clicks until the browser sends the request. Under load Clerk's card can ignore a click that lands
 * while it re-renders (its password strength check loads lazily as the password is typed); a click
 * that did submit is never repeated, so nothing is sent twice.
 */
export async function clickUntilRequest(page: Page, button: Locator, path: RegExp, tries = 3) {
  for (let attempt = 1; ; attempt++) {
    const sent = page
      .waitForRequest((r) => path.test(new URL(r.url()).pathname), { timeout: 5_000 })
      .then(
        () => true,
        () => false,
      );
    await button.click();
    if ((await sent) || attempt === tries) return;
  }
}

/**
 * Completes sign-up through the Clerk UI with the code from the development outbox; ends signed in,
 * on /create-organization (a new user has no organisation yet) or /dashboard.
 * `outboxOrigin` is where the development outbox is served (the provider's origin when it runs apart).
 */
export async function signUpUntilSignedIn(
  page: Page,
  origin: string,
  email: string,
  password = PASSWORD,
  outboxOrigin = origin,
) {
  const since = new Date();
  await startSignUp(page, origin, email, password);
  await waitForHash(page, '/verify-email-address');
  await enterCode(page, await waitForCode(outboxOrigin, email, since));
  // Settled: the organisation rule may pass through /dashboard on its way to /create-organization.
  await page
    .getByTestId('create-organization-page')
    .or(page.getByTestId('dashboard-org-name'))
    .first()
    .waitFor();
}

/** Fills the real Clerk <CreateOrganization/> (name only; the slug follows), skips inviting, ends on the dashboard. */
export async function createOrganization(page: Page, name: string) {
  const form = page
    .locator('.cl-createOrganization-root, .cl-organizationList-root, .cl-modalContent')
    .first();
  await form.locator('input[name=name]').fill(name);
  await form.getByRole('button', { name: 'Create organization' }).click();
  const skip = page.getByRole('button', { name: 'Skip' });
  await Promise.race([
    skip.waitFor({ timeout: UI_WAIT_MS }).then(() => skip.click()),
    waitForPath(page, '/dashboard'),
  ]);
  await waitForPath(page, '/dashboard');
  await page.getByTestId('dashboard-org-name').filter({ hasText: name }).waitFor();
}

/** Sign-up, then (as every user needs one) a first organisation of their own; ends on the dashboard. */
export async function signUp(
  page: Page,
  origin: string,
  email: string,
  password = PASSWORD,
  outboxOrigin = origin,
) {
  await signUpUntilSignedIn(page, origin, email, password, outboxOrigin);
  if (await page.getByTestId('create-organization-page').isVisible()) {
    await createOrganization(page, `${email.split('@')[0]} team`);
  }
  await page.getByTestId('dashboard').waitFor();
}

/** Types the identifier on <SignIn/> and continues to the factor-one step. */
export async function startSignIn(page: Page, origin: string, email: string) {
  await page.goto(`${origin}/sign-in`);
  await page.locator('input[name=identifier]').fill(email);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
}

/** On factor one: "Use another method", then the email code to `email` (any address when omitted). */
export async function chooseEmailCode(page: Page, email?: string) {
  await page
    .getByRole('link', { name: 'Use another method' })
    .or(page.getByRole('button', { name: 'Use another method' }))
    .click();
  const label = email ? new RegExp(`Email code to ${email.replace(/[.+]/g, '\\$&')}`) : /Email code to/;
  await page.getByRole('button', { name: label }).click();
}

export async function signInWithPassword(page: Page, origin: string, email: string, password = PASSWORD) {
  await page.goto(`${origin}/sign-in`);
  await signInOnCard(page, email, password);
}

/** Identifier then password on the <SignIn/> card the page already shows (e.g. after "Add account"). */
export async function signInOnCard(page: Page, email: string, password = PASSWORD) {
  await page.locator('input[name=identifier]').fill(email);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await waitForHash(page, '/factor-one');
  await page.locator('input[name=password]').fill(password);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
}

export async function signOutFromUserButton(page: Page) {
  await page.locator('.cl-userButtonTrigger').click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
}

/** The current session token, as clerk-js holds it. */
export async function sessionToken(page: Page): Promise<string> {
  await waitForClerkSession(page);
  return page.evaluate(async () => {
    const clerk = (window as unknown as { Clerk: { session: { getToken(): Promise<string | null> } | null } })
      .Clerk;
    const token = await clerk.session?.getToken();
    if (!token) throw new Error('no session token');
    return token;
  });
}

/** Waits until clerk-js has loaded and holds a session (after a navigation it needs a moment). */
export async function waitForClerkSession(page: Page) {
  await page.waitForFunction(
    () => {
      const clerk = (window as unknown as { Clerk?: { loaded: boolean; session: unknown } }).Clerk;
      return !!clerk?.loaded && !!clerk.session;
    },
    null,
    { timeout: UI_WAIT_MS },
  );
}

/**
 * The page's path and query once nothing has navigated for `quietMs`: what a person ends up looking at
 * after every redirect has run, so a bounce through several pages cannot pass for its first step.
 */
export async function settledUrl(page: Page, quietMs = 1_500, timeout = UI_WAIT_MS): Promise<string> {
  const deadline = Date.now() + timeout;
  // Quiet before clerk-js has loaded means nothing: the app decides only once it knows who is signed in.
  await page.waitForFunction(
    () => !!(window as unknown as { Clerk?: { loaded: boolean } }).Clerk?.loaded,
    null,
    {
      timeout,
    },
  );
  const current = () => page.evaluate(() => location.pathname + location.search);
  let last = await current();
  let since = Date.now();
  while (Date.now() < deadline) {
    await page.waitForTimeout(100);
    const now = await current();
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return last;
  }
  throw new Error(`the page kept navigating for ${timeout} ms (last at ${last})`);
}

/**
 * Signs in through <SignIn/> and waits until the app has settled: on the dashboard with an active
 * organisation, or on the create-organisation screen for a user without one.
 */
export async function signInUntilSettled(page: Page, origin: string, email: string, password = PASSWORD) {
  await signInWithPassword(page, origin, email, password);
  await page
    .getByTestId('dashboard-org-name')
    .or(page.getByTestId('create-organization-page'))
    .first()
    .waitFor();
}
