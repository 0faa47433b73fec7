import type { Page } from 'playwright-core';
import { waitForCode } from './outbox.ts';

export const PASSWORD = 'correct-horse-battery-staple';

let counter = 0;
/** A fresh address per test so tests never depend on each other's users. */
export function uniqueEmail(label: string): string {
  counter += 1;
  return `${label}-${Date.now()}-${counter}@example.com`;
}

export async function waitForHash(page: Page, fragment: string, timeout = 15_000) {
  await page.waitForFunction((f) => location.hash.includes(f), fragment, { timeout });
}

export async function waitForPath(page: Page, path: string, timeout = 15_000) {
  await page.waitForFunction((p) => location.pathname === p, path, { timeout });
}

export async function enterCode(page: Page, code: string) {
  await page.locator('input[autocomplete="one-time-code"]').first().fill(code);
}

/** Fills the real Clerk <SignUp/> card and stops on the verify-email-address step. */
export async function startSignUp(page: Page, origin: string, email: string, password = PASSWORD) {
  await page.goto(`${origin}/sign-up`);
  await page.locator('input[name=emailAddress]').fill(email);
  await page.locator('input[name=password]').fill(password);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
}

/** Complete sign-up through the Clerk UI with the code from the development outbox; ends on the dashboard. */
/** `outboxOrigin` is where the development outbox is served (the provider's origin when it runs apart). */
export async function signUp(
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
  await waitForPath(page, '/dashboard');
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
  await startSignIn(page, origin, email);
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
  return page.evaluate(async () => {
    const clerk = (window as unknown as { Clerk: { session: { getToken(): Promise<string | null> } | null } })
      .Clerk;
    const token = await clerk.session?.getToken();
    if (!token) throw new Error('no session token');
    return token;
  });
}
