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

/**
 * Chooses an entry of the Clerk <OrganizationSwitcher/>: an organisation, or "Create organization". clerk-js
 * renders an entry as a menu item or a button depending on the list, so either is taken.
 */
export async function chooseInOrganizationSwitcher(page: Page, name: string | RegExp): Promise<void> {
  await page.locator('.cl-organizationSwitcherTrigger').click();
  await page.getByRole('menuitem', { name }).or(page.getByRole('button', { name })).first().click();
}
