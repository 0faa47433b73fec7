import { describe, test } from 'node:test';
import { defaultOrganizationMetadata } from '@app/contract';
import assert from 'node:assert/strict';
import { moduleStatuses } from '../src/features/modules/modules.ts';
import { parseCurrentOrganization } from '../src/features/organizations/api/get-current-organization.ts';
import { productOrganizationFromClerk, productUserFromClerk } from '../src/state/auth/from-clerk.ts';
import { parseOrganizationPublicMetadata } from '../src/state/auth/organization-metadata.ts';
import { roleHasAdminRights } from '../src/state/auth/roles.ts';

describe('parseOrganizationPublicMetadata', () => {
  test('keeps every spec field with the right type', () => {
    const metadata = {
      organizationId: 'org_a',
      vCisoModuleEnabled: true,
      complianceModuleEnabled: false,
      qompanionModuleEnabled: true,
      hexadiagModuleEnabled: false,
      passportModuleEnabled: true,
      uiLanguage: 'EN',
      vcisoChildOrganizations: ['org_b'],
      parentOrganizationId: null,
      hasActiveSubscription: 'TRIAL',
    };
    assert.deepEqual(parseOrganizationPublicMetadata(metadata), metadata);
  });

  test('drops malformed values and unknown keys', () => {
    assert.deepEqual(
      parseOrganizationPublicMetadata({
        vCisoModuleEnabled: 'yes',
        uiLanguage: 'DE',
        hasActiveSubscription: 'MAYBE',
        vcisoChildOrganizations: ['org_b', 3],
        parentOrganizationId: 7,
        other: 1,
      }),
      { vcisoChildOrganizations: ['org_b'] },
    );
  });

  test('is empty for anything that is not an object', () => {
    for (const raw of [null, undefined, 'x', 1, []])
      assert.deepEqual(parseOrganizationPublicMetadata(raw), {});
  });
});

describe('moduleStatuses', () => {
  test('lists the five modules in order, on only for an explicit true', () => {
    assert.deepEqual(
      moduleStatuses({ vCisoModuleEnabled: true, complianceModuleEnabled: false }).map((m) => [
        m.key,
        m.enabled,
      ]),
      [
        ['vCiso', true],
        ['compliance', false],
        ['qompanion', false],
        ['hexadiag', false],
        ['passport', false],
      ],
    );
  });
});

describe('roles', () => {
  // Role labels are translated: see translated-labels.test.ts.
  test('gives admin rights to admins and virtual security officers', () => {
    assert.equal(roleHasAdminRights('org:admin'), true);
    assert.equal(roleHasAdminRights('org:vciso'), true);
    assert.equal(roleHasAdminRights('org:member'), false);
    assert.equal(roleHasAdminRights(undefined), false);
  });
});

describe('from Clerk resources to the product view', () => {
  test('a user keeps its external id, its public userId and its memberships (organisation id, slug, role)', () => {
    assert.deepEqual(
      productUserFromClerk({
        externalId: null,
        publicMetadata: { userId: 'legacy-7', theme: 'dark' },
        organizationMemberships: [{ organization: { id: 'org_a', slug: 'acme' }, role: 'org:admin' }],
      }),
      {
        externalId: null,
        publicMetadata: { userId: 'legacy-7', theme: 'dark' },
        organizationMemberships: [{ organization: { id: 'org_a', slug: 'acme' }, role: 'org:admin' }],
      },
    );
  });

  test('a non-string userId is not presented as one', () => {
    const user = productUserFromClerk({
      externalId: 'e',
      publicMetadata: { userId: 5 },
      organizationMemberships: [],
    });
    assert.deepEqual(user?.publicMetadata, {});
  });

  test('no user and no organisation map to null', () => {
    assert.equal(productUserFromClerk(null), null);
    assert.equal(productOrganizationFromClerk(undefined), null);
  });

  test('an organisation keeps its id, slug and parsed metadata', () => {
    assert.deepEqual(
      productOrganizationFromClerk({ id: 'org_a', slug: 'acme', publicMetadata: { uiLanguage: 'FR', x: 1 } }),
      { id: 'org_a', slug: 'acme', publicMetadata: { uiLanguage: 'FR' } },
    );
  });
});

describe('parseCurrentOrganization', () => {
  const answer = {
    id: 'org_a',
    slug: 'acme',
    name: 'Acme',
    publicMetadata: { ...defaultOrganizationMetadata('org_a'), passportModuleEnabled: true, custom: 1 },
  };

  test('reads the /api/organizations/current answer, with its complete metadata', () => {
    assert.deepEqual(parseCurrentOrganization(answer), answer);
  });

  test('refuses an answer without id or name', () => {
    assert.equal(parseCurrentOrganization({ slug: 'x' }), null);
    assert.equal(parseCurrentOrganization(null), null);
  });

  test('refuses an answer whose metadata is not what the contract says the server sends', () => {
    const { uiLanguage: _missing, ...incomplete } = answer.publicMetadata;
    assert.equal(parseCurrentOrganization({ ...answer, publicMetadata: incomplete }), null);
    assert.equal(
      parseCurrentOrganization({ ...answer, publicMetadata: { ...answer.publicMetadata, uiLanguage: 'DE' } }),
      null,
    );
  });
});
