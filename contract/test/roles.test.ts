import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ADMIN_RIGHTS_ROLES,
  ORG_ROLES,
  ROLES,
  hasPermission,
  mayManageRole,
  orgRoleSchema,
  permissionsOf,
  roleHasAdminRights,
  roleIsVciso,
} from '../src/index.ts';

test('the three roles of spec §6, each defined once with its permissions', () => {
  assert.deepEqual(ROLES.map((r) => r.key).sort(), ['org:admin', 'org:member', 'org:vciso']);
  assert.deepEqual([...orgRoleSchema.options].sort(), Object.values(ORG_ROLES).sort());
  assert.equal(orgRoleSchema.safeParse('org:owner').success, false);
});

test('admin rights: admin and vciso; the vCISO flag: vciso only; nothing for no role', () => {
  assert.equal(roleHasAdminRights('org:admin'), true);
  assert.equal(roleHasAdminRights('org:vciso'), true);
  assert.equal(roleHasAdminRights('org:member'), false);
  assert.equal(roleHasAdminRights(undefined), false);
  assert.equal(roleHasAdminRights(null), false);
  assert.equal(roleIsVciso('org:vciso'), true);
  assert.equal(roleIsVciso('org:admin'), false);
});

test('a vCISO holds every permission of an admin (billing, API keys, members, settings, deleting); a member only reads', () => {
  for (const permission of permissionsOf('org:admin')) {
    assert.equal(hasPermission('org:vciso', permission), true, permission);
  }
  for (const permission of [
    'org:sys_billing:manage',
    'org:sys_api_keys:manage',
    'org:sys_memberships:manage',
    'org:sys_profile:manage',
    'org:sys_profile:delete',
    'org:modules:manage',
  ] as const) {
    assert.equal(hasPermission('org:vciso', permission), true, permission);
  }
  assert.equal(hasPermission('org:member', 'org:modules:manage'), false);
  assert.equal(hasPermission('org:member', 'org:sys_billing:manage'), false);
  assert.deepEqual(permissionsOf('org:custom'), []);
});

test('admin rights are derived from the permissions: the roles holding every permission of an admin', () => {
  assert.deepEqual([...ADMIN_RIGHTS_ROLES].sort(), ['org:admin', 'org:vciso']);
});

test('a role is handed out only by a role carrying all its permissions', () => {
  assert.equal(mayManageRole('org:admin', 'org:vciso'), true);
  assert.equal(mayManageRole('org:vciso', 'org:admin'), true);
  assert.equal(mayManageRole('org:vciso', 'org:member'), true);
  assert.equal(mayManageRole('org:member', 'org:member'), true);
  assert.equal(mayManageRole('org:member', 'org:vciso'), false);
  assert.equal(mayManageRole('org:member', 'org:admin'), false);
  assert.equal(mayManageRole('org:custom', 'org:member'), false);
});
