import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { clickUntilRequest, uniqueEmail } from '../support/flows.ts';
import { errorCodeOf, nextFapiResponse, useSuite, type Suite } from '../support/suite.ts';

/** The text under the Clerk sign-up card's password field, once it matches. */
async function passwordFeedback(page: Page, text: RegExp) {
  await page.waitForFunction(
    (source) => new RegExp(source).test(document.querySelector('#error-password')?.textContent ?? ''),
    text.source,
    { timeout: 15_000 },
  );
}

async function refusedSignUp(suite: Suite, password: string, code: string, feedback: RegExp) {
  const { page } = await suite.newPage();
  const attempt = nextFapiResponse(page, 'POST', /\/client\/sign_ups$/);
  await page.goto(`${suite.server.origin}/sign-up`);
  await page.locator('input[name=emailAddress]').fill(uniqueEmail('policy'));
  await page.locator('input[name=password]').fill(password);
  // As a person would, continue once the card has judged the typed password: its own check, settling
  // after the typing, would otherwise replace the provider's refusal shown under the field.
  await page
    .getByText(/meets all the necessary requirements|not strong enough|Your password/i)
    .first()
    .waitFor();
  await clickUntilRequest(
    page,
    page.getByRole('button', { name: 'Continue', exact: true }),
    /\/v1\/client\/sign_ups$/,
  );
  const res = await attempt;
  assert.equal(res.status(), 422);
  assert.equal(await errorCodeOf(res), code);
  await passwordFeedback(page, feedback);
  assert.equal(await page.evaluate(() => location.hash.includes('verify-email-address')), false);
}

describe('password policy through the Clerk sign-up card (default instance)', () => {
  const suite = useSuite();

  test('a guessable password is refused as not strong enough, with zxcvbn advice', async () => {
    await refusedSignUp(suite, 'Password1!', 'form_password_not_strong_enough', /not strong enough/);
  });
});

// With the strength check on, clerk-js's own meter message replaces the provider's once its zxcvbn chunk
// has loaded (every breached password is also weak), so the breach message is seen on an instance that
// checks the list only.
describe('password policy through the Clerk sign-up card (breached list only)', () => {
  const suite = useSuite({ env: { IDENTITY_PASSWORD_MIN_STRENGTH: '0' } });

  test('a password from the breached list is refused with the breach message', async () => {
    await refusedSignUp(suite, 'password123', 'form_password_pwned', /found as part of a breach/);
  });
});
