import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { useGoogleStandIn } from '../support/oidc-stand-in.ts';
import { nextFapiResponse, useSuite } from '../support/suite.ts';
import { uniqueEmail } from '../support/flows.ts';
import { signedUpPage } from '../support/wire-session.ts';
import { UI_WAIT_MS } from '../support/timeouts.ts';

/**
 * Connected accounts through the real <UserProfile/>: a user who signed up with email and password
 * connects their Google account (a real OpenID Connect provider on another loopback port,
 * oauth2-mock-server, playing Google through the instance settings' issuer override), sees it listed
 * with the provider's email, and removes it.
 */
const person = {
  sub: `e2e-connect-${Date.now()}`,
  email: uniqueEmail('google-connected'),
  email_verified: true,
  given_name: 'Katherine',
  family_name: 'Johnson',
};

async function openManageAccount(page: Page) {
  await page.locator('.cl-userButtonTrigger').click();
  await page.getByRole('menuitem', { name: 'Manage account' }).click();
  await page.locator('.cl-userProfile-root').waitFor({ timeout: UI_WAIT_MS });
}

describe('connected accounts through the Clerk <UserProfile/>', () => {
  const suite = useSuite(useGoogleStandIn('connected', person));

  test('a signed-in user connects Google in <UserProfile/>, sees it listed, and removes it', async () => {
    const { page } = await signedUpPage(suite, 'connect');
    const origin = suite.server.origin;

    await openManageAccount(page);
    const section = page.locator('.cl-profileSection__connectedAccounts');
    await section.waitFor({ timeout: UI_WAIT_MS });
    await section.getByRole('button', { name: 'Connect account' }).click();
    const created = nextFapiResponse(page, 'POST', /\/me\/external_accounts$/);
    const callback = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/v1/oauth_callback'), {
      timeout: UI_WAIT_MS,
    });
    await page.getByRole('menuitem', { name: /Google/ }).click();
    assert.equal((await created).status(), 200);
    // The provider sends the browser to our callback, which sends it back to the page it came from.
    const location = (await callback).headers().location ?? '';
    assert.ok(location.startsWith(origin), location);

    // Back on the page, where clerk-js reopens <UserProfile/> from the modal state in `redirect_url`.
    await page.getByTestId('dashboard').waitFor({ timeout: UI_WAIT_MS });
    await page.locator('.cl-userProfile-root').waitFor({ timeout: UI_WAIT_MS });
    const item = page.locator('.cl-profileSectionItem__connectedAccounts').filter({ hasText: person.email });
    await item.waitFor({ timeout: UI_WAIT_MS });
    assert.match((await item.textContent()) ?? '', /Google/);

    await item.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('menuitem', { name: 'Remove' }).click();
    const removed = nextFapiResponse(page, 'DELETE', /\/me\/external_accounts\/eac_[^/]+$/);
    await page.locator('.cl-userProfile-root').getByRole('button', { name: 'Remove' }).click();
    assert.equal((await removed).status(), 200);
    await item.waitFor({ state: 'detached', timeout: UI_WAIT_MS });
    const accounts = await page.evaluate(
      () =>
        (window as unknown as { Clerk: { user: { externalAccounts: unknown[] } } }).Clerk.user
          .externalAccounts.length,
    );
    assert.equal(accounts, 0);
  });
});
