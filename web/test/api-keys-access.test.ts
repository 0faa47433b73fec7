import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { selectApiKeysAccess, selectCanSeeApiKeys } from '../src/features/api-keys/access.ts';
import type { AuthState } from '../src/state/auth/types.ts';

const state = (role: string | null, active = true): AuthState => ({
  actorModeEnabled: false,
  user: {
    externalId: null,
    publicMetadata: {},
    organizationMemberships: [
      ...(role ? [{ organization: { id: 'org_a', slug: 'acme' }, role }] : []),
      { organization: { id: 'org_b', slug: 'beta' }, role: 'org:admin' },
    ],
  },
  organization: active ? { id: 'org_a', slug: 'acme', publicMetadata: {} } : null,
});

describe("who sees the organisation's API keys page", () => {
  test('admins and virtual security officers (org:sys_api_keys:read and :manage)', () => {
    for (const role of ['org:admin', 'org:vciso']) {
      assert.equal(selectApiKeysAccess(state(role)), 'open', role);
      assert.equal(selectCanSeeApiKeys(state(role)), true, role);
    }
  });

  test('not a plain member, nor an admin of another organisation', () => {
    assert.equal(selectApiKeysAccess(state('org:member')), 'no-permission');
    assert.equal(selectApiKeysAccess(state(null)), 'no-permission');
    assert.equal(selectCanSeeApiKeys(state('org:member')), false);
  });

  test('nobody without an active organisation', () => {
    assert.equal(selectApiKeysAccess(state('org:admin', false)), 'no-organization');
  });
});
