import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import type { Page } from 'playwright-core';
import { nextFapiResponse, useSuite } from '../support/suite.ts';
import { waitForCode, waitForSmsCode } from '../support/outbox.ts';
import {
  clickUntilRequest,
  PASSWORD,
  createOrganization,
  enterCode,
  signInWithPassword,
  signOutFromUserButton,
  uniqueEmail,
  waitForHash,
  waitForPath,
} from '../support/flows.ts';

/** A valid French mobile number nobody else has (SMS to Clerk's +1 555-01xx test numbers are not sent). */
const uniquePhone = () => `+336${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;

async function signOut(page: Page) {
  await signOutFromUserButton(page);
  await waitForPath(page, '/');
}

describe('phone numbers and SMS codes, through the Clerk UI', () => {
  const suite = useSuite();
  const email = uniqueEmail('phone');
  const phone = uniquePhone();
  const mfaPhone = uniquePhone();
  let page: Page;

  // One tab for the whole file, opened outside any test: a test's own profile is handed on when it ends.
  before(async () => {
    ({ page } = await suite.newPage());
  });

  test('sign up with a phone number: the email code, then the SMS code from /__dev/sms', async () => {
    const origin = suite.server.origin;
    const since = new Date();
    await page.goto(`${origin}/sign-up`);
    await page.locator('input[name=emailAddress]').fill(email);
    // Typed with its "+", the number picks its country in Clerk's phone input.
    await page.locator('input[name=phoneNumber]').fill(phone);
    await page.locator('input[name=password]').fill(PASSWORD);
    await clickUntilRequest(
      page,
      page.getByRole('button', { name: 'Continue', exact: true }),
      /\/v1\/client\/sign_ups$/,
    );

    await waitForHash(page, '/verify-email-address');
    await enterCode(page, await waitForCode(origin, email, since));
    await waitForHash(page, '/verify-phone-number');
    await page.getByText('Verify your phone', { exact: true }).waitFor();
    const attempt = nextFapiResponse(page, 'POST', /\/sign_ups\/[^/]+\/attempt_verification$/);
    await enterCode(page, await waitForSmsCode(origin, phone, since));
    assert.equal((await attempt).status(), 200);

    await page.getByTestId('create-organization-page').or(page.getByTestId('dashboard')).first().waitFor();
    if (await page.getByTestId('create-organization-page').isVisible()) {
      await createOrganization(page, 'Phone team');
    }
    await page.getByTestId('dashboard').waitFor();
    const primary = await page.evaluate(
      () =>
        (window as unknown as { Clerk: { user: { primaryPhoneNumber: { phoneNumber: string } | null } } })
          .Clerk.user.primaryPhoneNumber?.phoneNumber,
    );
    assert.equal(primary, phone);
  });

  test('sign in with the phone number and a code texted to it', async () => {
    await signOut(page);
    const origin = suite.server.origin;
    await page.goto(`${origin}/sign-in`);
    await page
      .getByRole('link', { name: 'Use phone' })
      .or(page.getByRole('button', { name: 'Use phone' }))
      .click();
    await page.locator('input[name=identifier]').fill(phone);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await waitForHash(page, '/factor-one');

    // The password comes first on this instance; the SMS code is among the other methods.
    await page
      .getByRole('link', { name: 'Use another method' })
      .or(page.getByRole('button', { name: 'Use another method' }))
      .click();
    const since = new Date();
    await page.getByRole('button', { name: /Send SMS code to/ }).click();
    await page.getByText('Check your phone', { exact: true }).waitFor();
    const attempt = nextFapiResponse(page, 'POST', /\/attempt_first_factor$/);
    await enterCode(page, await waitForSmsCode(origin, phone, since));
    assert.equal((await attempt).status(), 200);
    await waitForPath(page, '/dashboard');
    await page.getByTestId('dashboard').waitFor();
  });

  test('add a phone number in <UserProfile/> for SMS two-step verification, then sign in with it', async () => {
    const origin = suite.server.origin;
    await page.locator('.cl-userButtonTrigger').click();
    await page.getByRole('menuitem', { name: 'Manage account' }).click();
    await page.getByRole('button', { name: 'Security' }).click();
    await page.getByRole('button', { name: 'Add two-step verification' }).click();
    await page.getByRole('menuitem', { name: 'SMS code' }).click();
    // The sign-up number is offered; add another one instead.
    await page.getByRole('button', { name: 'Add phone number' }).click();
    const since = new Date();
    await page
      .locator('.cl-userProfile-root input[name=phoneNumber], .cl-modalContent input[name=phoneNumber]')
      .first()
      .fill(mfaPhone);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const reserved = nextFapiResponse(page, 'PATCH', /\/me\/phone_numbers\/[^/]+$/);
    await enterCode(page, await waitForSmsCode(origin, mfaPhone, since));
    const reservedRes = await reserved;
    assert.equal(reservedRes.status(), 200);
    const backupCodes = ((await reservedRes.json()) as { response: { backup_codes: string[] } }).response
      .backup_codes;
    assert.equal(backupCodes.length, 10, 'a first second factor brings backup codes');
    await page.getByText('SMS code verification enabled', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.getByText('SMS code', { exact: false }).first().waitFor();
    await page.keyboard.press('Escape');

    await signOut(page);
    await signInWithPassword(page, origin, email);
    await waitForHash(page, '/factor-two');
    const signInSince = new Date(Date.now() - 1000);
    await page.getByText('Check your phone', { exact: true }).waitFor();
    const attempt = nextFapiResponse(page, 'POST', /\/attempt_second_factor$/);
    await enterCode(page, await waitForSmsCode(origin, mfaPhone, signInSince));
    assert.equal((await attempt).status(), 200);
    await waitForPath(page, '/dashboard');
    await page.getByTestId('dashboard').waitFor();
  });
});
