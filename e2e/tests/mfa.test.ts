import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { nextFapiResponse, useSuite } from '../support/suite.ts';
import { waitForInvitationLink } from '../support/outbox.ts';
import {
  enterCode,
  signInWithPassword,
  signOutFromUserButton,
  signUp,
  uniqueEmail,
  waitForHash,
  waitForPath,
} from '../support/flows.ts';
import { signedUpPage } from '../support/wire-session.ts';

const STEP_MS = 30_000;
/** The latest 30 s step whose code was spent: the server accepts each step once. */
let lastSpentStep = 0;

/** What an authenticator app shows for `secret` during 30 s step number `step`. */
function totpCode(secret: string, step: number): string {
  const totp = new TOTP({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: STEP_MS / 1000,
  });
  lastSpentStep = Math.max(lastSpentStep, step);
  return totp.generate({ timestamp: step * STEP_MS });
}

/**
 * The code of the earliest step the server still accepts (±1 step around its clock, each step once): the
 * previous step while it stays in the window for the next 10 s (time to type it), else the current, else
 * the next. Three codes in a row then need no wait; a fourth within one step would wait for the clock.
 */
async function unspentTotpCode(secret: string): Promise<string> {
  for (;;) {
    const now = Date.now();
    const current = Math.floor(now / STEP_MS);
    const previousStaysValid = now + 10_000 < (current + 1) * STEP_MS;
    for (const step of [...(previousStaysValid ? [current - 1] : []), current, current + 1]) {
      if (step > lastSpentStep) return totpCode(secret, step);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
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

  // One tab for the whole file, opened outside any test: a test's own profile is handed on when it ends.
  before(async () => {
    ({ page } = await suite.newPage());
  });

  test('add an authenticator app in <UserProfile/> → Security, and see the backup codes', async () => {
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
    await enterCode(page, await unspentTotpCode(secret));
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
    // A later step's code than the enrolment's, which is spent (±1 step is accepted).
    await enterCode(page, await unspentTotpCode(secret));
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

  test('an organisation invitation link still asks for the authenticator code (#/factor-two) before joining', async () => {
    // Anyone can create an organisation and invite any address: the ticket proves the address only.
    const { page: inviter } = await signedUpPage(suite, 'mfa-inviter', { organization: 'Invite Lure' });
    await inviter.goto(`${suite.server.origin}/organization/organization-members`);
    await inviter.getByRole('button', { name: 'Invite' }).click();
    await inviter.getByTestId('tag-input').pressSequentially(`${email},`);
    const since = new Date();
    const sent = nextFapiResponse(inviter, 'POST', /\/invitations\/bulk$/);
    await inviter.getByRole('button', { name: 'Send invitations' }).click();
    assert.equal((await sent).status(), 200);
    const link = await waitForInvitationLink(suite.server.origin, email, since);

    await signOut(page);
    const ticketSignIn = nextFapiResponse(page, 'POST', /\/v1\/client\/sign_ins$/);
    await page.goto(link);
    const started = (await (await ticketSignIn).json()) as { response: { status: string } };
    assert.equal(started.response.status, 'needs_second_factor');
    await waitForHash(page, '/factor-two');
    await page.getByText('Two-step verification', { exact: true }).waitFor();
    const attempt = nextFapiResponse(page, 'POST', /\/attempt_second_factor$/);
    await enterCode(page, await unspentTotpCode(secret));
    assert.equal((await attempt).status(), 200);
    await waitForPath(page, '/dashboard');
    await page.getByTestId('dashboard').waitFor();
    // Joined only now that the second factor is proven.
    const organizations = await page.evaluate(async () => {
      const clerk = (
        window as unknown as {
          Clerk: {
            user: {
              getOrganizationMemberships(): Promise<{ data: { organization: { name: string } }[] }>;
            };
          };
        }
      ).Clerk;
      return (await clerk.user.getOrganizationMemberships()).data.map((m) => m.organization.name);
    });
    assert.ok(organizations.includes('Invite Lure'), JSON.stringify(organizations));
  });
});
