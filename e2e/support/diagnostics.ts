import type { Page } from 'playwright-core';
import { waitForPath } from './flows.ts';

/**
 * Opens the diagnostics page as a user does, from the account menu (Clerk's <UserButton/>): a
 * client-side navigation, so the page is not reloaded. Resolves once the product API has verified the
 * session and its ids are on screen.
 */
export async function openDiagnostics(page: Page): Promise<void> {
  await page.locator('.cl-userButtonTrigger').click();
  // "Diagnostics" in English, "Diagnostic" in French.
  await page.getByRole('menuitem', { name: /^Diagnostics?$/ }).click();
  await waitForPath(page, '/diagnostics');
  await page.getByTestId('api-me-status').waitFor();
}
