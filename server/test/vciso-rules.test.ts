import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ancestorsOf,
  attachPermissionRefusal,
  childrenOf,
  childrenWith,
  childrenWithout,
  consoleRefusal,
  detachRefusal,
  linkRefusal,
  MAX_ANCESTOR_DEPTH,
  parentOf,
} from '../src/organizations/hierarchy-rules.ts';
import { SerialQueue } from '../src/organizations/hierarchy-lock.ts';

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

  test('linking again to the same parent is allowed (it completes a half-written link)', () => {
    assert.equal(link({ childParentId: 'org_p' }), null);
  });

  test('a chain that could not be read to the top is refused, not guessed', () => {
    assert.equal(link({ parentAncestors: { ids: ['org_x'], complete: false } })?.code, 'hierarchy_too_deep');
  });

  test('a cycle is reported before a double parent', () => {
    assert.equal(
      link({ parentAncestors: complete('org_c'), childParentId: 'org_other' })?.code,
      'hierarchy_cycle',
    );
  });
});

describe('the ancestors of an organisation', () => {
  const lookup = (parents: Record<string, string | null>) => async (id: string) => parents[id];

  test('nearest first, up to the top', async () => {
    const found = await ancestorsOf('org_a', lookup({ org_a: 'org_b', org_b: 'org_c', org_c: null }));
    assert.deepEqual(found, { ids: ['org_b', 'org_c'], complete: true });
  });

  test('stop at a parent that no longer exists', async () => {
    assert.deepEqual(await ancestorsOf('org_a', lookup({ org_a: 'org_gone' })), {
      ids: ['org_gone'],
      complete: true,
    });
  });

  test('a loop already in the data ends the walk, incomplete', async () => {
    const found = await ancestorsOf('org_a', lookup({ org_a: 'org_b', org_b: 'org_c', org_c: 'org_a' }));
    assert.deepEqual(found, { ids: ['org_b', 'org_c'], complete: false });
  });

  test('a chain deeper than the limit is incomplete', async () => {
    const parents: Record<string, string> = {};
    for (let i = 0; i <= MAX_ANCESTOR_DEPTH + 1; i += 1) parents[`org_${i}`] = `org_${i + 1}`;
    const found = await ancestorsOf('org_0', lookup(parents));
    assert.equal(found.complete, false);
    assert.equal(found.ids.length, MAX_ANCESTOR_DEPTH);
  });
});

describe('detaching', () => {
  const detach = (parentChildren: string[], childParentId: string | null | undefined) =>
    detachRefusal({ parentId: 'org_p', childId: 'org_c', parentChildren, childParentId });

  test('only a real child: one that either side of the link names', () => {
    assert.equal(detach(['org_c'], 'org_p'), null);
    assert.equal(detach(['org_c'], null), null);
    assert.equal(detach([], 'org_p'), null);
    assert.equal(detach(['org_c'], undefined), null);
  });

  test('anything else is not_a_child', () => {
    assert.equal(detach([], null)?.code, 'not_a_child');
    assert.equal(detach(['org_x'], 'org_other')?.code, 'not_a_child');
    assert.equal(detach([], undefined)?.code, 'not_a_child');
  });
});

describe('the two sides of the link in metadata', () => {
  test('children lists keep their order and hold an id once', () => {
    assert.deepEqual(childrenWith(['org_a'], 'org_b'), ['org_a', 'org_b']);
    assert.deepEqual(childrenWith(['org_a', 'org_b'], 'org_a'), ['org_a', 'org_b']);
    assert.deepEqual(childrenWithout(['org_a', 'org_b', 'org_c'], 'org_b'), ['org_a', 'org_c']);
  });

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

describe('SerialQueue', () => {
  test('runs tasks one after the other, in order, past a failure', async () => {
    const queue = new SerialQueue();
    const events: string[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        events.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        events.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      queue.run(task('a')),
      queue.run(task('b', true)),
      queue.run(task('c')),
    ]);
    assert.deepEqual(events, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
  });
});
