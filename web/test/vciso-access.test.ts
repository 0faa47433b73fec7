import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { selectCanUseVcisoConsole, selectVcisoConsoleAccess } from '../src/features/vciso/access.ts';
import { parseChildOrganization } from '../src/features/vciso/api/child-organization.ts';
import type { OrganizationPublicMetadata } from '../src/state/auth/organization-metadata.ts';
import { initialAuthState, type AuthState } from '../src/state/auth/types.ts';

const state = (role: string | null, metadata: OrganizationPublicMetadata | null): AuthState => ({
  actorModeEnabled: false,
  user: {
    externalId: null,
    publicMetadata: {},
    organizationMemberships: [
      ...(role ? [{ organization: { id: 'org_a', slug: 'acme' }, role }] : []),
      { organization: { id: 'org_b', slug: 'beta' }, role: 'org:vciso' },
    ],
  },
  organization: metadata ? { id: 'org_a', slug: 'acme', publicMetadata: metadata } : null,
});

const withModule: OrganizationPublicMetadata = { vCisoModuleEnabled: true };

describe('who sees the client-organisation console', () => {
  test('a virtual security officer of the active organisation, with the vCISO module on', () => {
    assert.equal(selectVcisoConsoleAccess(state('org:vciso', withModule)), 'open');
    assert.equal(selectCanUseVcisoConsole(state('org:vciso', withModule)), true);
  });

  test('not an admin or a member, even with the module on', () => {
    for (const role of ['org:admin', 'org:member', 'org:guest']) {
      assert.equal(selectVcisoConsoleAccess(state(role, withModule)), 'not-vciso', role);
      assert.equal(selectCanUseVcisoConsole(state(role, withModule)), false, role);
    }
  });

  test('not a vCISO of another organisation: the role is the one in the active organisation', () => {
    assert.equal(selectVcisoConsoleAccess(state(null, withModule)), 'not-vciso');
  });

  test('not a vCISO whose organisation has the module off or not known yet', () => {
    assert.equal(selectVcisoConsoleAccess(state('org:vciso', { vCisoModuleEnabled: false })), 'module-off');
    assert.equal(selectVcisoConsoleAccess(state('org:vciso', {})), 'module-off');
    assert.equal(selectCanUseVcisoConsole(state('org:vciso', {})), false);
  });

  test('nobody without an active organisation or signed out', () => {
    assert.equal(selectVcisoConsoleAccess(state('org:vciso', null)), 'no-organization');
    assert.equal(selectVcisoConsoleAccess(initialAuthState), 'no-organization');
    assert.equal(selectCanUseVcisoConsole(initialAuthState), false);
  });
});

describe('a client organisation from the product API', () => {
  test('keeps the known fields; missing flags are off, an unknown subscription is NO', () => {
    assert.deepEqual(
      parseChildOrganization({
        id: 'org_c',
        name: 'Client',
        slug: null,
        modules: { complianceModuleEnabled: true, passportModuleEnabled: 'yes' },
        hasActiveSubscription: 'MAYBE',
        extra: 1,
      }),
      {
        id: 'org_c',
        name: 'Client',
        slug: null,
        modules: {
          vCisoModuleEnabled: false,
          complianceModuleEnabled: true,
          qompanionModuleEnabled: false,
          hexadiagModuleEnabled: false,
          passportModuleEnabled: false,
        },
        hasActiveSubscription: 'NO',
      },
    );
    assert.equal(
      parseChildOrganization({ id: 'org_c', name: 'C', slug: 'c', hasActiveSubscription: 'TRIAL' })
        ?.hasActiveSubscription,
      'TRIAL',
    );
  });

  test('refuses what is not one', () => {
    for (const raw of [
      null,
      [],
      { id: 'org_c' },
      { id: 1, name: 'C', slug: null },
      { id: 'org_c', name: 'C', slug: 3 },
    ]) {
      assert.equal(parseChildOrganization(raw), null, JSON.stringify(raw));
    }
  });
});
