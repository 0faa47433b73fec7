import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import {
  addMember,
  backendClient,
  createOrganizationFor,
  createUser,
  setOrganizationSettings,
} from '../support/backend.ts';
import { useSuite } from '../support/suite.ts';
import { sessionToken, waitForPath } from '../support/flows.ts';
import { openSignedIn, signedInPage, signedUpPage, wireSignUp } from '../support/wire-session.ts';

const MODULE_KEYS = ['vCiso', 'compliance', 'qompanion', 'hexadiag', 'passport'] as const;

/** The module links the navigation shows, by key. */
async function navModules(page: Page): Promise<string[]> {
  const ids = await page
    .locator('[data-testid^="nav-module-"]')
    .evaluateAll((links) => links.map((l) => l.getAttribute('data-testid')));
  return ids.map((id) => id!.replace('nav-module-', ''));
}

describe('modules: navigation, module pages and the not-enabled page', () => {
  const suite = useSuite();

  /** What the member and switch-off tests need: an organisation with compliance and passport on, in English. */
  async function organizationWithTwoModules() {
    const clerk = backendClient(suite.server);
    const admin = await createUser(suite.server, 'modules-admin');
    const organization = await createOrganizationFor(clerk, admin, 'Modules Firm');
    await setOrganizationSettings(clerk, organization.id, {
      modules: ['compliance', 'passport'],
      uiLanguage: 'EN',
    });
    return { clerk, admin, organizationId: organization.id };
  }

  test('an admin switches on two modules and English; the navigation follows at once', async () => {
    // Signed up with a first organisation over the wire: signing up is not what this test is about.
    const { page: admin } = await signedUpPage(suite, 'modules-admin');
    const current = await fetch(`${suite.server.origin}/api/organizations/current`, {
      headers: { authorization: `Bearer ${await sessionToken(admin)}` },
    });
    const organization = (await current.json()) as { id: string; publicMetadata: Record<string, unknown> };
    assert.equal(organization.publicMetadata.uiLanguage, 'FR', 'a new organisation defaults to French');
    await admin.getByTestId('dashboard-modules').waitFor();
    assert.deepEqual(await navModules(admin), [], 'no module is on at first');

    await admin.getByTestId('nav-settings').click();
    await waitForPath(admin, '/settings');
    await admin.getByTestId('settings-module-compliance').check();
    await admin.getByTestId('settings-module-passport').check();
    await admin.getByTestId('settings-language').selectOption('EN');
    await admin.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
    await admin.getByTestId('settings-save').click();
    await admin.getByTestId('settings-saved').waitFor();

    await admin.getByTestId('nav-module-passport').waitFor();
    assert.deepEqual(await navModules(admin), ['compliance', 'passport']);
    await admin.getByTestId('nav-module-compliance').click();
    await waitForPath(admin, '/modules/compliance');
    await admin.locator('[data-testid="module-overview"][data-module="compliance"]').waitFor();
    assert.equal(
      await admin.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload),
      true,
    );

    // An admin opening a module that is off is offered the settings, where they can switch it on.
    await admin.goto(`${suite.server.origin}/modules/diagram`);
    await admin.getByTestId('module-not-enabled').waitFor();
    await admin.getByTestId('module-not-enabled-settings-link').click();
    await waitForPath(admin, '/settings');
  });

  test('a member in a browser that chose no language sees exactly those modules, in English, after a reload too', async () => {
    const { clerk, admin, organizationId } = await organizationWithTwoModules();
    // A new user, signed up over the wire (signing up is not what this test is about), made a member.
    const newcomer = await wireSignUp(suite.server, 'modules-member', { organization: null });
    await addMember(clerk, organizationId, newcomer.user.id, 'org:member');
    const { page: member } = await openSignedIn(suite, newcomer.browser, {
      language: null,
      path: null,
      // English words arrive late, as on a slow network: nothing may be drawn in French meanwhile, although
      // the page starts in French until it knows the organisation speaks English.
      beforeLoad: (_context, page) =>
        page.route('**/assets/i18n/en/translations.json', async (route) => {
          await new Promise((resolve) => setTimeout(resolve, 500));
          await route.continue();
        }),
    });

    // A fresh load: the organisation rule makes their only organisation the active one.
    await member.goto(`${suite.server.origin}/dashboard`);
    for (const attempt of ['first load', 'after a reload']) {
      await member.getByTestId('nav-module-passport').waitFor();
      assert.deepEqual(await navModules(member), ['compliance', 'passport'], attempt);
      assert.equal(await member.getByTestId('nav-module-compliance').textContent(), 'Compliance', attempt);
      assert.equal(await member.getByTestId('nav-module-passport').textContent(), 'Passport', attempt);
      assert.equal(await member.getByTestId('nav-dashboard').textContent(), 'Dashboard', attempt);
      assert.equal(await member.getByTestId('nav-help').textContent(), 'Help', attempt);
      assert.equal(await member.evaluate(() => document.documentElement.lang), 'en', attempt);
      // English because it is the organisation's language, not because this browser chose it.
      assert.equal(await member.evaluate(() => window.localStorage.getItem('qoala.language')), null, attempt);
      if (attempt === 'first load') await member.reload();
    }

    // A module that is off: said plainly, naming who can switch it on, and no settings link for a member.
    await member.goto(`${suite.server.origin}/modules/diagram`);
    const notEnabled = member.getByTestId('module-not-enabled');
    await notEnabled.waitFor();
    await notEnabled
      .getByRole('heading', { level: 1, name: 'Diagram is not enabled for this organisation' })
      .waitFor();
    await member.getByTestId('module-admin').filter({ hasText: admin.email }).waitFor();
    assert.match((await member.getByTestId('module-admin').textContent()) ?? '', /Admin/);
    assert.equal(await member.getByTestId('module-admins').getByTestId('module-admin').count(), 1);
    assert.equal(await member.getByTestId('module-not-enabled-settings-link').count(), 0);

    // A module that is on: its overview, built from its help page.
    await member.goto(`${suite.server.origin}/modules/passport`);
    const overview = member.locator('[data-testid="module-overview"][data-module="passport"]');
    await overview.waitFor();
    assert.equal(await member.getByTestId('module-title').textContent(), 'Passport');
    await overview
      .getByTestId('markdown')
      .getByRole('heading', { level: 2, name: 'Who can switch it on' })
      .waitFor();
    assert.equal(await overview.getByTestId('markdown').locator('table').count(), 1);

    // An unknown module is simply not a page.
    await member.goto(`${suite.server.origin}/modules/no-such-module`);
    await member.getByTestId('not-found').waitFor();
    assert.equal(await member.getByTestId('module-not-enabled').count(), 0);
  });

  test('the settings switch a module off again and its link leaves the navigation', async () => {
    const { admin: adminUser } = await organizationWithTwoModules();
    const { page: admin } = await signedInPage(suite, adminUser);
    await admin.goto(`${suite.server.origin}/settings`);
    await admin.getByTestId('settings-page').waitFor();
    await admin.getByTestId('settings-module-compliance').uncheck();
    await admin.getByTestId('settings-save').click();
    await admin.getByTestId('settings-saved').waitFor();
    await admin.getByTestId('nav-module-compliance').waitFor({ state: 'detached' });
    assert.deepEqual(await navModules(admin), ['passport']);
    for (const key of MODULE_KEYS)
      assert.equal((await navModules(admin)).includes(key), key === 'passport', `${key} in the navigation`);
  });
});
