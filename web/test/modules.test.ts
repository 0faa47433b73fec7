import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isHelpPageName, isPlainSlug } from '../src/features/help/help-pages.ts';
import { adminContacts } from '../src/features/modules/admin-contacts.ts';
import {
  enabledModules,
  MODULES,
  moduleBySlug,
  modulePath,
  moduleStatuses,
} from '../src/features/modules/modules.ts';
import { MODULE_FLAGS } from '../src/state/auth/organization-metadata.ts';
import { authEvents, authReducer } from '../src/state/auth/reducer.ts';
import type { AuthState } from '../src/state/auth/types.ts';

describe('modules: keys, flags and slugs', () => {
  test('the five modules map one to one onto the spec flags', () => {
    assert.deepEqual(
      MODULES.map((m) => [m.key, m.flag]),
      [
        ['vCiso', 'vCisoModuleEnabled'],
        ['compliance', 'complianceModuleEnabled'],
        ['qompanion', 'qompanionModuleEnabled'],
        ['hexadiag', 'hexadiagModuleEnabled'],
        ['passport', 'passportModuleEnabled'],
      ],
    );
    assert.deepEqual(MODULES.map((m) => m.flag).sort(), [...MODULE_FLAGS].sort());
  });

  test('each has a readable, unique slug, its own route and a help page', () => {
    assert.deepEqual(
      MODULES.map((m) => modulePath(m)),
      [
        '/modules/virtual-security-officer',
        '/modules/compliance',
        '/modules/companion',
        '/modules/diagram',
        '/modules/passport',
      ],
    );
    assert.equal(new Set(MODULES.map((m) => m.slug)).size, MODULES.length);
    for (const module of MODULES) {
      assert.ok(isPlainSlug(module.slug), module.slug);
      assert.ok(isHelpPageName(module.helpPage), module.helpPage);
    }
  });

  test('a slug finds its module; anything else finds none', () => {
    assert.equal(moduleBySlug('companion')?.key, 'qompanion');
    assert.equal(moduleBySlug('diagram')?.key, 'hexadiag');
    assert.equal(moduleBySlug('virtual-security-officer')?.key, 'vCiso');
    for (const unknown of ['qompanion', 'vCiso', 'Compliance', '', undefined, 'compliance/'])
      assert.equal(moduleBySlug(unknown), undefined, String(unknown));
  });
});

describe('modules: what the navigation shows', () => {
  test('only the enabled modules, in the fixed order', () => {
    assert.deepEqual(enabledModules(undefined), []);
    assert.deepEqual(enabledModules({}), []);
    assert.deepEqual(
      enabledModules({
        passportModuleEnabled: true,
        complianceModuleEnabled: true,
        vCisoModuleEnabled: false,
      }).map((m) => m.key),
      ['compliance', 'passport'],
    );
    const all = Object.fromEntries(MODULE_FLAGS.map((flag) => [flag, true]));
    assert.deepEqual(
      enabledModules(all).map((m) => m.key),
      MODULES.map((m) => m.key),
    );
  });

  test('agrees with the dashboard statuses', () => {
    const metadata = { hexadiagModuleEnabled: true, qompanionModuleEnabled: false };
    assert.deepEqual(
      enabledModules(metadata).map((m) => m.key),
      moduleStatuses(metadata)
        .filter((m) => m.enabled)
        .map((m) => m.key),
    );
  });

  test('follows the metadata merge event at once (settings saved, no reload)', () => {
    let state: AuthState = {
      actorModeEnabled: false,
      user: null,
      organization: { id: 'org_a', slug: 'acme', publicMetadata: { complianceModuleEnabled: true } },
    };
    assert.deepEqual(
      enabledModules(state.organization?.publicMetadata).map((m) => m.key),
      ['compliance'],
    );
    state = authReducer(
      state,
      authEvents.updateOrganizationMetadata({
        complianceModuleEnabled: false,
        vCisoModuleEnabled: true,
        passportModuleEnabled: true,
      }),
    );
    assert.deepEqual(
      enabledModules(state.organization?.publicMetadata).map((m) => m.key),
      ['vCiso', 'passport'],
    );
  });
});

describe('modules: who can switch a module on', () => {
  const membership = (
    userId: string,
    role: string,
    firstName: string | null,
    lastName: string | null,
    identifier: string,
  ) => ({
    role,
    publicUserData: { userId, firstName, lastName, identifier },
  });

  test('names the admins, then the virtual security officers, never the members', () => {
    const contacts = adminContacts([
      membership('user_m', 'org:member', 'Max', 'Member', 'max@example.com'),
      membership('user_v', 'org:vciso', 'Vera', null, 'vera@example.com'),
      membership('user_b', 'org:admin', null, null, 'bob@example.com'),
      membership('user_a', 'org:admin', 'Alice', 'Martin', 'alice@example.com'),
      { role: 'org:admin', publicUserData: null },
    ]);
    assert.deepEqual(contacts, [
      { userId: 'user_a', name: 'Alice Martin', role: 'org:admin' },
      { userId: 'user_b', name: 'bob@example.com', role: 'org:admin' },
      { userId: 'user_v', name: 'Vera', role: 'org:vciso' },
    ]);
  });
});
