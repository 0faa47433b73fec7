import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  attachPermissionRefusal,
  childrenOf,
  consoleRefusal,
  detachRefusal,
  linkRefusal,
  MAX_ANCESTOR_DEPTH,
  parentOf,
} from '../src/organizations/hierarchy-rules.ts';
import { drifted, type MetadataProjection } from '../src/organizations/metadata-projection.ts';

const complete = (...ids: string[]) => ({ ids, complete: true });

describe('who may run the client-organisation console', () => {
  test('a virtual security officer of an organisation with the vCISO module', () => {
    assert.equal(consoleRefusal({ role: 'org:vciso', vCisoModuleEnabled: true }), null);
  });

  test('nobody else: an admin, a member, no role, or a vCISO without the module', () => {
    for (const role of ['org:admin', 'org:member', 'org:guest', null]) {
      assert.equal(consoleRefusal({ role, vCisoModuleEnabled: true })?.code, 'forbidden', String(role));
    }
    const noModule = consoleRefusal({ role: 'org:vciso', vCisoModuleEnabled: false });
    assert.equal(noModule?.code, 'forbidden');
    assert.match(noModule!.message, /module/);
  });
});

describe('who may attach an organisation', () => {
  test('its admins and virtual security officers', () => {
    assert.equal(attachPermissionRefusal('org:admin'), null);
    assert.equal(attachPermissionRefusal('org:vciso'), null);
  });

  test('not its members, nor someone who does not belong to it (unauthorised)', () => {
    assert.equal(attachPermissionRefusal('org:member')?.code, 'forbidden');
    assert.equal(attachPermissionRefusal(null)?.code, 'forbidden');
  });
});

describe('linking a child: no cycle, one parent', () => {
  const link = (overrides: Partial<Parameters<typeof linkRefusal>[0]> = {}) =>
    linkRefusal({
      parentId: 'org_p',
      childId: 'org_c',
      parentAncestors: complete(),
      childParentId: null,
      childHeight: 0,
      ...overrides,
    });

  test('a free organisation under any other is allowed', () => {
    assert.equal(link(), null);
    assert.equal(link({ parentAncestors: complete('org_grand', 'org_top') }), null);
  });

  test('an organisation cannot be its own child', () => {
    assert.equal(link({ childId: 'org_p' })?.code, 'hierarchy_cycle');
  });

  test('an organisation cannot go under one of its descendants (its parent, or further up)', () => {
    assert.equal(link({ parentAncestors: complete('org_c') })?.code, 'hierarchy_cycle');
    assert.equal(link({ parentAncestors: complete('org_x', 'org_y', 'org_c') })?.code, 'hierarchy_cycle');
  });

  test('a child has at most one parent', () => {
    const refusal = link({ childParentId: 'org_other' });
    assert.equal(refusal?.code, 'already_has_parent');
    assert.match(refusal!.message, /detached/);
  });

  test('linking again to the same parent is allowed (a replayed request)', () => {
    assert.equal(link({ childParentId: 'org_p' }), null);
  });

  test('a chain that could not be read to the top is refused, not guessed', () => {
    assert.equal(link({ parentAncestors: { ids: ['org_x'], complete: false } })?.code, 'hierarchy_too_deep');
  });

  test(`no organisation ends up with more than ${MAX_ANCESTOR_DEPTH} above it, counting the child's own subtree`, () => {
    const above = (n: number) => complete(...Array.from({ length: n }, (_, i) => `org_${i}`));
    assert.equal(link({ parentAncestors: above(MAX_ANCESTOR_DEPTH - 1) }), null);
    assert.equal(link({ parentAncestors: above(MAX_ANCESTOR_DEPTH) })?.code, 'hierarchy_too_deep');
    assert.equal(link({ parentAncestors: above(MAX_ANCESTOR_DEPTH - 3), childHeight: 2 }), null);
    assert.equal(
      link({ parentAncestors: above(MAX_ANCESTOR_DEPTH - 3), childHeight: 3 })?.code,
      'hierarchy_too_deep',
    );
  });

  test('a cycle is reported before a double parent', () => {
    assert.equal(
      link({ parentAncestors: complete('org_c'), childParentId: 'org_other' })?.code,
      'hierarchy_cycle',
    );
  });
});

describe('detaching', () => {
  test('only a child the product database links to the parent', () => {
    assert.equal(detachRefusal({ parentId: 'org_p', childParentId: 'org_p' }), null);
  });

  test('anything else is not_a_child', () => {
    assert.equal(detachRefusal({ parentId: 'org_p', childParentId: null })?.code, 'not_a_child');
    assert.equal(detachRefusal({ parentId: 'org_p', childParentId: 'org_other' })?.code, 'not_a_child');
  });
});

describe('the two sides of the link in metadata (read when adopting a hierarchy)', () => {
  test('untyped metadata: only strings count', () => {
    assert.deepEqual(childrenOf({ vcisoChildOrganizations: ['org_a', 3, null, 'org_b'] }), [
      'org_a',
      'org_b',
    ]);
    assert.deepEqual(childrenOf({ vcisoChildOrganizations: 'org_a' }), []);
    assert.deepEqual(childrenOf(null), []);
    assert.equal(parentOf({ parentOrganizationId: 'org_p' }), 'org_p');
    assert.equal(parentOf({ parentOrganizationId: '' }), null);
    assert.equal(parentOf({ parentOrganizationId: 7 }), null);
    assert.equal(parentOf({}), null);
  });
});

describe('metadata drift', () => {
  const projection: MetadataProjection = {
    parentOrganizationId: 'org_p',
    vcisoChildOrganizations: ['org_a', 'org_b'],
    hasActiveSubscription: 'NO',
  };
  const none: MetadataProjection = {
    parentOrganizationId: null,
    vcisoChildOrganizations: [],
    hasActiveSubscription: 'NO',
  };

  test('metadata that shows the projection is not drift; a missing list or parent reads as none', () => {
    assert.equal(
      drifted({ parentOrganizationId: 'org_p', vcisoChildOrganizations: ['org_a', 'org_b'] }, projection),
      false,
    );
    assert.equal(drifted({}, none), false);
    assert.equal(drifted(null, none), false);
    assert.equal(drifted({ hasActiveSubscription: 'NO' }, none), false);
  });

  test('a subscription flag other than the derived one is drift; a missing flag reads as NO', () => {
    assert.equal(drifted({ hasActiveSubscription: 'YES' }, none), true);
    assert.equal(drifted({}, { ...none, hasActiveSubscription: 'TRIAL' }), true);
    assert.equal(
      drifted({ hasActiveSubscription: 'TRIAL' }, { ...none, hasActiveSubscription: 'TRIAL' }),
      false,
    );
  });

  test('another parent, another order, a missing or extra child, or a wrong type is drift', () => {
    for (const metadata of [
      { parentOrganizationId: 'org_q', vcisoChildOrganizations: ['org_a', 'org_b'] },
      { parentOrganizationId: 'org_p', vcisoChildOrganizations: ['org_b', 'org_a'] },
      { parentOrganizationId: 'org_p', vcisoChildOrganizations: ['org_a'] },
      { parentOrganizationId: 'org_p', vcisoChildOrganizations: ['org_a', 'org_b', 'org_c'] },
      { parentOrganizationId: 'org_p', vcisoChildOrganizations: 'org_a,org_b' },
      { vcisoChildOrganizations: ['org_a', 'org_b'] },
    ]) {
      assert.equal(drifted(metadata, projection), true, JSON.stringify(metadata));
    }
  });
});
