import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { errorCodeOf, nextFapiResponse, useSuite, type Suite } from '../support/suite.ts';
import { PASSWORD, waitForClerkSession, waitForPath } from '../support/flows.ts';
import { signedUpPage } from '../support/wire-session.ts';

async function openSecurity(page: Page) {
  await page.locator('.cl-userButtonTrigger').click();
  await page.getByRole('menuitem', { name: 'Manage account' }).click();
  await page.getByRole('button', { name: 'Security' }).click();
}

/**
 * Moves this browser's session's last factor verification 11 minutes into the past, as if the user had
 * signed in then: Clerk's `strict` re-verification (10 minutes) then applies, without waiting.
 */
async function ageSession(suite: Suite, page: Page, minutes: number) {
  await waitForClerkSession(page);
  const sessionId = await page.evaluate(
    () => (window as unknown as { Clerk: { session: { id: string } } }).Clerk.session.id,
  );
  await suite.server.app.identity!.deps.db.query(
    `UPDATE sessions SET first_factor_verified_at = first_factor_verified_at - make_interval(mins => $2)
     WHERE id = $1`,
    [sessionId, minutes],
  );
}

describe('re-verification before a sensitive action, through the Clerk <UserVerification/> modal', () => {
  const suite = useSuite();

  test('deleting the account from a session older than 10 minutes asks for the password, then proceeds', async () => {
    const {
      page,
      user: { email },
    } = await signedUpPage(suite, 'reverify');
    await ageSession(suite, page, 11);

    await openSecurity(page);
    await page.getByRole('button', { name: 'Delete account' }).click();
    await page.locator('input[name=deleteConfirmation]').fill('Delete account');
    const refused = nextFapiResponse(page, 'DELETE', /\/v1\/me$/);
    const started = nextFapiResponse(page, 'POST', /\/client\/sessions\/sess_[^/]+\/verify$/);
    await page.getByRole('button', { name: 'Delete account' }).last().click();
    const first = await refused;
    assert.equal(first.status(), 403);
    assert.equal(await errorCodeOf(first), 'session_reverification_required');
    assert.equal((await started).status(), 200);

    // Clerk's re-verification modal: the password first (the instance prefers it).
    await page.getByText('Enter your current password to continue').first().waitFor();
    await page.locator('input[name=password]').fill('not the password');
    const wrong = nextFapiResponse(page, 'POST', /\/verify\/attempt_first_factor$/);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    assert.equal(await errorCodeOf(await wrong), 'form_password_incorrect');
    await page.getByText('Password is incorrect', { exact: false }).first().waitFor();

    await page.locator('input[name=password]').fill(PASSWORD);
    const verified = nextFapiResponse(page, 'POST', /\/verify\/attempt_first_factor$/);
    const retried = nextFapiResponse(page, 'DELETE', /\/v1\/me$/);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    assert.equal((await verified).status(), 200);
    // useReverification retries the original call once the modal completes.
    assert.equal((await retried).status(), 200);
    await waitForPath(page, '/');

    const attempt = nextFapiResponse(page, 'POST', /\/client\/sign_ins$/);
    await page.goto(`${suite.server.origin}/sign-in`);
    await page.locator('input[name=identifier]').fill(email);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    assert.equal(await errorCodeOf(await attempt), 'form_identifier_not_found');
  });
});
