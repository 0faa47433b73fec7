import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { authEvents, authReducer } from '../src/state/auth/reducer.ts';
import {
  initialAuthState,
  type AuthState,
  type ProductOrganization,
  type ProductUser,
} from '../src/state/auth/types.ts';

const user: ProductUser = {
  externalId: 'ext-1',
  publicMetadata: { userId: 'u-1' },
  organizationMemberships: [{ organization: { id: 'org_a', slug: 'acme' }, role: 'org:admin' }],
};
const organization: ProductOrganization = {
  id: 'org_a',
  slug: 'acme',
  publicMetadata: { organizationId: 'org_a', vCisoModuleEnabled: false, uiLanguage: 'FR' },
};

describe('auth state', () => {
  test('starts empty: no actor mode, no user, no organisation', () => {
    assert.deepEqual(initialAuthState, { actorModeEnabled: false, user: null, organization: null });
  });
});

describe('authReducer', () => {
  test('set user details replaces the user and nothing else', () => {
    const state = authReducer(initialAuthState, authEvents.setUserDetails(user));
    assert.deepEqual(state, { actorModeEnabled: false, user, organization: null });
    assert.equal(authReducer(state, authEvents.setUserDetails(null)).user, null);
  });

  test('set organization details replaces the organisation, and can set it to empty', () => {
    const withOrg = authReducer(initialAuthState, authEvents.setOrganizationDetails(organization));
    assert.deepEqual(withOrg, { actorModeEnabled: false, user: null, organization });
    const emptied = authReducer(withOrg, authEvents.setOrganizationDetails(null));
    assert.equal(emptied.organization, null);
  });

  test('set actor mode enabled switches the flag, and returns the same state when it is unchanged', () => {
    const on = authReducer(initialAuthState, authEvents.setActorModeEnabled(true));
    assert.equal(on.actorModeEnabled, true);
    assert.equal(authReducer(on, authEvents.setActorModeEnabled(true)), on);
    assert.equal(authReducer(on, authEvents.setActorModeEnabled(false)).actorModeEnabled, false);
  });

  test('update organization metadata merges into the current organisation', () => {
    const state = authReducer(
      { ...initialAuthState, user, organization },
      authEvents.updateOrganizationMetadata({ vCisoModuleEnabled: true, hasActiveSubscription: 'TRIAL' }),
    );
    assert.deepEqual(state.organization, {
      id: 'org_a',
      slug: 'acme',
      publicMetadata: {
        organizationId: 'org_a',
        vCisoModuleEnabled: true,
        uiLanguage: 'FR',
        hasActiveSubscription: 'TRIAL',
      },
    });
    assert.equal(state.user, user);
  });

  test('update organization metadata is a no-op without an organisation', () => {
    const state: AuthState = { ...initialAuthState, user };
    assert.equal(
      authReducer(state, authEvents.updateOrganizationMetadata({ vCisoModuleEnabled: true })),
      state,
    );
  });

  test('never mutates the previous state', () => {
    const before: AuthState = { actorModeEnabled: false, user, organization };
    const snapshot = structuredClone(before);
    authReducer(before, authEvents.updateOrganizationMetadata({ passportModuleEnabled: true }));
    authReducer(before, authEvents.setUserDetails(null));
    authReducer(before, authEvents.setOrganizationDetails(null));
    authReducer(before, authEvents.setActorModeEnabled(true));
    assert.deepEqual(before, snapshot);
  });
});
