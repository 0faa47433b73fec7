import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decideEmptyOrganizationAction } from '../src/state/auth/empty-organization-rule.ts';
import { initialAuthState, type AuthState, type ProductUser } from '../src/state/auth/types.ts';

const userWith = (...organizationIds: string[]): ProductUser => ({
  externalId: null,
  publicMetadata: {},
  organizationMemberships: organizationIds.map((id) => ({
    organization: { id, slug: id },
    role: 'org:member',
  })),
});

const signedIn = (user: ProductUser, organizationId: string | null = null): AuthState => ({
  actorModeEnabled: false,
  user,
  organization: organizationId ? { id: organizationId, slug: null, publicMetadata: {} } : null,
});

describe('decideEmptyOrganizationAction', () => {
  test('activates the first membership organisation when the organisation is empty', () => {
    assert.deepEqual(decideEmptyOrganizationAction(signedIn(userWith('org_b', 'org_a')), '/dashboard'), {
      type: 'activateOrganization',
      organizationId: 'org_b',
    });
  });

  test('activates it on any page, including the organisation choice pages', () => {
    for (const path of ['/organizations', '/create-organization', '/members', '/'])
      assert.equal(
        decideEmptyOrganizationAction(signedIn(userWith('org_a')), path).type,
        'activateOrganization',
      );
  });

  test('sends a user without memberships to the create-organisation screen', () => {
    assert.deepEqual(decideEmptyOrganizationAction(signedIn(userWith()), '/dashboard'), {
      type: 'goToCreateOrganization',
      path: '/create-organization',
    });
    assert.equal(
      decideEmptyOrganizationAction(signedIn(userWith()), '/organization/general').type,
      'goToCreateOrganization',
    );
  });

  test('leaves a user without memberships where they can get an organisation', () => {
    assert.equal(decideEmptyOrganizationAction(signedIn(userWith()), '/create-organization').type, 'none');
    assert.equal(decideEmptyOrganizationAction(signedIn(userWith()), '/create-organization/').type, 'none');
    assert.equal(decideEmptyOrganizationAction(signedIn(userWith()), '/organizations').type, 'none');
  });

  test('does nothing while an organisation is active', () => {
    assert.equal(
      decideEmptyOrganizationAction(signedIn(userWith('org_a'), 'org_a'), '/dashboard').type,
      'none',
    );
    assert.equal(decideEmptyOrganizationAction(signedIn(userWith(), 'org_a'), '/dashboard').type, 'none');
  });

  test('does nothing without a signed-in user', () => {
    assert.equal(decideEmptyOrganizationAction(initialAuthState, '/dashboard').type, 'none');
    assert.equal(decideEmptyOrganizationAction(initialAuthState, '/sign-in').type, 'none');
  });
});
