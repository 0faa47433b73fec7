import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { addMember, backendClient, createUser } from '../support/backend.ts';
import { sessionToken, waitForPath } from '../support/flows.ts';
import { signedInPage, signedUpPage } from '../support/wire-session.ts';
import { useSuite } from '../support/suite.ts';
import { UI_WAIT_MS } from '../support/timeouts.ts';

/**
 * API keys through the real Clerk UI (<APIKeys/> in <UserProfile/>, <OrganizationProfile/> and the
 * product's /api-keys page): create with an expiration, reveal and copy the secret, revoke. The secret
 * then calls the product API as its organisation, and is refused once revoked or expired. A member
 * without `org:sys_api_keys:read` sees no organisation keys anywhere.
 */
describe('API keys', () => {
  const suite = useSuite();

  /** The product API with `Authorization: Bearer <secret>`, as a script with the key would call it. */
  const callWithKey = async (secret: string, path = '/api/organizations/current') => {
    const res = await fetch(`${suite.server.origin}${path}`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    return {
      status: res.status,
      body: (await res.json()) as Record<string, unknown> & { errors?: { code: string }[] },
    };
  };

  /**
   * A new user with a first organisation, signed up over the wire (signing up is not what these tests
   * are about), in a browser that may read and write the clipboard, on the dashboard.
   */
  const signedUpWithClipboard = (label: string) =>
    signedUpPage(suite, label, {
      beforeLoad: (context) =>
        context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.origin }),
    });

  /** "Add new key" → name, an expiration option → "Create key"; the key's id from clerk-js's answer. */
  async function addKey(page: Page, root: Locator, name: string, expiration: string): Promise<string> {
    await root.locator('.cl-apiKeysAddButton').click();
    await root.locator('.cl-apiKeysCreateFormNameInput input').fill(name);
    await root.locator('.cl-apiKeysCreateFormExpirationInput button').first().click();
    await page.getByText(expiration, { exact: true }).last().click();
    const created = page.waitForResponse(
      (r) => new URL(r.url()).pathname.endsWith('/api_keys') && r.request().method() === 'POST',
      { timeout: UI_WAIT_MS },
    );
    await root.getByRole('button', { name: 'Create key' }).click();
    const res = await created;
    assert.equal(res.status(), 200, await res.text());
    const body = (await res.json()) as {
      response: { id: string; expiration: number | null; created_at: number };
    };
    await rowOf(root, name).waitFor();
    return body.response.id;
  }

  const rowOf = (root: Locator, name: string) =>
    root.locator('.cl-apiKeysTable tr').filter({ hasText: name });

  /** "Show key": the secret in the row's field; then "Copy API key": the same on the clipboard. */
  async function revealAndCopy(page: Page, root: Locator, name: string): Promise<string> {
    const row = rowOf(root, name);
    await row.getByRole('button', { name: 'Show key' }).click();
    const field = row.getByLabel('API key (hidden)');
    await page.waitForFunction(
      (el) => (el as HTMLInputElement | null)?.value.startsWith('ak_') === true,
      await field.elementHandle(),
      { timeout: UI_WAIT_MS },
    );
    const secret = await field.inputValue();
    assert.match(secret, /^ak_[0-9A-Za-z]{48}$/);
    await row.getByRole('button', { name: 'Copy API key' }).click();
    await row.getByRole('button', { name: 'Copied API key to clipboard' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
    return secret;
  }

  /** The row's menu → "Revoke key" → type "Revoke" → "Revoke key"; the row leaves the list. */
  async function revoke(page: Page, root: Locator, name: string) {
    await rowOf(root, name).getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('menuitem', { name: 'Revoke key' }).click();
    await page.getByPlaceholder('Revoke').fill('Revoke');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await rowOf(root, name).waitFor({ state: 'detached' });
  }

  test("a user's own key in <UserProfile/>: create with an expiration, reveal, copy, revoke", async () => {
    const { page } = await signedUpWithClipboard('keys-user');
    await page.locator('.cl-userButtonTrigger').click();
    await page.getByRole('menuitem', { name: 'Manage account' }).click();
    const profile = page.locator('.cl-userProfile-root');
    await profile.waitFor();
    await profile.getByRole('button', { name: 'API keys' }).click();
    await profile.locator('.cl-apiKeys').waitFor();

    await addKey(page, profile, 'laptop script', '7 Days');
    await rowOf(profile, 'laptop script')
      .getByText(/Expires/)
      .waitFor();
    const secret = await revealAndCopy(page, profile, 'laptop script');
    // A user's key acts for no organisation: the product's organisation route says so.
    const personal = await callWithKey(secret);
    assert.equal(personal.status, 404, JSON.stringify(personal.body));
    assert.equal(personal.body.errors?.[0]?.code, 'no_active_organization');

    await revoke(page, profile, 'laptop script');
    const refused = await callWithKey(secret);
    assert.equal(refused.status, 401, JSON.stringify(refused.body));
  });

  test("an organisation's key: made on the product's page, seen in <OrganizationProfile/>, used, revoked", async () => {
    const { page } = await signedUpWithClipboard('keys-admin');
    const me = await fetch(`${suite.server.origin}/api/me`, {
      headers: { authorization: `Bearer ${await sessionToken(page)}` },
    });
    const orgId = ((await me.json()) as { orgId: string }).orgId;
    assert.match(orgId, /^org_/);

    await page.getByTestId('nav-api-keys').click();
    await waitForPath(page, '/api-keys');
    const onPage = page.getByTestId('api-keys-page');
    await onPage.locator('.cl-apiKeys').waitFor();
    await addKey(page, onPage, 'nightly export', '30 Days');
    const secret = await revealAndCopy(page, onPage, 'nightly export');

    // The key reads its organisation through the product API, and nothing that needs a person.
    const current = await callWithKey(secret);
    assert.equal(current.status, 200, JSON.stringify(current.body));
    assert.equal(current.body.id, orgId);
    const me2 = await callWithKey(secret, '/api/me');
    assert.equal(me2.status, 403);

    // The same key in the organisation's settings ("API keys" page of <OrganizationProfile/>).
    await page.goto(`${suite.server.origin}/organization/organization-api-keys`);
    const orgProfile = page.locator('.cl-organizationProfile-root');
    await rowOf(orgProfile, 'nightly export').waitFor();
    await revoke(page, orgProfile, 'nightly export');

    const refused = await callWithKey(secret);
    assert.equal(refused.status, 401, JSON.stringify(refused.body));
    assert.equal(refused.body.errors?.[0]?.code, 'unauthenticated');

    // An expired key is refused too: one of a second, made by the operator through the Backend API.
    const short = await backendClient(suite.server).apiKeys.create({
      name: 'one second',
      subject: orgId,
      secondsUntilExpiration: 1,
    });
    assert.equal((await callWithKey(short.secret!)).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const expired = await callWithKey(short.secret!);
    assert.equal(expired.status, 401, JSON.stringify(expired.body));
  });

  test('a member without the permission sees no organisation keys', async () => {
    const clerk = backendClient(suite.server);
    const admin = await createUser(suite.server, 'keys-owner');
    const organization = await clerk.organizations.createOrganization({
      name: 'Keys Firm',
      createdBy: admin.id,
    });
    await clerk.apiKeys.create({ name: 'secret pipeline', subject: organization.id, createdBy: admin.id });
    const memberUser = await createUser(suite.server, 'keys-member');
    await addMember(clerk, organization.id, memberUser.id, 'org:member');

    const { page } = await signedInPage(suite, memberUser);
    await page.getByTestId('dashboard').waitFor();
    assert.equal(await page.getByTestId('nav-api-keys').count(), 0);
    await page.goto(`${suite.server.origin}/api-keys`);
    await page.getByTestId('api-keys-unavailable').waitFor();
    assert.equal(await page.getByTestId('api-keys-unavailable').getAttribute('data-reason'), 'no-permission');
    assert.equal(await page.locator('.cl-apiKeys').count(), 0);

    // <OrganizationProfile/> offers no "API keys" page to them.
    await page.goto(`${suite.server.origin}/organization`);
    const orgProfile = page.locator('.cl-organizationProfile-root');
    await orgProfile.getByRole('button', { name: 'Members' }).waitFor();
    assert.equal(await orgProfile.getByRole('button', { name: 'API keys' }).count(), 0);

    // And the Frontend API lists nothing to them, asked as clerk-js asks.
    const listed = await page.evaluate(
      async (subject) =>
        (
          await (
            window as unknown as {
              Clerk: { apiKeys: { getAll(p: { subject: string }): Promise<unknown[]> } };
            }
          ).Clerk.apiKeys.getAll({ subject })
        ).length,
      organization.id,
    );
    assert.equal(listed, 0);
  });
});
