import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { crc32, deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { useSuite, nextFapiResponse } from '../support/suite.ts';
import {
  clickUntilRequest,
  createOrganization,
  enterCode,
  PASSWORD,
  uniqueEmail,
  waitForHash,
  waitForPath,
} from '../support/flows.ts';
import { waitForCode } from '../support/outbox.ts';

/** A real 8×8 PNG, made here: red pixels, one IDAT chunk. */
function smallPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const size = 8;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array(size).fill([220, 38, 38]).flat())]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array(size).fill(row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function openManageAccount(page: Page) {
  await page.locator('.cl-userButtonTrigger').click();
  await page.getByRole('menuitem', { name: 'Manage account' }).click();
  await page.locator('.cl-userProfile-root').waitFor();
}

/** The three-dots menu of one entry of a <UserProfile/> list (email addresses, active devices). */
async function openItemMenu(page: Page, item: string, hasText: string | RegExp) {
  await page.locator(item).filter({ hasText }).getByRole('button', { name: 'Open menu' }).click();
}

describe('the user profile through the Clerk <UserProfile/>', () => {
  const suite = useSuite();
  const email = uniqueEmail('profile');
  const secondEmail = uniqueEmail('profile-second');
  const stamp = Date.now().toString(36);
  const username = `ada_${stamp}`;
  const newUsername = `countess.${stamp}`;
  let page: Page;

  // One tab for the whole file, opened outside any test: a test's own profile is handed on when it ends.
  before(async () => {
    ({ page } = await suite.newPage());
  });

  test('sign up with a username (the optional field of <SignUp/>)', async () => {
    const since = new Date();
    await page.goto(`${suite.server.origin}/sign-up`);
    await page.locator('input[name=username]').fill(username);
    await page.locator('input[name=emailAddress]').fill(email);
    await page.locator('input[name=password]').fill(PASSWORD);
    const created = nextFapiResponse(page, 'POST', /\/client\/sign_ups$/);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    assert.equal((await created).status(), 200);
    await waitForHash(page, '/verify-email-address');
    await enterCode(page, await waitForCode(suite.server.origin, email, since));
    await page.getByTestId('create-organization-page').waitFor();
    await createOrganization(page, `Profile ${stamp}`);
  });

  test('update the first and last name, then the username', async () => {
    await openManageAccount(page);
    await page.getByRole('button', { name: 'Update profile' }).click();
    await page.locator('input[name=firstName]').fill('Ada');
    await page.locator('input[name=lastName]').fill('Lovelace');
    const names = nextFapiResponse(page, 'PATCH', /\/v1\/me$/);
    await page.getByRole('button', { name: 'Save' }).click();
    assert.equal((await names).status(), 200);
    await page.locator('.cl-userProfile-root').getByText('Ada Lovelace').waitFor();

    await page.locator('.cl-profileSection__username').getByText(username).waitFor();
    await page.getByRole('button', { name: 'Update username' }).click();
    await page.locator('input[name=username]').fill(newUsername);
    const renamed = nextFapiResponse(page, 'PATCH', /\/v1\/me$/);
    await page.getByRole('button', { name: 'Save' }).click();
    assert.equal((await renamed).status(), 200);
    await page.locator('.cl-profileSection__username').getByText(newUsername).waitFor();
  });

  test('upload a profile image: served from our own origin', async () => {
    await page.getByRole('button', { name: 'Update profile' }).click();
    const png = smallPng();
    const upload = nextFapiResponse(page, 'POST', /\/v1\/me\/profile_image$/);
    await page
      .locator('.cl-userProfile-root input[type=file]')
      .setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: png });
    const response = await upload;
    assert.equal(response.status(), 200);
    const publicUrl = ((await response.json()) as { response: { public_url: string } }).response.public_url;
    assert.ok(
      publicUrl.startsWith(`${suite.server.origin}/__clerk/v1/images/users/`),
      `image served from our origin: ${publicUrl}`,
    );
    // Right after the upload Clerk briefly renders the form twice, the old copy disabled: close the live one.
    await page.getByRole('button', { name: 'Cancel', disabled: false }).click();
    // The profile shows it, loaded from our origin.
    const avatar = page.locator(`.cl-userProfile-root img[src="${publicUrl}"]`).first();
    await avatar.waitFor();
    await page.waitForFunction(
      (img) => img instanceof HTMLImageElement && img.naturalWidth === 8,
      await avatar.elementHandle(),
    );
    const served = await fetch(publicUrl);
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), png);
  });

  test('add a second email address, verify it with the emailed code, make it primary, remove the old one', async () => {
    await page.getByRole('button', { name: 'Add email address' }).click();
    await page.locator('input[name=emailAddress]').fill(secondEmail);
    const since = new Date();
    // clerk-js posts to `/me/email_addresses/`, with the trailing slash.
    const added = nextFapiResponse(page, 'POST', /\/v1\/me\/email_addresses\/?$/);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    assert.equal((await added).status(), 200);
    const verified = nextFapiResponse(page, 'POST', /\/attempt_verification$/);
    await enterCode(page, await waitForCode(suite.server.origin, secondEmail, since));
    assert.equal((await verified).status(), 200);

    const addresses = '.cl-profileSectionItem__emailAddresses';
    await page.locator(addresses).filter({ hasText: secondEmail }).waitFor();
    await openItemMenu(page, addresses, secondEmail);
    const primary = nextFapiResponse(page, 'PATCH', /\/v1\/me$/);
    await page.getByRole('menuitem', { name: 'Set as primary' }).click();
    assert.equal((await primary).status(), 200);
    await page.locator(addresses).filter({ hasText: secondEmail }).getByText('Primary').waitFor();

    await openItemMenu(page, addresses, email);
    await page.getByRole('menuitem', { name: 'Remove email' }).click();
    const removed = nextFapiResponse(page, 'DELETE', /\/v1\/me\/email_addresses\/idn_/);
    // A click that lands while the confirmation animates in can be ignored (seen once in CI): click until sent.
    await clickUntilRequest(
      page,
      page.getByRole('button', { name: 'Remove', exact: true }),
      /\/v1\/me\/email_addresses\/idn_/,
    );
    assert.equal((await removed).status(), 200);
    await page.locator(addresses).filter({ hasText: email }).waitFor({ state: 'detached' });
    assert.equal(await page.locator(addresses).count(), 1);
  });

  test('sign in with the username in a second browser; the Security tab lists both devices; sign the other out', async () => {
    const { page: other } = await suite.newPage();
    await other.goto(`${suite.server.origin}/sign-in`);
    await other.locator('input[name=identifier]').fill(newUsername);
    await other.getByRole('button', { name: 'Continue', exact: true }).click();
    await waitForHash(other, '/factor-one');
    await other.locator('input[name=password]').fill(PASSWORD);
    await other.getByRole('button', { name: 'Continue', exact: true }).click();
    await waitForPath(other, '/dashboard');

    // The first browser reads the devices afresh (clerk-js keeps the list once loaded).
    await page.reload();
    await openManageAccount(page);
    await page.getByRole('button', { name: 'Security' }).click();
    const devices = page.locator('.cl-activeDeviceListItem');
    await devices.nth(1).waitFor();
    assert.equal(await devices.count(), 2);
    const current = page.locator('.cl-activeDeviceListItem__current');
    await current.getByText('This device').waitFor();
    await current.getByText(/^Linux$/).waitFor();
    await current.getByText(/^Chrome \d+/).waitFor();

    const otherDevice = devices.filter({ hasNotText: 'This device' });
    await otherDevice.getByRole('button', { name: 'Open menu' }).click();
    const revoked = nextFapiResponse(page, 'POST', /\/v1\/me\/sessions\/sess_[^/]+\/revoke$/);
    await page.getByRole('menuitem', { name: 'Sign out of device' }).click();
    assert.equal((await revoked).status(), 200);

    // The other browser is signed out: its next request for the signed-in area goes to sign-in.
    await other.goto(`${suite.server.origin}/dashboard`);
    await waitForPath(other, '/sign-in');
    // This one is still signed in.
    await page.goto(`${suite.server.origin}/dashboard`);
    await page.getByTestId('dashboard').waitFor();
  });
});
