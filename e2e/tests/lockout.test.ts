import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createClerkClient } from '@clerk/backend';
import type { Page } from 'playwright-core';
import { errorCodeOf, nextFapiResponse, useSuite } from '../support/suite.ts';
import { PASSWORD, startSignIn, waitForHash, waitForPath } from '../support/flows.ts';
import { wireSignUp } from '../support/wire-session.ts';

/** The card's global error (no field): where Clerk shows `user_locked` and `too_many_requests`. */
const cardAlert = (page: Page) => page.locator('.cl-alert').first();

async function wrongPassword(page: Page, attempt: number) {
  await page.locator('input[name=password]').fill(`wrong password ${attempt}`);
  const res = nextFapiResponse(page, 'POST', /\/attempt_first_factor$/);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  return res;
}

describe('account lockout and rate limits, as the Clerk UI shows them', () => {
  // Small limits so that the test reaches them quickly: 3 failures lock, 3 sign-ins a minute per identifier.
  const suite = useSuite({
    env: { IDENTITY_LOCKOUT_MAX_ATTEMPTS: '3', IDENTITY_RATE_LIMIT_SIGN_IN_PER_IDENTIFIER: '3' },
  });
  let locked: string;
  let limited: string;

  before(async () => {
    // Signed up over the wire: what is under test is signing in with wrong passwords.
    locked = (await wireSignUp(suite.server, 'locked')).user.email;
    limited = (await wireSignUp(suite.server, 'limited')).user.email;
  });

  test('after 3 wrong passwords the account is locked: the sign-in card says so; the Backend API unlocks it', async () => {
    const { page } = await suite.newPage();
    await startSignIn(page, suite.server.origin, locked);
    await waitForHash(page, '/factor-one');
    for (let i = 1; i <= 3; i++) {
      assert.equal(await errorCodeOf(await wrongPassword(page, i)), 'form_password_incorrect');
    }
    // Even the right password is refused now; clerk-js goes back to the start card with the message.
    await page.locator('input[name=password]').fill(PASSWORD);
    const refused = nextFapiResponse(page, 'POST', /\/attempt_first_factor$/);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    const res = await refused;
    assert.equal(res.status(), 403);
    assert.equal(await errorCodeOf(res), 'user_locked');
    await cardAlert(page).getByText('Your account is locked', { exact: false }).waitFor();
    await cardAlert(page).getByText('60 minutes', { exact: false }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/sign-in');

    // An operator unlocks the account (users.unlockUser, as with hosted Clerk).
    const clerk = createClerkClient({
      apiUrl: `${suite.server.origin}/__clerk_backend`,
      secretKey: suite.server.app.identity!.secretKey,
    });
    const [user] = (await clerk.users.getUserList({ emailAddress: [locked] })).data;
    assert.ok(user);
    assert.equal(user.locked, true);
    assert.equal((await clerk.users.unlockUser(user.id)).locked, false);

    await startSignIn(page, suite.server.origin, locked);
    await waitForHash(page, '/factor-one');
    await page.locator('input[name=password]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await waitForPath(page, '/dashboard');
  });

  test('the 4th sign-in for one identifier within a minute is 429: the card shows the wait', async () => {
    const { page } = await suite.newPage();
    for (let i = 1; i <= 3; i++) {
      const ok = nextFapiResponse(page, 'POST', /\/client\/sign_ins$/);
      await startSignIn(page, suite.server.origin, limited);
      assert.equal((await ok).status(), 200, `sign-in ${i}`);
      await waitForHash(page, '/factor-one');
    }
    const limitedRes = nextFapiResponse(page, 'POST', /\/client\/sign_ins$/);
    await startSignIn(page, suite.server.origin, limited);
    const res = await limitedRes;
    assert.equal(res.status(), 429);
    assert.equal(await errorCodeOf(res), 'too_many_requests');
    const retryAfter = Number(res.headers()['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `retry-after ${retryAfter}`);
    await cardAlert(page)
      .getByText(/Too many requests\. Please try again in \d+ seconds?\./)
      .waitFor();
    assert.equal(new URL(page.url()).hash, '', 'still on the first step');
  });
});
