import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { backendClient, createOrganizationFor, createUser, type TestUser } from '../support/backend.ts';
import { settledUrl, signInWithPassword, waitForPath } from '../support/flows.ts';
import { useSuite } from '../support/suite.ts';

/** Opens `route` as a person typing it would, and returns the path the app settles on. */
async function settledPathAfterOpening(page: Page, origin: string, route: string): Promise<string> {
  await page.goto(`${origin}${route}`);
  return new URL(await settledUrl(page), origin).pathname;
}

const ENTRY_ROUTES = ['/', '/dashboard', '/settings', '/members', '/sign-in'];

/**
 * Spec §2 and §4: one place decides where a signed-in user lands. Whatever they open, a user without an
 * organisation ends on (and stays on) the create-organisation screen; a user with memberships gets the
 * first one made active and stays where they asked to be (the dashboard for the landing and sign-in pages).
 */
describe('where each entry route settles', () => {
  const suite = useSuite();
  let origin = '';
  before(() => {
    origin = suite.server.origin;
  });

  const signedInPage = async (user: TestUser, expectedPath: string) => {
    const { page } = await suite.newPage();
    await signInWithPassword(page, origin, user.email);
    await waitForPath(page, expectedPath);
    return page;
  };

  test('a user without an organisation ends on /create-organization from every entry route', async () => {
    const user = await createUser(suite.server, 'entry-no-org');
    const page = await signedInPage(user, '/create-organization');
    for (const route of ENTRY_ROUTES) {
      assert.equal(await settledPathAfterOpening(page, origin, route), '/create-organization', route);
      await page.getByTestId('create-organization-page').waitFor();
    }
  });

  test('a user with memberships gets the first made active and stays on the page asked for', async () => {
    const clerk = backendClient(suite.server);
    const user = await createUser(suite.server, 'entry-member');
    await createOrganizationFor(clerk, user, 'Entry One');
    await createOrganizationFor(clerk, user, 'Entry Two');
    // A fresh sign-in has no active organisation yet: the rule makes the first membership's active.
    const page = await signedInPage(user, '/dashboard');
    const firstMembership = () =>
      page.evaluate(() => {
        const clerkJs = (
          window as unknown as {
            Clerk: {
              organization: { id: string } | null;
              user: { organizationMemberships: { organization: { id: string } }[] };
            };
          }
        ).Clerk;
        return {
          active: clerkJs.organization?.id ?? null,
          first: clerkJs.user.organizationMemberships[0]?.organization.id ?? null,
        };
      });
    await page.getByTestId('dashboard-org-name').waitFor();
    const { active, first } = await firstMembership();
    assert.match(first ?? '', /^org_/);
    assert.equal(active, first);

    const expected: Record<string, string> = {
      '/': '/dashboard',
      '/dashboard': '/dashboard',
      '/settings': '/settings',
      '/members': '/members',
      '/sign-in': '/dashboard',
    };
    for (const route of ENTRY_ROUTES) {
      assert.equal(await settledPathAfterOpening(page, origin, route), expected[route], route);
      assert.equal((await firstMembership()).active, first, route);
    }
  });

  test('signed out, the landing page stays and a signed-in page asks for sign-in', async () => {
    const { page } = await suite.newPage();
    assert.equal(await settledPathAfterOpening(page, origin, '/'), '/');
    await page.getByTestId('landing').waitFor();
    for (const route of ['/dashboard', '/settings', '/members', '/create-organization']) {
      await page.goto(`${origin}${route}`);
      assert.equal(new URL(await settledUrl(page), origin).pathname, '/sign-in', route);
      // The way back after signing in, which the hash-routed card keeps in its hash.
      const hash = new URLSearchParams(new URL(page.url()).hash.replace(/^#\/?\??/, ''));
      assert.equal(new URL(hash.get('redirect_url') ?? '', origin).pathname, route, route);
    }
  });
});
