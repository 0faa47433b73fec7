import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { useSuite } from '../support/suite.ts';
import {
  addMember,
  backendClient,
  createOrganizationFor,
  createUser,
  setOrganizationSettings,
} from '../support/backend.ts';
import { sessionToken, waitForPath } from '../support/flows.ts';
import { signedInPage, signedUpPage } from '../support/wire-session.ts';

const MODULE_KEYS = ['vCiso', 'compliance', 'qompanion', 'hexadiag', 'passport'] as const;

interface Organization {
  id: string;
  publicMetadata: Record<string, unknown>;
}

describe('organisation settings: modules and language', () => {
  const suite = useSuite();

  const api = async (page: Page, method: 'GET' | 'PATCH', path: string, body?: unknown) => {
    const res = await fetch(`${suite.server.origin}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${await sessionToken(page)}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  test('an admin switches modules on and picks a language; the dashboard shows them without a reload', async () => {
    // Signed up with a first organisation over the wire: signing up is not what this test is about.
    const { page: admin } = await signedUpPage(suite, 'settings-admin');
    const organizationId = ((await api(admin, 'GET', '/api/me')).body.orgId as string) ?? '';
    assert.match(organizationId, /^org_/);

    await admin.getByTestId('nav-settings').click();
    await waitForPath(admin, '/settings');
    await admin.getByTestId('settings-page').waitFor();
    await admin.getByTestId('settings-module-compliance').check();
    await admin.getByTestId('settings-module-passport').check();
    await admin.getByTestId('settings-language').selectOption('EN');
    assert.equal(await admin.getByTestId('settings-readonly-note').count(), 0);
    await admin.getByTestId('settings-save').click();
    await admin.getByTestId('settings-saved').waitFor();

    // No reload: a marker on window survives only client-side navigation.
    await admin.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
    await admin.getByTestId('nav-dashboard').click();
    await waitForPath(admin, '/dashboard');
    await admin.getByTestId('dashboard-modules').waitFor();
    for (const key of MODULE_KEYS) {
      const expected = key === 'compliance' || key === 'passport' ? 'true' : 'false';
      assert.equal(await admin.getByTestId(`module-${key}`).getAttribute('data-enabled'), expected, key);
    }
    assert.equal(
      await admin.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload),
      true,
    );

    const current = await api(admin, 'GET', '/api/organizations/current');
    assert.equal(current.status, 200);
    const metadata = (current.body as unknown as Organization).publicMetadata;
    assert.equal(metadata.complianceModuleEnabled, true);
    assert.equal(metadata.passportModuleEnabled, true);
    assert.equal(metadata.vCisoModuleEnabled, false);
    assert.equal(metadata.qompanionModuleEnabled, false);
    assert.equal(metadata.hexadiagModuleEnabled, false);
    assert.equal(metadata.uiLanguage, 'EN');
  });

  test('a member sees the settings read-only, and the API refuses their change', async () => {
    // An organisation whose admin switched on compliance and passport in English, and a member.
    const clerk = backendClient(suite.server);
    const admin = await createUser(suite.server, 'settings-admin');
    const organizationId = (await createOrganizationFor(clerk, admin, 'Settings Firm')).id;
    await setOrganizationSettings(clerk, organizationId, {
      modules: ['compliance', 'passport'],
      uiLanguage: 'EN',
    });
    const memberUser = await createUser(suite.server, 'settings-member');
    await addMember(clerk, organizationId, memberUser.id, 'org:member');
    const { page: member } = await signedInPage(suite, memberUser);
    const me = await api(member, 'GET', '/api/me');
    assert.equal(me.body.orgId, organizationId);
    assert.equal(me.body.orgRole, 'org:member');

    await member.getByTestId('nav-settings').click();
    await waitForPath(member, '/settings');
    await member.getByTestId('settings-readonly-note').waitFor();
    for (const key of MODULE_KEYS) {
      const box = member.getByTestId(`settings-module-${key}`);
      assert.equal(await box.isDisabled(), true, key);
      assert.equal(await box.isChecked(), key === 'compliance' || key === 'passport', key);
    }
    assert.equal(await member.getByTestId('settings-language').isDisabled(), true);
    assert.equal(await member.getByTestId('settings-language').inputValue(), 'EN');
    assert.equal(await member.getByTestId('settings-save').count(), 0);

    const refused = await api(member, 'PATCH', '/api/organizations/current/settings', {
      modules: { vCiso: true },
    });
    assert.equal(refused.status, 403);
    assert.equal((refused.body.errors as { code: string }[])[0]?.code, 'forbidden');
    const after = await clerk.organizations.getOrganization({ organizationId });
    assert.equal(after.publicMetadata?.vCisoModuleEnabled, false);
  });
});
