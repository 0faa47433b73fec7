import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { useSuite, nextFapiResponse, errorCodeOf } from '../support/suite.ts';
import {
  enterCode,
  signOutFromUserButton,
  signUp,
  startSignIn,
  uniqueEmail,
  waitForHash,
  waitForPath,
  PASSWORD,
} from '../support/flows.ts';
import { waitForCode } from '../support/outbox.ts';

const NEW_PASSWORD = 'violet-lanterns-drift-north';

/** On "Set new password": both fields, then "Reset Password"; ends signed in on the dashboard. */
async function setNewPassword(page: Page, password: string) {
  await page.locator('input[name=password]').fill(password);
  await page.locator('input[name=confirmPassword]').fill(password);
  // Clerk checks both fields as they are typed (the strength check loads lazily): submit once it agrees.
  await page.getByText('Your password meets all the necessary requirements.').waitFor();
  await page.getByText('Passwords match.').waitFor();
  const reset = nextFapiResponse(page, 'POST', /\/reset_password$/);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  assert.equal((await reset).status(), 200);
  await waitForPath(page, '/dashboard');
}

/** The password card of factor one: submits `password` and returns the attempt's answer. */
async function submitPassword(page: Page, password: string) {
  await page.locator('input[name=password]').fill(password);
  const attempt = nextFapiResponse(page, 'POST', /\/attempt_first_factor$/);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  return attempt;
}

describe('password reset through the Clerk UI', () => {
  const suite = useSuite();
  const email = uniqueEmail('reset');
  let firstBrowser: Page;

  before(async () => {
    const { page } = await suite.newPage();
    await signUp(page, suite.server.origin, email);
    // Kept signed in: the reset below signs it out ("Sign out of all other devices" is ticked by default).
    firstBrowser = page;
  });

  test('"Forgot password?", the code from the outbox, a new password: signed in; the old password fails', async () => {
    const { page } = await suite.newPage();
    await startSignIn(page, suite.server.origin, email);
    await waitForHash(page, '/factor-one');
    await page
      .getByRole('link', { name: 'Forgot password?' })
      .or(page.getByRole('button', { name: 'Forgot password?' }))
      .click();
    const since = new Date();
    const prepared = nextFapiResponse(page, 'POST', /\/prepare_first_factor$/);
    await page.getByRole('button', { name: 'Reset your password' }).click();
    assert.equal((await prepared).status(), 200);
    await page.getByText('First, enter the code sent to your email address').waitFor();
    await enterCode(page, await waitForCode(suite.server.origin, email, since));
    await waitForHash(page, '/reset-password');
    await page.getByText('Set new password').waitFor();
    assert.ok(await page.getByRole('checkbox', { name: 'Sign out of all other devices' }).isChecked());
    await setNewPassword(page, NEW_PASSWORD);
    assert.equal(await page.getByTestId('user-email').textContent(), email);

    // The other browser's session was ended with the reset.
    await firstBrowser.goto(`${suite.server.origin}/dashboard`);
    await waitForPath(firstBrowser, '/sign-in');

    await signOutFromUserButton(page);
    await waitForPath(page, '/');
    await startSignIn(page, suite.server.origin, email);
    await waitForHash(page, '/factor-one');
    const old = await submitPassword(page, PASSWORD);
    assert.equal((await old).status(), 422);
    assert.equal(await errorCodeOf(await old), 'form_password_incorrect');
    await page.locator('#error-password').getByText('Password is incorrect').waitFor();
    assert.equal((await submitPassword(page, NEW_PASSWORD)).status(), 200);
    await waitForPath(page, '/dashboard');
    assert.equal(await page.getByTestId('user-email').textContent(), email);
  });

  test('an operator requires a new password: the right password leads to "Set new password"', async () => {
    const backend = `${suite.server.origin}/__clerk_backend/v1`;
    const auth = { authorization: `Bearer ${suite.server.app.identity!.secretKey}` };
    const [user] = (await (
      await fetch(`${backend}/users?email_address=${encodeURIComponent(email)}`, { headers: auth })
    ).json()) as { id: string }[];
    const required = await fetch(`${backend}/users/${user!.id}/require_password_reset`, {
      method: 'POST',
      headers: auth,
    });
    assert.equal(required.status, 200);

    const { page } = await suite.newPage();
    await startSignIn(page, suite.server.origin, email);
    await waitForHash(page, '/factor-one');
    const attempt = await submitPassword(page, NEW_PASSWORD);
    assert.equal(attempt.status(), 200);
    assert.equal(
      ((await attempt.json()) as { response: { status: string } }).response.status,
      'needs_new_password',
    );
    await waitForHash(page, '/reset-password');
    await page.getByText('For security reasons, it is required to reset your password.').waitFor();
    await setNewPassword(page, 'amber-harbour-quiet-meadow');
    assert.equal(await page.getByTestId('user-email').textContent(), email);
  });
});
