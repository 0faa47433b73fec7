import type { Page } from 'playwright-core';
import { waitForClerkSession } from './flows.ts';

/** Reads the current session's claims as clerk-js holds them. */
export async function sessionClaims(page: Page): Promise<Record<string, unknown>> {
  await waitForClerkSession(page);
  return page.evaluate(async () => {
    const clerk = (
      window as unknown as {
        Clerk: { session: { getToken(opts?: { skipCache?: boolean }): Promise<string | null> } | null };
      }
    ).Clerk;
    const token = await clerk.session?.getToken({ skipCache: true });
    if (!token) throw new Error('no session token');
    return JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/')));
  });
}
