import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  MODULE_FLAGS,
  MODULE_SETTING_FLAGS,
  childOrganizationSchema,
  currentOrganizationSchema,
  defaultOrganizationMetadata,
  meSchema,
  newChildOrganizationSchema,
  organizationIdSchema,
  organizationSettingsChangeSchema,
  parentOrganizationAnswerSchema,
  settingsMetadataPatch,
} from '../src/index.ts';

describe('GET /api/me', () => {
  const me = {
    userId: 'user_1',
    sessionId: 'sess_1',
    orgId: null,
    orgSlug: null,
    orgRole: null,
    orgPermissions: [],
    user: { id: 'user_1', firstName: 'Ada', lastName: null, primaryEmailAddress: null },
    actor: null,
  };
  test('reads a well-formed answer and drops what the contract does not name', () => {
    assert.deepEqual(meSchema.parse({ ...me, secret: 'x' }), me);
  });
  test('refuses a missing or mistyped field', () => {
    assert.equal(meSchema.safeParse({ ...me, orgPermissions: undefined }).success, false);
    assert.equal(meSchema.safeParse({ ...me, user: { ...me.user, id: 7 } }).success, false);
    assert.equal(meSchema.safeParse({ ...me, actor: { userId: 'u' } }).success, false);
  });
});

describe('current organisation and its settings', () => {
  test('an answer has the complete metadata', () => {
    const organization = {
      id: 'org_1',
      slug: null,
      name: 'Acme',
      publicMetadata: defaultOrganizationMetadata('org_1'),
    };
    assert.deepEqual(currentOrganizationSchema.parse(organization), organization);
    const { uiLanguage: _dropped, ...incomplete } = organization.publicMetadata;
    assert.equal(
      currentOrganizationSchema.safeParse({ ...organization, publicMetadata: incomplete }).success,
      false,
    );
  });

  test('every module key maps to exactly one spec §3 flag', () => {
    assert.deepEqual(Object.values(MODULE_SETTING_FLAGS).sort(), [...MODULE_FLAGS].sort());
  });

  test('a settings change: strict, typed, and patches only the keys it names', () => {
    const change = organizationSettingsChangeSchema.parse({ modules: { compliance: true, vCiso: false } });
    assert.deepEqual(settingsMetadataPatch(change), {
      complianceModuleEnabled: true,
      vCisoModuleEnabled: false,
    });
    assert.deepEqual(settingsMetadataPatch(organizationSettingsChangeSchema.parse({})), {});
    for (const bad of [
      { organizationId: 'org_2' },
      { modules: { billing: true } },
      { modules: { compliance: 'true' } },
      { modules: ['compliance'] },
      { uiLanguage: 'DE' },
      { uiLanguage: 1 },
      ['EN'],
      null,
    ]) {
      assert.equal(organizationSettingsChangeSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });
});

describe('client organisations', () => {
  test('a new child: name trimmed, blank slug derived, unknown keys and bad slugs refused', () => {
    assert.deepEqual(newChildOrganizationSchema.parse({ name: '  Client  ', slug: ' ' }), { name: 'Client' });
    assert.deepEqual(newChildOrganizationSchema.parse({ name: 'Client', slug: null }), { name: 'Client' });
    assert.deepEqual(newChildOrganizationSchema.parse({ name: 'Client', slug: 'client-1' }), {
      name: 'Client',
      slug: 'client-1',
    });
    for (const bad of [
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(257) },
      { name: 'Client', slug: '-bad' },
      { name: 'Client', slug: 'Upper' },
      { name: 'Client', slug: 'x'.repeat(65) },
      { name: 'Client', parentOrganizationId: 'org_2' },
      { name: 7 },
    ]) {
      assert.equal(newChildOrganizationSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });

  test('an organisation is named by its id only, never a slug', () => {
    assert.equal(organizationIdSchema.safeParse('org_abc123').success, true);
    for (const bad of ['acme', 'org_', 'org_../x', 'user_1']) {
      assert.equal(organizationIdSchema.safeParse(bad).success, false, bad);
    }
  });

  test('a child: missing flags read as off, an odd status as NO; no id is refused', () => {
    assert.deepEqual(
      childOrganizationSchema.parse({ id: 'org_1', name: 'C', slug: null, hasActiveSubscription: 'MAYBE' }),
      {
        id: 'org_1',
        name: 'C',
        slug: null,
        modules: Object.fromEntries(MODULE_FLAGS.map((f) => [f, false])),
        hasActiveSubscription: 'NO',
      },
    );
    assert.equal(childOrganizationSchema.safeParse({ name: 'C', slug: null }).success, false);
  });

  test('the parent answer is a parent or null', () => {
    assert.deepEqual(parentOrganizationAnswerSchema.parse({ parent: null }), { parent: null });
    assert.equal(parentOrganizationAnswerSchema.safeParse({}).success, false);
    assert.equal(
      parentOrganizationAnswerSchema.safeParse({ parent: { id: 'org_1', name: 'P', slug: null } }).success,
      false,
    );
  });
});
