import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decideNavigation, type NavigationInput } from '../src/app/navigation/navigation-rule.ts';
import { IDENTITY_ROUTE, routeAccess, SIGNED_IN_ROUTE } from '../src/app/navigation/route-access.ts';
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

const decide = (state: AuthState, pathname: string, more: Partial<NavigationInput> = {}) =>
  decideNavigation({
    state,
    pathname,
    access: 'signed-in',
    pendingTaskUrl: null,
    sessionEndedHere: false,
    ...more,
  });
const navigateTo = (to: string) => ({ type: 'navigate', to });

/** Every signed-in page a person can type into the address bar. */
const SIGNED_IN_PAGES = ['/dashboard', '/settings', '/members', '/clients', '/organization/general'];

describe('decideNavigation: a signed-in user without any organisation', () => {
  const state = signedIn(userWith());

  test('goes to the create-organisation screen from the landing page and every signed-in page', () => {
    assert.deepEqual(decide(state, '/', { access: 'public' }), navigateTo('/create-organization'));
    for (const path of SIGNED_IN_PAGES)
      assert.deepEqual(decide(state, path), navigateTo('/create-organization'));
  });

  test('stays on the pages where they can get one (creating it, or accepting an invitation)', () => {
    for (const path of ['/create-organization', '/create-organization/', '/organizations'])
      assert.deepEqual(decide(state, path), { type: 'none' });
  });

  test('stays on the OAuth pages, which are about the user alone (and is sent to sign in there)', () => {
    for (const path of ['/oauth/consent', '/authorized-applications']) {
      assert.deepEqual(decide(state, path), { type: 'none' });
      assert.deepEqual(decide(signedIn(userWith('org_a')), path), { type: 'none' });
      assert.deepEqual(decide(initialAuthState, path), { type: 'signIn' });
    }
  });

  test('stays in the operator console, which is about the instance (and is sent to sign in there)', () => {
    for (const path of ['/console', '/console/users', '/console/users/user_1']) {
      assert.deepEqual(decide(state, path), { type: 'none' });
      assert.deepEqual(decide(signedIn(userWith('org_a')), path), { type: 'none' });
      assert.deepEqual(decide(initialAuthState, path), { type: 'signIn' });
    }
    // A path that merely starts alike is not the console.
    assert.deepEqual(decide(state, '/consoles'), navigateTo('/create-organization'));
  });

  test('is left to clerk-js on its own pages: sign-in (ticket links too), sign-up and tasks', () => {
    for (const path of ['/sign-in', '/sign-up', '/tasks/choose-organization'])
      assert.deepEqual(decide(state, path, { access: 'identity' }), { type: 'none' });
  });
});

describe('decideNavigation: a signed-in user with memberships', () => {
  test('the first membership becomes active when no organisation is, on any page but clerk-js’s own', () => {
    for (const path of [...SIGNED_IN_PAGES, '/create-organization', '/organizations'])
      assert.deepEqual(decide(signedIn(userWith('org_b', 'org_a')), path), {
        type: 'activateOrganization',
        organizationId: 'org_b',
      });
    assert.deepEqual(decide(signedIn(userWith('org_a')), '/sign-in', { access: 'identity' }), {
      type: 'none',
    });
  });

  test('the landing page sends them to the dashboard, organisation active or not yet', () => {
    assert.deepEqual(
      decide(signedIn(userWith('org_a')), '/', { access: 'public' }),
      navigateTo('/dashboard'),
    );
    assert.deepEqual(
      decide(signedIn(userWith('org_a'), 'org_a'), '/', { access: 'public' }),
      navigateTo('/dashboard'),
    );
  });

  test('nothing happens while an organisation is active', () => {
    for (const path of [...SIGNED_IN_PAGES, '/create-organization', '/organizations', '/help'])
      assert.deepEqual(decide(signedIn(userWith('org_a'), 'org_a'), path), { type: 'none' });
    // An active organisation the membership list does not show yet (just created) is still active.
    assert.deepEqual(decide(signedIn(userWith(), 'org_a'), '/dashboard'), { type: 'none' });
  });
});

describe('decideNavigation: nobody signed in', () => {
  test('a signed-in page opened signed out asks for sign-in', () => {
    for (const path of SIGNED_IN_PAGES) assert.deepEqual(decide(initialAuthState, path), { type: 'signIn' });
  });

  test('a session that ends on a signed-in page goes where clerk-js sends it, the after-sign-out page', () => {
    assert.deepEqual(
      decide(initialAuthState, '/create-organization', { sessionEndedHere: true }),
      navigateTo('/'),
    );
  });

  test('public pages and clerk-js’s pages stay as they are', () => {
    for (const path of ['/', '/help', '/help/languages', '/no-such-page'])
      assert.deepEqual(decide(initialAuthState, path, { access: 'public' }), { type: 'none' });
    for (const path of ['/sign-in', '/sign-up', '/tasks/choose-organization'])
      assert.deepEqual(decide(initialAuthState, path, { access: 'identity' }), { type: 'none' });
  });
});

describe('decideNavigation: a pending session (a task to finish, e.g. choose an organisation)', () => {
  const pending = { pendingTaskUrl: '/tasks/choose-organization' };

  test('every signed-in page and the landing page lead to the task', () => {
    for (const path of SIGNED_IN_PAGES)
      assert.deepEqual(decide(initialAuthState, path, pending), navigateTo('/tasks/choose-organization'));
    assert.deepEqual(
      decide(initialAuthState, '/', { ...pending, access: 'public' }),
      navigateTo('/tasks/choose-organization'),
    );
  });

  test('other public pages and clerk-js’s own pages (the task among them) stay as they are', () => {
    for (const path of ['/help', '/pricing', '/no-such-page'])
      assert.deepEqual(decide(initialAuthState, path, { ...pending, access: 'public' }), { type: 'none' });
    for (const path of ['/sign-in', '/sign-up', '/tasks/choose-organization'])
      assert.deepEqual(decide(initialAuthState, path, { ...pending, access: 'identity' }), { type: 'none' });
  });
});

describe('routeAccess', () => {
  test('the innermost route that declares its access decides; undeclared routes are public', () => {
    assert.equal(routeAccess([{ handle: undefined }, { handle: undefined }]), 'public');
    assert.equal(routeAccess([{ handle: undefined }, { handle: SIGNED_IN_ROUTE }]), 'signed-in');
    assert.equal(routeAccess([{ handle: SIGNED_IN_ROUTE }, { handle: IDENTITY_ROUTE }]), 'identity');
    assert.equal(routeAccess([{ handle: { something: 'else' } }]), 'public');
    assert.equal(routeAccess([]), 'public');
  });
});
