import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { backendClient } from '../support/backend.ts';
import { signOutFromUserButton, signUp, uniqueEmail, waitForPath } from '../support/flows.ts';
import { errorCodeOf, nextFapiResponse, useSuite } from '../support/suite.ts';
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
async function addVirtualAuthenticator(
  context: BrowserContext,
  page: Page,
  opts: { isUserVerified?: boolean } = {},
) {
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
      isUserVerified: opts.isUserVerified ?? true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    async credentials() {
      return (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
    },
    /** Puts a credential (its private key included) into this authenticator, as another one held it. */
    async addCredential(credential: VirtualCredential) {
      await cdp.send('WebAuthn.addCredential', { authenticatorId, credential });
    },
  };
}

/** A credential as the CDP WebAuthn domain gives and takes it (binary fields in base64). */
interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  privateKey: string;
  userHandle?: string;
  signCount: number;
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

/** Whether clerk-js holds a session (a signed-in user) on the page. */
const clerkSignedIn = (page: Page) =>
  page.evaluate(() => Boolean((window as unknown as { Clerk: { session: unknown } }).Clerk.session));

/** Opens <SignIn/> and answers its "Use passkey instead" control, once shown. */
async function passkeySignInLink(page: Page, origin: string) {
  await page.goto(`${origin}/sign-in`);
  const link = page
    .getByRole('link', { name: 'Use passkey instead' })
    .or(page.getByRole('button', { name: 'Use passkey instead' }));
  await link.waitFor({ timeout: UI_WAIT_MS });
  return link;
}

/**
 * What goes wrong: a copied credential, a declined prompt, a passkey added twice, a browser without
 * WebAuthn. Each test has its own browser profiles and person. The messages are clerk-js's own (en-US
 * `unstable__errors`) or the server's `long_message`.
 */
describe('passkeys that fail, through the Clerk UI', () => {
  const settings = passkeySettingsFile(false);
  const suite = useSuite({ env: settings.env });
  after(() => rmSync(settings.dir, { recursive: true, force: true }));

  test('a copy of a passkey whose counter is behind the stored one is refused; moved ahead, it passes', async () => {
    // The owner adds a passkey and signs in with it once: the server stores the counter that sign-in gave.
    const { context, page } = await suite.newPage();
    const owner = await addVirtualAuthenticator(context, page);
    const email = uniqueEmail('passkey-clone');
    await signUp(page, suite.server.origin, email);
    await openSecurity(page);
    const verified = nextFapiResponse(page, 'POST', /\/v1\/me\/passkeys\/idn_[^/]+\/attempt_verification$/);
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    assert.equal((await verified).status(), 200);
    await page.keyboard.press('Escape');
    await signOutFromUserButton(page);
    await waitForPath(page, '/');
    const ownerLink = await passkeySignInLink(page, suite.server.origin);
    const signedIn = nextFapiResponse(
      page,
      'POST',
      /\/v1\/client\/sign_ins\/sia_[^/]+\/attempt_first_factor$/,
    );
    await ownerLink.click();
    assert.equal((await signedIn).status(), 200);
    await waitForPath(page, '/dashboard');
    // The authenticator signed that assertion with its current counter, which the server stored.
    const [credential] = await owner.credentials();
    assert.ok(credential, 'the owner’s authenticator holds the passkey');
    const stored = credential.signCount;
    assert.ok(stored >= 1, `the counter moved (${stored})`);

    // Another browser holds a copy (private key, user handle, relying party) with its counter at 0: the
    // authenticator adds one before signing, so it answers with 1, not past the stored counter.
    const thief = await suite.newPage();
    const clone = await addVirtualAuthenticator(thief.context, thief.page);
    const copy: VirtualCredential = {
      credentialId: credential.credentialId,
      isResidentCredential: true,
      rpId: credential.rpId,
      privateKey: credential.privateKey,
      userHandle: credential.userHandle,
      signCount: 0,
    };
    await clone.addCredential(copy);
    const link = await passkeySignInLink(thief.page, suite.server.origin);
    const refused = nextFapiResponse(
      thief.page,
      'POST',
      /\/v1\/client\/sign_ins\/sia_[^/]+\/attempt_first_factor$/,
    );
    await link.click();
    const answer = await refused;
    assert.equal(answer.status(), 422);
    assert.equal(await errorCodeOf(answer), 'passkey_verification_failure');
    assert.equal((await clone.credentials())[0]?.signCount, 1, 'the copy answered with counter 1');
    await thief.page
      .locator('.cl-alert')
      .filter({ hasText: 'This passkey could not be verified' })
      .first()
      .waitFor({ timeout: UI_WAIT_MS });
    assert.equal(new URL(thief.page.url()).pathname, '/sign-in');
    assert.equal(await clerkSignedIn(thief.page), false);

    // The same copy with its counter past the stored one is taken: the refusal was the counter's alone.
    const ahead = await suite.newPage();
    const moved = await addVirtualAuthenticator(ahead.context, ahead.page);
    await moved.addCredential({ ...copy, signCount: stored + 5 });
    const aheadLink = await passkeySignInLink(ahead.page, suite.server.origin);
    const taken = nextFapiResponse(
      ahead.page,
      'POST',
      /\/v1\/client\/sign_ins\/sia_[^/]+\/attempt_first_factor$/,
    );
    await aheadLink.click();
    const takenAnswer = await taken;
    const body = (await takenAnswer.json()) as { response: { status: string; identifier: string } };
    assert.equal(takenAnswer.status(), 200, JSON.stringify(body));
    assert.equal(body.response.identifier, email);
  });

  test('a passkey prompt the person declines shows Clerk’s message and signs nobody in', async () => {
    // The authenticator refuses user verification: `navigator.credentials.get` rejects (NotAllowedError),
    // as when the person cancels the browser's prompt.
    const { context, page } = await suite.newPage();
    await addVirtualAuthenticator(context, page, { isUserVerified: false });
    const attempts: string[] = [];
    page.on('request', (r) => {
      if (/\/v1\/client\/sign_ins\/sia_[^/]+\/attempt_first_factor/.test(r.url())) attempts.push(r.url());
    });
    const link = await passkeySignInLink(page, suite.server.origin);
    const started = nextFapiResponse(page, 'POST', /\/v1\/client\/sign_ins$/);
    await link.click();
    assert.equal((await started).status(), 200);
    await page
      .locator('.cl-alert')
      .filter({ hasText: 'Passkey verification was cancelled or timed out.' })
      .first()
      .waitFor({ timeout: UI_WAIT_MS });
    assert.deepEqual(attempts, [], 'no assertion reached the server');
    assert.equal(new URL(page.url()).pathname, '/sign-in');
    assert.equal(await clerkSignedIn(page), false);
  });

  test('a passkey this authenticator already holds: the browser refuses it, Clerk says so, one passkey stays', async () => {
    const { context, page } = await suite.newPage();
    const authenticator = await addVirtualAuthenticator(context, page);
    await signUp(page, suite.server.origin, uniqueEmail('passkey-twice'));
    await openSecurity(page);
    const verified = nextFapiResponse(page, 'POST', /\/v1\/me\/passkeys\/idn_[^/]+\/attempt_verification$/);
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    const first = (await (await verified).json()) as { response: { id: string } };
    await page
      .locator('.cl-profileSectionItem__passkeys')
      .filter({ hasText: /Chrome/ })
      .first()
      .waitFor({ timeout: UI_WAIT_MS });
    const [credential] = await authenticator.credentials();
    assert.ok(credential, 'the authenticator holds the first passkey');

    // The second registration's options exclude that credential: the authenticator answers
    // InvalidStateError, which clerk-js turns into `passkey_already_exists`, and verifies nothing.
    const attempts: string[] = [];
    page.on('request', (r) => {
      if (/\/v1\/me\/passkeys\/[^/]+\/attempt_verification/.test(r.url())) attempts.push(r.url());
    });
    const created = nextFapiResponse(page, 'POST', /\/v1\/me\/passkeys$/);
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    const answer = await created;
    assert.equal(answer.status(), 200);
    const { response } = (await answer.json()) as { response: { verification: { nonce: string } } };
    const options = JSON.parse(response.verification.nonce) as { excludeCredentials: { id: string }[] };
    assert.deepEqual(
      options.excludeCredentials.map((c) => c.id),
      [Buffer.from(credential.credentialId, 'base64').toString('base64url')],
    );
    await page
      .locator('.cl-alert')
      .filter({ hasText: 'A passkey is already registered with this device.' })
      .first()
      .waitFor({ timeout: UI_WAIT_MS });
    assert.deepEqual(attempts, [], 'no second credential reached the server');
    assert.equal((await authenticator.credentials()).length, 1);

    // `users.getUser` lists the verified passkeys (in `raw`: @clerk/backend 2.10.1's User has no field).
    const userId = await page.evaluate(
      () => (window as unknown as { Clerk: { user: { id: string } } }).Clerk.user.id,
    );
    const user = await backendClient(suite.server).users.getUser(userId);
    const listed = (user.raw as unknown as { passkeys: { id: string }[] }).passkeys;
    assert.deepEqual(
      listed.map((p) => p.id),
      [first.response.id],
    );
  });

  test('a browser without WebAuthn: no passkey on <SignIn/>, and adding one says passkeys are not supported', async () => {
    const { page } = await suite.newPage();
    // Not an automated browser to clerk-js (as above), but one without the WebAuthn API.
    await page.addInitScript(
      `Object.defineProperty(Navigator.prototype, 'webdriver', { configurable: true, get: () => false });
       delete window.PublicKeyCredential;`,
    );
    const created: string[] = [];
    page.on('request', (r) => {
      if (/\/v1\/me\/passkeys/.test(r.url())) created.push(r.url());
    });
    await signUp(page, suite.server.origin, uniqueEmail('passkey-unsupported'));
    assert.equal(await page.evaluate(() => typeof window.PublicKeyCredential), 'undefined');
    await openSecurity(page);
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page
      .locator('.cl-alert')
      .filter({ hasText: 'Passkeys are not supported on this device.' })
      .first()
      .waitFor({ timeout: UI_WAIT_MS });
    assert.deepEqual(created, [], 'clerk-js asked the server for nothing');

    await page.keyboard.press('Escape');
    await signOutFromUserButton(page);
    await waitForPath(page, '/');
    await page.goto(`${suite.server.origin}/sign-in`);
    await page.locator('input[name="identifier"]').waitFor({ timeout: UI_WAIT_MS });
    assert.equal(await page.getByText('Use passkey instead').count(), 0);
  });
});
