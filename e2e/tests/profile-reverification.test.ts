import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import type { Page, Response } from 'playwright-core';
import { errorCodeOf, nextFapiResponse, useSuite } from '../support/suite.ts';
import { enterCode, PASSWORD, uniqueEmail } from '../support/flows.ts';
import { signedUpPage } from '../support/wire-session.ts';
import { waitForCode, waitForSmsCode } from '../support/outbox.ts';

const uniquePhone = () => `+336${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;

async function openManageAccount(page: Page) {
  await page.locator('.cl-userButtonTrigger').click();
  await page.getByRole('menuitem', { name: 'Manage account' }).click();
  await page.locator('.cl-userProfile-root').waitFor();
}

/** What Clerk's own reverification tests do right after signing in: open a verification of the session. */
async function startVerification(page: Page) {
  await page.evaluate(async () => {
    const clerk = (
      window as unknown as {
        Clerk: { session: { startVerification(p: { level: string }): Promise<unknown> } };
      }
    ).Clerk;
    await clerk.session.startVerification({ level: 'first_factor' });
  });
}

/** `updated_at` of the signed-in user in the client a Frontend API answer piggy-backs. */
async function userUpdatedAt(response: Response): Promise<number> {
  const body = (await response.json()) as {
    client: { last_active_session_id: string; sessions: { id: string; user: { updated_at: number } }[] };
  };
  const session = body.client.sessions.find((s) => s.id === body.client.last_active_session_id);
  return session!.user.updated_at;
}

/** The <UserVerification/> modal: the password, then Continue; useReverification retries the call. */
async function reverifyWithPassword(page: Page) {
  await page.getByText('Enter your current password to continue').first().waitFor();
  await page.locator('input[name=password]').fill(PASSWORD);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
}

/**
 * Clerk's integration tests `reverification.test.ts` (adding an email address, a phone number) through the
 * real <UserProfile/>: the gated call is refused until the modal completes, and what was added shows
 * without a reload, because the user's `updated_at` moved.
 */
describe('<UserProfile/> asks to verify again before adding an address or a number, and shows it at once', () => {
  const suite = useSuite();

  test('adding an email address after session.startVerification prompts for the password, then shows the verified address', async () => {
    const { page } = await signedUpPage(suite, 'reverify-email');
    await openManageAccount(page);
    await startVerification(page);

    const added = uniqueEmail('reverify-added');
    const before = await page.evaluate(() =>
      (window as unknown as { Clerk: { user: { updatedAt: Date } } }).Clerk.user.updatedAt.getTime(),
    );
    await page.getByRole('button', { name: 'Add email address' }).click();
    await page.locator('input[name=emailAddress]').fill(added);
    const refused = nextFapiResponse(page, 'POST', /\/v1\/me\/email_addresses\/?$/);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const first = await refused;
    assert.equal(first.status(), 403);
    assert.equal(await errorCodeOf(first), 'session_reverification_required');

    const since = new Date();
    const retried = nextFapiResponse(page, 'POST', /\/v1\/me\/email_addresses\/?$/);
    await reverifyWithPassword(page);
    const addedRes = await retried;
    assert.equal(addedRes.status(), 200);
    const verified = nextFapiResponse(page, 'POST', /\/email_addresses\/[^/]+\/attempt_verification$/);
    await enterCode(page, await waitForCode(suite.server.origin, added, since));
    const verifiedRes = await verified;
    assert.equal(verifiedRes.status(), 200);
    // What clerk-js compares before taking the new copy of the user: a strictly larger updated_at in
    // each answer carrying a change.
    const addedAt = await userUpdatedAt(addedRes);
    assert.ok(addedAt > before, `adding moved updated_at (${before} → ${addedAt})`);
    assert.ok((await userUpdatedAt(verifiedRes)) > addedAt, 'verifying moved updated_at');

    // No reload: clerk-js took the new copy of the user because its updated_at grew.
    await page.locator('.cl-profileSectionItem__emailAddresses').filter({ hasText: added }).waitFor();
    const listed = await page.evaluate(() =>
      (
        window as unknown as { Clerk: { user: { emailAddresses: { emailAddress: string }[] } } }
      ).Clerk.user.emailAddresses.map((e) => e.emailAddress),
    );
    assert.ok(listed.includes(added.toLowerCase()));
  });

  test('adding a phone number after session.startVerification prompts for the password, then shows the number', async () => {
    const { page } = await signedUpPage(suite, 'reverify-phone');
    await openManageAccount(page);
    await startVerification(page);

    const phone = uniquePhone();
    await page.getByRole('button', { name: 'Add phone number' }).click();
    await page.locator('.cl-userProfile-root input[name=phoneNumber]').first().fill(phone);
    const refused = nextFapiResponse(page, 'POST', /\/v1\/me\/phone_numbers\/?$/);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    assert.equal(await errorCodeOf(await refused), 'session_reverification_required');

    const since = new Date();
    const retried = nextFapiResponse(page, 'POST', /\/v1\/me\/phone_numbers\/?$/);
    await reverifyWithPassword(page);
    assert.equal((await retried).status(), 200);
    await enterCode(page, await waitForSmsCode(suite.server.origin, phone, since));
    await page.locator('.cl-profileSectionItem__phoneNumbers').first().waitFor();
    const numbers = await page.evaluate(() =>
      (
        window as unknown as { Clerk: { user: { phoneNumbers: { phoneNumber: string }[] } } }
      ).Clerk.user.phoneNumbers.map((p) => p.phoneNumber),
    );
    assert.deepEqual(numbers, [phone]);
  });

  test('closing the prompt adds nothing', async () => {
    const { page } = await signedUpPage(suite, 'reverify-cancel');
    await openManageAccount(page);
    await startVerification(page);

    const added = uniqueEmail('reverify-never');
    await page.getByRole('button', { name: 'Add email address' }).click();
    await page.locator('input[name=emailAddress]').fill(added);
    const refused = nextFapiResponse(page, 'POST', /\/v1\/me\/email_addresses\/?$/);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    assert.equal((await refused).status(), 403);
    await page.getByText('Enter your current password to continue').first().waitFor();
    await page.keyboard.press('Escape');
    await page.getByText('Enter your current password to continue').first().waitFor({ state: 'detached' });
    assert.equal(
      await page.locator('.cl-profileSectionItem__emailAddresses').filter({ hasText: added }).count(),
      0,
    );
    const rows = await suite.server.app.identity!.deps.db.query(
      'SELECT id FROM email_addresses WHERE lower(email_address) = lower($1)',
      [added],
    );
    assert.equal(rows.length, 0);
  });
});
