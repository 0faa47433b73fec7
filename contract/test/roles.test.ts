import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ORG_ROLES,
  ROLES,
  hasPermission,
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

test('a vCISO cannot delete the organisation or manage billing; a member only reads', () => {
  assert.equal(hasPermission('org:admin', 'org:sys_profile:delete'), true);
  assert.equal(hasPermission('org:vciso', 'org:sys_profile:delete'), false);
  assert.equal(hasPermission('org:vciso', 'org:sys_billing:manage'), false);
  assert.equal(hasPermission('org:vciso', 'org:clients:manage'), true);
  assert.equal(hasPermission('org:member', 'org:modules:manage'), false);
  assert.deepEqual(permissionsOf('org:custom'), []);
});
