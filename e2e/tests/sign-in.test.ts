import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { useSuite, nextFapiResponse, errorCodeOf } from '../support/suite.ts';
import {
  chooseEmailCode,
  enterCode,
  signInWithPassword,
  signOutFromUserButton,
  signUp,
  startSignIn,
  uniqueEmail,
  waitForHash,
  waitForPath,
  PASSWORD,
} from '../support/flows.ts';
import { openDiagnostics } from '../support/diagnostics.ts';
import { waitForCode } from '../support/outbox.ts';

describe('sign-in and sign-out through the Clerk UI', () => {
  const suite = useSuite();
  const email = uniqueEmail('signin');

  before(async () => {
    const { page, context } = await suite.newPage();
    await signUp(page, suite.server.origin, email);
    await context.close();
  });

  test('sign out from the user button: back at the site root, signed out', async () => {
    const { page } = await suite.newPage();
    await signInWithPassword(page, suite.server.origin, email);
    await waitForPath(page, '/dashboard');
    const signOut = nextFapiResponse(page, 'DELETE', /\/client\/sessions$/);
    await signOutFromUserButton(page);
    await waitForPath(page, '/');
    await page.getByTestId('landing').waitFor();
    assert.equal((await signOut).status(), 200);
    // Signed out for real: the signed-in area sends us back to sign-in.
    await page.goto(suite.server.origin + '/dashboard');
    await waitForPath(page, '/sign-in');
    const cookies = await page.context().cookies(suite.server.origin);
    assert.equal(cookies.find((c) => c.name === '__client_uat')?.value, '0');
  });

  test('signed in (single-session mode), /sign-in and /sign-up are skipped for the dashboard; no "Add account"', async () => {
    const { page } = await suite.newPage();
    await signInWithPassword(page, suite.server.origin, email);
    await waitForPath(page, '/dashboard');
    for (const path of ['/sign-in', '/sign-up']) {
      await page.goto(suite.server.origin + path);
      // Clerk's <SignIn/>/<SignUp/> redirect a signed-in browser to the after-sign-in/up URL.
      await waitForPath(page, '/dashboard');
      await page.getByTestId('user-email').filter({ hasText: email }).waitFor();
    }
    await page.locator('.cl-userButtonTrigger').click();
    await page.getByRole('menuitem', { name: 'Sign out' }).waitFor();
    assert.equal(await page.locator('.cl-userButtonPopoverActionButton__addAccount').count(), 0);
  });

  test('sign in with the password on the factor-one step', async () => {
    const { page } = await suite.newPage();
    await startSignIn(page, suite.server.origin, email);
    await waitForHash(page, '/factor-one');
    await page.locator('input[name=password]').fill(PASSWORD);
    const attempt = nextFapiResponse(page, 'POST', /\/attempt_first_factor$/);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    assert.equal((await attempt).status(), 200);
    await waitForPath(page, '/dashboard');
    assert.equal(await page.getByTestId('user-email').textContent(), email);
    await openDiagnostics(page);
  });

  test('sign in with an email code instead of the password', async () => {
    const { page } = await suite.newPage();
    await startSignIn(page, suite.server.origin, email);
    await waitForHash(page, '/factor-one');
    const since = new Date();
    await chooseEmailCode(page, email);
    const code = await waitForCode(suite.server.origin, email, since);
    await enterCode(page, code);
    await waitForPath(page, '/dashboard');
    assert.equal(await page.getByTestId('user-email').textContent(), email);
  });

  test('a wrong password is refused with form_password_incorrect', async () => {
    const { page } = await suite.newPage();
    await startSignIn(page, suite.server.origin, email);
    await waitForHash(page, '/factor-one');
    await page.locator('input[name=password]').fill('not-the-password');
    const attempt = nextFapiResponse(page, 'POST', /\/attempt_first_factor$/);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    const res = await attempt;
    assert.equal(res.status(), 422);
    assert.equal(await errorCodeOf(res), 'form_password_incorrect');
    await page.locator('#error-password').getByText('Password is incorrect').waitFor();
    assert.equal(new URL(page.url()).pathname, '/sign-in');
  });

  test('an unknown email is refused with form_identifier_not_found', async () => {
    const { page } = await suite.newPage();
    const attempt = nextFapiResponse(page, 'POST', /\/client\/sign_ins$/);
    await startSignIn(page, suite.server.origin, uniqueEmail('nobody'));
    const res = await attempt;
    assert.equal(res.status(), 422);
    assert.equal(await errorCodeOf(res), 'form_identifier_not_found');
    await page.locator('#error-identifier').getByText("Couldn't find your account.").waitFor();
  });

  test('a wrong email code is refused with form_code_incorrect', async () => {
    const { page } = await suite.newPage();
    await startSignIn(page, suite.server.origin, email);
    await waitForHash(page, '/factor-one');
    const since = new Date();
    await chooseEmailCode(page);
    const code = await waitForCode(suite.server.origin, email, since);
    const attempt = nextFapiResponse(page, 'POST', /\/attempt_first_factor$/);
    await enterCode(page, code === '999999' ? '888888' : '999999');
    const res = await attempt;
    assert.equal(res.status(), 422);
    assert.equal(await errorCodeOf(res), 'form_code_incorrect');
    await page.getByText('Incorrect code').waitFor();
  });
});
