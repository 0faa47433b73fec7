import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { nextFapiResponse, useSuite } from '../support/suite.ts';
import { signInOnCard, waitForHash, waitForPath } from '../support/flows.ts';
import { wireSignUp } from '../support/wire-session.ts';
import { openDiagnostics } from '../support/diagnostics.ts';

async function signedInAs(page: Page, email: string) {
  await waitForPath(page, '/dashboard');
  await page.getByTestId('user-email').filter({ hasText: email }).waitFor();
}

async function openUserButton(page: Page) {
  await page.locator('.cl-userButtonTrigger').click();
  await page.locator('.cl-userButtonPopoverCard').waitFor();
}

/** "Add account" in <UserButton/>: a full navigation to /sign-in, where a second account signs in. */
async function addAccount(page: Page, email: string) {
  await openUserButton(page);
  await page.locator('.cl-userButtonPopoverActionButton__addAccount').click();
  await waitForPath(page, '/sign-in');
  await signInOnCard(page, email);
  await signedInAs(page, email);
}

describe('several accounts on one browser (IDENTITY_MULTI_SESSION=true)', () => {
  const suite = useSuite({ env: { IDENTITY_MULTI_SESSION: 'true' } });
  let ada: string;
  let bob: string;
  let context: BrowserContext;
  let page: Page;

  before(async () => {
    // Two accounts with an organisation each, signed up over the wire: what is under test is signing in.
    ada = (await wireSignUp(suite.server, 'multi-ada')).user.email;
    bob = (await wireSignUp(suite.server, 'multi-bob')).user.email;
    ({ context, page } = await suite.newPage());
  });
  after(() => context?.close());

  test('sign in, then add a second account from <UserButton/>: both are listed and the newest is active', async () => {
    await page.goto(`${suite.server.origin}/sign-in`);
    await signInOnCard(page, ada);
    await signedInAs(page, ada);
    await addAccount(page, bob);

    await openUserButton(page);
    // The active account's preview at the top, the other one as a menu item to switch to.
    await page.locator('.cl-userButtonPopoverCard').getByText(bob).first().waitFor();
    await page.getByRole('menuitem', { name: new RegExp(ada.replace(/[.+]/g, '\\$&')) }).waitFor();
    await page.locator('.cl-userButtonPopoverActionButton__signOutAll').waitFor();
    const sessions = await page.evaluate(
      () =>
        (window as unknown as { Clerk: { client: { signedInSessions: unknown[] } } }).Clerk.client
          .signedInSessions.length,
    );
    assert.equal(sessions, 2);
    await page.keyboard.press('Escape');
  });

  test('switch to the other account in <UserButton/> (touch makes it the active session)', async () => {
    await openUserButton(page);
    const touch = nextFapiResponse(page, 'POST', /\/client\/sessions\/sess_[^/]+\/touch$/);
    await page.getByRole('menuitem', { name: new RegExp(ada.replace(/[.+]/g, '\\$&')) }).click();
    const touched = await touch;
    assert.equal(touched.status(), 200);
    const body = (await touched.json()) as { client: { last_active_session_id: string } };
    assert.equal(body.client.last_active_session_id, new URL(touched.url()).pathname.split('/').at(-2));
    await signedInAs(page, ada);
    // The product API sees the switch too: its token names the active account.
    await openDiagnostics(page);
    const userId = await page.getByTestId('api-me-user-id').textContent();
    assert.equal(
      body.client.last_active_session_id,
      await page.getByTestId('api-me-session-id').textContent(),
    );
    assert.match(userId ?? '', /^user_/);
    await page.getByTestId('nav-dashboard').click();
    await page.getByTestId('dashboard').waitFor();
  });

  test('sign out of the active account only: the other stays signed in and is chosen on /sign-in#/choose', async () => {
    await openUserButton(page);
    const remove = nextFapiResponse(page, 'POST', /\/client\/sessions\/sess_[^/]+\/remove$/);
    await page.locator('.cl-userButtonPopoverActionButton__signOut').click();
    assert.equal((await remove).status(), 200);
    await waitForHash(page, '/choose');
    // Clerk's account switcher lists the remaining account.
    await page.getByRole('button', { name: new RegExp(bob.replace(/[.+]/g, '\\$&')) }).click();
    await signedInAs(page, bob);
  });

  test('sign out of all accounts: back at the site root, signed out', async () => {
    await addAccount(page, ada);
    await openUserButton(page);
    const signOut = nextFapiResponse(page, 'DELETE', /\/client\/sessions$/);
    await page.locator('.cl-userButtonPopoverActionButton__signOutAll').click();
    assert.equal((await signOut).status(), 200);
    await waitForPath(page, '/');
    await page.getByTestId('landing').waitFor();
    await page.goto(`${suite.server.origin}/dashboard`);
    await waitForPath(page, '/sign-in');
    const cookies = await context.cookies(suite.server.origin);
    assert.equal(cookies.find((c) => c.name === '__client_uat')?.value, '0');
  });
});
