import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSuite, nextFapiResponse } from '../support/suite.ts';
import { createUser } from '../support/backend.ts';
import {
  clickUntilRequest,
  settledUrl,
  signInWithPassword,
  signOutFromUserButton,
  waitForPath,
} from '../support/flows.ts';
import { signedInPage, signedUpPage } from '../support/wire-session.ts';
import type { Page } from 'playwright-core';

async function openSecurity(page: Page) {
  await page.locator('.cl-userButtonTrigger').click();
  await page.getByRole('menuitem', { name: 'Manage account' }).click();
  await page.getByRole('button', { name: 'Security' }).click();
}

describe('account management in the Clerk <UserProfile/>', () => {
  const suite = useSuite();

  test('change the password, then sign in with the new one', async () => {
    // Signed up with a first organisation over the wire: signing up is not what this test is about.
    const {
      page,
      user: { email },
    } = await signedUpPage(suite, 'chpw');
    await openSecurity(page);
    await page.getByRole('button', { name: 'Update password' }).click();
    // The instance re-verifies sensitive actions, so Clerk's form asks for no current password.
    assert.equal(await page.locator('input[name=currentPassword]').count(), 0);
    await page.locator('input[name=newPassword]').fill('a-brand-new-passphrase');
    await page.locator('input[name=confirmPassword]').fill('a-brand-new-passphrase');
    const change = nextFapiResponse(page, 'POST', /\/me\/change_password$/);
    // Under load the strength check, loaded as the password is typed, can swallow the first click.
    await clickUntilRequest(page, page.getByRole('button', { name: 'Save' }), /\/me\/change_password$/);
    assert.equal((await change).status(), 200);
    await page.keyboard.press('Escape');
    await signOutFromUserButton(page);
    await waitForPath(page, '/');

    await signInWithPassword(page, suite.server.origin, email, 'a-brand-new-passphrase');
    await waitForPath(page, '/dashboard');
  });

  test('delete the account: signed out, and the address can no longer sign in', async () => {
    // Signed up with a first organisation over the wire: signing up is not what this test is about.
    const {
      page,
      user: { email },
    } = await signedUpPage(suite, 'delete');
    await openSecurity(page);
    await page.getByRole('button', { name: 'Delete account' }).click();
    await page.locator('input[name=deleteConfirmation]').fill('Delete account');
    const del = nextFapiResponse(page, 'DELETE', /\/v1\/me$/);
    await page.getByRole('button', { name: 'Delete account' }).last().click();
    assert.equal((await del).status(), 200);
    await waitForPath(page, '/');

    const attempt = nextFapiResponse(page, 'POST', /\/client\/sign_ins$/);
    await page.goto(`${suite.server.origin}/sign-in`);
    await page.locator('input[name=identifier]').fill(email);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    assert.equal((await attempt).status(), 422);
  });

  test('delete the account of a user without an organisation: it ends on the after-sign-out page /', async () => {
    // On /create-organization, whose guard used to send the just-deleted user to sign-in before
    // clerk-js navigated to the after-sign-out page.
    const user = await createUser(suite.server, 'delete-no-org');
    const { page } = await signedInPage(suite, user);
    await waitForPath(page, '/create-organization');
    await page.getByTestId('create-organization-page').waitFor();
    await openSecurity(page);
    await page.getByRole('button', { name: 'Delete account' }).click();
    await page.locator('input[name=deleteConfirmation]').fill('Delete account');
    const del = nextFapiResponse(page, 'DELETE', /\/v1\/me$/);
    await page.getByRole('button', { name: 'Delete account' }).last().click();
    assert.equal((await del).status(), 200);
    await waitForPath(page, '/');
    assert.equal(await settledUrl(page), '/');
    await page.getByTestId('landing').waitFor();
  });
});
