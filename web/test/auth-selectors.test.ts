import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  selectActiveMembership,
  selectCurrentOrganizationSlug,
  selectHasAdminRights,
  selectIsSignedIn,
  selectIsVciso,
  selectRole,
} from '../src/state/auth/selectors.ts';
import { initialAuthState, type AuthState, type ProductUser } from '../src/state/auth/types.ts';

const userWith = (...memberships: [id: string, slug: string | null, role: string][]): ProductUser => ({
  externalId: null,
  publicMetadata: {},
  organizationMemberships: memberships.map(([id, slug, role]) => ({ organization: { id, slug }, role })),
});

const stateIn = (organizationId: string | null, user: ProductUser | null): AuthState => ({
  actorModeEnabled: false,
  user,
  organization: organizationId ? { id: organizationId, slug: 'from-organization', publicMetadata: {} } : null,
});

const member = userWith(
  ['org_a', 'acme', 'org:member'],
  ['org_b', 'beta', 'org:admin'],
  ['org_c', null, 'org:vciso'],
);

describe('selectIsSignedIn', () => {
  test('is true when a user exists, whatever the organisation', () => {
    assert.equal(selectIsSignedIn(initialAuthState), false);
    assert.equal(selectIsSignedIn(stateIn(null, member)), true);
    assert.equal(selectIsSignedIn(stateIn('org_a', null)), false);
  });
});

describe('selectRole', () => {
  test("is the role of the membership in the active organisation, not the first one's", () => {
    assert.equal(selectRole(stateIn('org_a', member)), 'org:member');
    assert.equal(selectRole(stateIn('org_b', member)), 'org:admin');
    assert.equal(selectRole(stateIn('org_c', member)), 'org:vciso');
  });

  test('is undefined with no user, no active organisation, or no membership in it', () => {
    assert.equal(selectRole(initialAuthState), undefined);
    assert.equal(selectRole(stateIn('org_a', null)), undefined);
    assert.equal(selectRole(stateIn(null, member)), undefined);
    assert.equal(selectRole(stateIn('org_z', member)), undefined);
  });
});

describe('selectHasAdminRights', () => {
  test('is held by org:admin and org:vciso only', () => {
    assert.equal(selectHasAdminRights(stateIn('org_b', member)), true);
    assert.equal(selectHasAdminRights(stateIn('org_c', member)), true);
    assert.equal(selectHasAdminRights(stateIn('org_a', member)), false);
    assert.equal(selectHasAdminRights(stateIn('org_x', userWith(['org_x', 'x', 'org:guest']))), false);
  });

  test('is false without a role', () => {
    assert.equal(selectHasAdminRights(initialAuthState), false);
    assert.equal(selectHasAdminRights(stateIn(null, member)), false);
  });
});

describe('selectIsVciso', () => {
  test('is held by org:vciso only', () => {
    assert.equal(selectIsVciso(stateIn('org_c', member)), true);
    assert.equal(selectIsVciso(stateIn('org_b', member)), false);
    assert.equal(selectIsVciso(stateIn('org_a', member)), false);
    assert.equal(selectIsVciso(initialAuthState), false);
  });
});

describe('selectCurrentOrganizationSlug', () => {
  test("comes from the user's membership in the active organisation", () => {
    assert.equal(selectCurrentOrganizationSlug(stateIn('org_a', member)), 'acme');
    assert.equal(selectCurrentOrganizationSlug(stateIn('org_b', member)), 'beta');
    assert.equal(selectCurrentOrganizationSlug(stateIn('org_c', member)), null);
  });

  test('is undefined without that membership', () => {
    assert.equal(selectCurrentOrganizationSlug(initialAuthState), undefined);
    assert.equal(selectCurrentOrganizationSlug(stateIn('org_z', member)), undefined);
  });
});

describe('selectActiveMembership', () => {
  test('is the membership whose organisation id is the active one', () => {
    assert.deepEqual(selectActiveMembership(stateIn('org_b', member)), {
      organization: { id: 'org_b', slug: 'beta' },
      role: 'org:admin',
    });
  });
});
