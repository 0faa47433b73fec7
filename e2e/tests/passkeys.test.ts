import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { signOutFromUserButton, signUp, uniqueEmail, waitForPath } from '../support/flows.ts';
import { nextFapiResponse, useSuite } from '../support/suite.ts';
import { UI_WAIT_MS } from '../support/timeouts.ts';

/**
 * Passkeys through the real Clerk UI, with Chromium's virtual authenticator (CDP WebAuthn domain: a
 * platform authenticator with resident keys and user verification, answering every prompt by itself).
 * http://localhost is a secure context, and `localhost` the relying party. A new person adds a passkey in
 * <UserProfile/> → Security, signs out, signs in with "Use passkey instead" and no identifier, then
 * removes the passkey. The identifier field's autofill (conditional mediation) is off there, as it would
 * race the button: the virtual authenticator answers a conditional request at once, with no click. A second
 * server with autofill on shows exactly that: opening <SignIn/> signs the passkey's owner in.
 */

/** The instance settings file the server starts with: passkeys on, the button shown, autofill as given. */
function passkeySettingsFile(allowAutofill: boolean): { env: Record<string, string>; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-passkeys-'));
  const file = join(dir, 'settings.json');
  writeFileSync(file, JSON.stringify({ passkeys: { enabled: true, allowAutofill, showSignInButton: true } }));
  return { env: { IDENTITY_SETTINGS_FILE: file }, dir };
}

/**
 * A virtual platform authenticator on the page's target; answers its credential ids on demand. clerk-js
 * offers no passkey to an automated browser (`isValidBrowser`: `navigator.webdriver` is true under
 * Playwright), so the page is told it is not one, before its scripts run.
 */
async function addVirtualAuthenticator(context: BrowserContext, page: Page) {
  // A string, not a function: the test runner's TypeScript transform would add helpers the page lacks.
  await context.addInitScript(
    `Object.defineProperty(Navigator.prototype, 'webdriver', { configurable: true, get: () => false });`,
  );
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    async credentials() {
      return (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
    },
  };
}

async function openSecurity(page: Page) {
  await page.locator('.cl-userButtonTrigger').click();
  await page.getByRole('menuitem', { name: 'Manage account' }).click();
  await page.getByRole('button', { name: 'Security' }).click();
}

const clerkPasskeys = (page: Page) =>
  page.evaluate(() =>
    (
      window as unknown as { Clerk: { user: { passkeys: { id: string; name: string }[] } } }
    ).Clerk.user.passkeys.map((p) => ({ id: p.id, name: p.name })),
  );

describe('passkeys through the Clerk UI, with a virtual authenticator', () => {
  const settings = passkeySettingsFile(false);
  const suite = useSuite({ env: settings.env });
  after(() => rmSync(settings.dir, { recursive: true, force: true }));
  const email = uniqueEmail('passkey');
  let page: Page;
  let authenticator: Awaited<ReturnType<typeof addVirtualAuthenticator>>;

  test('adds a passkey in <UserProfile/> → Security', async () => {
    let context: BrowserContext;
    ({ context, page } = await suite.newPage());
    authenticator = await addVirtualAuthenticator(context, page);
    await signUp(page, suite.server.origin, email);
    await openSecurity(page);

    const created = nextFapiResponse(page, 'POST', /\/v1\/me\/passkeys$/);
    const verified = nextFapiResponse(page, 'POST', /\/v1\/me\/passkeys\/idn_[^/]+\/attempt_verification$/);
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    assert.equal((await created).status(), 200);
    const answer = await verified;
    assert.equal(answer.status(), 200, await answer.text());

    const item = page.locator('.cl-profileSectionItem__passkeys').filter({ hasText: /Chrome/ });
    await item.first().waitFor({ timeout: UI_WAIT_MS });
    const passkeys = await clerkPasskeys(page);
    assert.equal(passkeys.length, 1);
    assert.equal((await authenticator.credentials()).length, 1);
  });

  test('signs out, and signs in again with "Use passkey instead", no identifier typed', async () => {
    await page.keyboard.press('Escape');
    await signOutFromUserButton(page);
    await waitForPath(page, '/');

    await page.goto(`${suite.server.origin}/sign-in`);
    const link = page
      .getByRole('link', { name: 'Use passkey instead' })
      .or(page.getByRole('button', { name: 'Use passkey instead' }));
    await link.waitFor({ timeout: UI_WAIT_MS });
    const started = nextFapiResponse(page, 'POST', /\/v1\/client\/sign_ins$/);
    const attempted = nextFapiResponse(
      page,
      'POST',
      /\/v1\/client\/sign_ins\/sia_[^/]+\/attempt_first_factor$/,
    );
    await link.click();
    assert.equal((await started).status(), 200);
    const answer = await attempted;
    const body = (await answer.json()) as { response: { status: string; identifier: string } };
    assert.equal(answer.status(), 200, JSON.stringify(body));
    assert.equal(body.response.status, 'complete');
    assert.equal(body.response.identifier, email);
    await waitForPath(page, '/dashboard');
    await page.getByTestId('dashboard').waitFor({ timeout: UI_WAIT_MS });
  });

  test('removes the passkey; "Use passkey instead" then signs nobody in', async () => {
    await openSecurity(page);
    const item = page.locator('.cl-profileSectionItem__passkeys').filter({ hasText: /Chrome/ });
    await item.first().waitFor({ timeout: UI_WAIT_MS });
    await item.first().getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('menuitem', { name: 'Remove' }).click();
    const removed = nextFapiResponse(page, 'DELETE', /\/v1\/me\/passkeys\/idn_[^/]+$/);
    await page.locator('.cl-userProfile-root').getByRole('button', { name: 'Remove' }).click();
    assert.equal((await removed).status(), 200);
    await item.first().waitFor({ state: 'detached', timeout: UI_WAIT_MS });
    assert.deepEqual(await clerkPasskeys(page), []);

    await page.keyboard.press('Escape');
    await signOutFromUserButton(page);
    await waitForPath(page, '/');
    await page.goto(`${suite.server.origin}/sign-in`);
    const link = page
      .getByRole('link', { name: 'Use passkey instead' })
      .or(page.getByRole('button', { name: 'Use passkey instead' }));
    await link.waitFor({ timeout: UI_WAIT_MS });
    const attempted = nextFapiResponse(
      page,
      'POST',
      /\/v1\/client\/sign_ins\/sia_[^/]+\/attempt_first_factor$/,
    );
    await link.click();
    // The authenticator still holds the credential; the server no longer knows it.
    const answer = await attempted;
    assert.equal(answer.status(), 422);
    await page
      .locator('.cl-alert')
      .filter({ hasText: 'This passkey could not be verified' })
      .first()
      .waitFor({ timeout: UI_WAIT_MS });
    assert.equal(new URL(page.url()).pathname, '/sign-in');
  });
});

describe('passkey autofill through the Clerk UI, with a virtual authenticator', () => {
  const settings = passkeySettingsFile(true);
  const suite = useSuite({ env: settings.env });
  after(() => rmSync(settings.dir, { recursive: true, force: true }));

  test('opening <SignIn/> offers the saved passkey to the identifier field, which signs its owner in', async () => {
    const { context, page } = await suite.newPage();
    await addVirtualAuthenticator(context, page);
    const email = uniqueEmail('passkey-autofill');
    await signUp(page, suite.server.origin, email);
    await openSecurity(page);
    const verified = nextFapiResponse(page, 'POST', /\/v1\/me\/passkeys\/idn_[^/]+\/attempt_verification$/);
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    assert.equal((await verified).status(), 200);
    await page.keyboard.press('Escape');
    await signOutFromUserButton(page);
    await waitForPath(page, '/');

    const attempted = nextFapiResponse(
      page,
      'POST',
      /\/v1\/client\/sign_ins\/sia_[^/]+\/attempt_first_factor$/,
    );
    await page.goto(`${suite.server.origin}/sign-in`);
    // No click: clerk-js asked for the passkey with conditional mediation as the page opened.
    const answer = await attempted;
    const body = (await answer.json()) as { response: { status: string; identifier: string } };
    assert.equal(answer.status(), 200, JSON.stringify(body));
    assert.equal(body.response.status, 'complete');
    assert.equal(body.response.identifier, email);
    await waitForPath(page, '/dashboard');
  });
});
