import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { nextFapiResponse, useSuite } from '../support/suite.ts';
import {
  enterCode,
  signInWithPassword,
  signOutFromUserButton,
  signUp,
  uniqueEmail,
  waitForHash,
  waitForPath,
} from '../support/flows.ts';

/** What an authenticator app shows for `secret`, `steps` periods of 30 s from now. */
function totpCode(secret: string, steps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

async function openSecurity(page: Page) {
  await page.locator('.cl-userButtonTrigger').click();
  await page.getByRole('menuitem', { name: 'Manage account' }).click();
  await page.getByRole('button', { name: 'Security' }).click();
}

async function signOut(page: Page) {
  await signOutFromUserButton(page);
  await waitForPath(page, '/');
}

describe('two-step verification with an authenticator app, through the Clerk UI', () => {
  const suite = useSuite();
  const email = uniqueEmail('mfa');
  let page: Page;
  let secret: string;
  let backupCodes: string[];

  test('add an authenticator app in <UserProfile/> → Security, and see the backup codes', async () => {
    ({ page } = await suite.newPage());
    await signUp(page, suite.server.origin, email);
    await openSecurity(page);

    const created = nextFapiResponse(page, 'POST', /\/v1\/me\/totp$/);
    await page.getByRole('button', { name: 'Add two-step verification' }).click();
    await page.getByRole('menuitem', { name: 'Authenticator application' }).click();
    const createdBody = (await (await created).json()) as { response: { secret: string } };

    // The key an app without a camera is given, under "Can't scan QR code?".
    await page.getByRole('button', { name: /Can.t scan QR code\?/ }).click();
    const values = await page
      .locator('input')
      .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
    const shown = values.find((v) => /^[A-Z2-7]{32}$/.test(v));
    assert.ok(shown, `the secret is shown as text (inputs: ${JSON.stringify(values)})`);
    assert.equal(shown, createdBody.response.secret);
    assert.ok(
      values.some((v) => v.startsWith('otpauth://totp/') && v.includes(`secret=${shown}`)),
      'the otpauth URI is shown too',
    );
    secret = shown;

    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    const verified = nextFapiResponse(page, 'POST', /\/v1\/me\/totp\/attempt_verification$/);
    await enterCode(page, totpCode(secret));
    const verifiedRes = await verified;
    assert.equal(verifiedRes.status(), 200);
    backupCodes = ((await verifiedRes.json()) as { response: { backup_codes: string[] } }).response
      .backup_codes;
    assert.equal(backupCodes.length, 10);

    await page.getByText('Two-step verification is now enabled.', { exact: false }).waitFor();
    for (const code of backupCodes) await page.getByText(code, { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'Finish' }).click();

    // The Security page now lists the app and the backup codes.
    await page.getByText('Authenticator application', { exact: true }).first().waitFor();
    await page.getByText('Backup codes', { exact: true }).first().waitFor();
    await page.keyboard.press('Escape');
  });

  test('sign in with the password, then the authenticator code (#/factor-two)', async () => {
    await signOut(page);
    await signInWithPassword(page, suite.server.origin, email);
    await waitForHash(page, '/factor-two');
    await page.getByText('Two-step verification', { exact: true }).waitFor();
    const attempt = nextFapiResponse(page, 'POST', /\/attempt_second_factor$/);
    // The next step's code: the step of the enrolment code is spent, and ±1 step is accepted.
    await enterCode(page, totpCode(secret, 1));
    assert.equal((await attempt).status(), 200);
    await waitForPath(page, '/dashboard');
    await page.getByTestId('dashboard').waitFor();
  });

  test('sign in again with a backup code instead', async () => {
    await signOut(page);
    await signInWithPassword(page, suite.server.origin, email);
    await waitForHash(page, '/factor-two');
    await page
      .getByRole('link', { name: 'Use another method' })
      .or(page.getByRole('button', { name: 'Use another method' }))
      .click();
    await page.getByRole('button', { name: 'Use a backup code' }).click();
    await page.locator('input[name=code]').fill(backupCodes[0]!);
    const attempt = nextFapiResponse(page, 'POST', /\/attempt_second_factor$/);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    assert.equal((await attempt).status(), 200);
    await waitForPath(page, '/dashboard');
    await page.getByTestId('dashboard').waitFor();
  });
});
