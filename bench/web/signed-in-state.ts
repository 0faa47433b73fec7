import type { Browser, BrowserContext } from 'playwright-core';
import { newContext } from '../../e2e/support/browser.ts';
import { signUp, uniqueEmail } from '../../e2e/support/flows.ts';

export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/**
 * A user signed up through the real Clerk UI, with a first organisation of their own, as the browser
 * holds them afterwards (cookies and local storage). Every measured page starts from a copy of this, so
 * it opens /dashboard signed in without going through sign-in again.
 */
export async function signedInState(browser: Browser, origin: string): Promise<StorageState> {
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    await signUp(page, origin, uniqueEmail('bench-web'));
    return await context.storageState();
  } finally {
    await context.close();
  }
}
