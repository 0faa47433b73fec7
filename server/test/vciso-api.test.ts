import { after, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AuthContext } from '../src/auth/authenticate.ts';
import type { ApiDeps } from '../src/api/deps.ts';
import { registerProductApi } from '../src/api/product-api.ts';
import { defaultOrganizationMetadata } from '../src/organizations/default-metadata.ts';
import { InMemoryBackend, fakeApiDeps } from './support/in-memory-backend.ts';

const context = (userId: string, orgId: string | null, orgRole: string | null): AuthContext => ({
  userId,
  sessionId: `sess_${userId}`,
  orgId,
  orgSlug: orgId,
  orgRole,
  orgPermissions: [],
});

interface Answer {
  status: number;
  body: Record<string, unknown> & { errors?: { code: string; message: string }[] };
}

const CHILDREN = '/api/organizations/current/children';

describe('vCISO client organisations API', () => {
  let backend: InMemoryBackend;
  let app: FastifyInstance;
  const tokens = new Map<string, AuthContext>();
  const deps: ApiDeps = fakeApiDeps(() => backend, tokens);

  const call = async (
    token: string | undefined,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ): Promise<Answer> => {
    const res = await app.inject({
      method,
      url,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined
        ? {}
        : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
    });
    return { status: res.statusCode, body: res.json() };
  };
  /** Sets stored metadata directly, as data already there (not a write the routes made). */
  const setMetadata = (orgId: string, patch: Record<string, unknown>) => {
    const stored = backend.stored(orgId);
    stored.publicMetadata = { ...(stored.publicMetadata ?? {}), ...patch };
  };
  const codeOf = (answer: Answer) => answer.body.errors?.[0]?.code;
  const metadataOf = (orgId: string) => backend.stored(orgId).publicMetadata ?? {};
  /** Everything the fake Backend API holds, to show that a refusal changed nothing. */
  const snapshot = () =>
    structuredClone({
      organizations: [...backend.organizationsById.entries()],
      memberships: [...backend.memberships.entries()].map(([id, members]) => [id, [...members.entries()]]),
    });

  const organization = (id: string, name: string, metadata: Record<string, unknown> = {}) =>
    backend.add({ id, name, slug: id.replace('org_', ''), publicMetadata: metadata });

  beforeEach(async () => {
    await app?.close();
    backend = new InMemoryBackend();
    // A vCISO firm with the module, its ancestor, and organisations to attach.
    organization('org_top', 'Holding', {
      ...defaultOrganizationMetadata('org_top'),
      vcisoChildOrganizations: ['org_p'],
    });
    organization('org_p', 'Parent Firm', {
      ...defaultOrganizationMetadata('org_p'),
      vCisoModuleEnabled: true,
      parentOrganizationId: 'org_top',
    });
    organization('org_nomod', 'No Module Firm', defaultOrganizationMetadata('org_nomod'));
    organization('org_x', 'Client X', { hasActiveSubscription: 'TRIAL', complianceModuleEnabled: true });
    organization('org_m', 'Member Only');
    organization('org_q', 'Other Firm', {
      ...defaultOrganizationMetadata('org_q'),
      vCisoModuleEnabled: true,
      vcisoChildOrganizations: ['org_y'],
    });
    organization('org_y', 'Taken Client', { parentOrganizationId: 'org_q' });
    backend.addMember('org_p', 'user_v', 'org:vciso');
    backend.addMember('org_p', 'user_a', 'org:admin');
    backend.addMember('org_top', 'user_v', 'org:admin');
    backend.addMember('org_nomod', 'user_v', 'org:vciso');
    backend.addMember('org_x', 'user_v', 'org:admin');
    backend.addMember('org_m', 'user_v', 'org:member');
    backend.addMember('org_y', 'user_v', 'org:admin');
    backend.addMember('org_x', 'user_o', 'org:admin');

    tokens.clear();
    tokens.set('vciso-p', context('user_v', 'org_p', 'org:vciso'));
    tokens.set('admin-p', context('user_a', 'org_p', 'org:admin'));
    tokens.set('vciso-nomod', context('user_v', 'org_nomod', 'org:vciso'));
    tokens.set('vciso-none', context('user_v', null, null));
    tokens.set('vciso-gone', context('user_v', 'org_deleted', 'org:vciso'));
    tokens.set('admin-x', context('user_o', 'org_x', 'org:admin'));
    app = Fastify({ logger: false });
    await app.register(async (api) => registerProductApi(api, deps), { prefix: '/api' });
  });

  after(async () => {
    await app?.close();
  });

  describe('the gate: a vCISO of an organisation with the vCISO module', () => {
    for (const [who, token] of [
      ['a plain admin', 'admin-p'],
      ['a vCISO whose organisation lacks the module', 'vciso-nomod'],
      ['a caller without an active organisation', 'vciso-none'],
    ] as const) {
      test(`403 forbidden for ${who}, on every console route, and nothing changes`, async () => {
        const before = snapshot();
        const answers = [
          await call(token, 'GET', CHILDREN),
          await call(token, 'POST', CHILDREN, { name: 'Sneaky' }),
          await call(token, 'PUT', `${CHILDREN}/org_x`),
          await call(token, 'DELETE', `${CHILDREN}/org_p`),
        ];
        for (const answer of answers) {
          assert.equal(answer.status, 403);
          assert.equal(codeOf(answer), 'forbidden');
          assert.equal(typeof answer.body.errors?.[0]?.message, 'string');
        }
        assert.deepEqual(snapshot(), before);
      });
    }

    test('403 comes before 422: an admin with an invalid body is still forbidden', async () => {
      assert.equal((await call('admin-p', 'POST', CHILDREN, { nonsense: true })).status, 403);
    });

    test('401 unauthenticated without a session token', async () => {
      const answer = await call(undefined, 'GET', CHILDREN);
      assert.equal(answer.status, 401);
      assert.equal(codeOf(answer), 'unauthenticated');
    });

    test('404 organization_not_found once the active organisation is gone', async () => {
      const answer = await call('vciso-gone', 'GET', CHILDREN);
      assert.equal(answer.status, 404);
      assert.equal(codeOf(answer), 'organization_not_found');
    });
  });

  describe('list', () => {
    test('an organisation without children lists none', async () => {
      assert.deepEqual(await call('vciso-p', 'GET', CHILDREN), { status: 200, body: { data: [] } });
    });

    test('lists children in order with their modules and subscription; deleted ones are left out', async () => {
      setMetadata('org_p', { vcisoChildOrganizations: ['org_x', 'org_gone'] });
      setMetadata('org_x', { parentOrganizationId: 'org_p' });
      const answer = await call('vciso-p', 'GET', CHILDREN);
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body.data, [
        {
          id: 'org_x',
          name: 'Client X',
          slug: 'x',
          modules: {
            vCisoModuleEnabled: false,
            complianceModuleEnabled: true,
            qompanionModuleEnabled: false,
            hexadiagModuleEnabled: false,
            passportModuleEnabled: false,
          },
          hasActiveSubscription: 'TRIAL',
        },
      ]);
    });
  });

  describe('create', () => {
    test('creates the child with default metadata and its parent, the vCISO as its only member, and lists it', async () => {
      const answer = await call('vciso-p', 'POST', CHILDREN, { name: '  Client New ', slug: 'client-new' });
      assert.equal(answer.status, 201);
      const id = answer.body.id as string;
      assert.match(id, /^org_/);
      assert.equal(answer.body.name, 'Client New');
      assert.equal(answer.body.slug, 'client-new');
      assert.equal(answer.body.hasActiveSubscription, 'NO');

      const { organizationId: _, ...defaults } = defaultOrganizationMetadata(id);
      assert.deepEqual(metadataOf(id), { ...defaults, parentOrganizationId: 'org_p' });
      assert.deepEqual(metadataOf('org_p').vcisoChildOrganizations, [id]);
      assert.deepEqual([...backend.memberships.get(id)!], [['user_v', 'org:vciso']]);

      const list = await call('vciso-p', 'GET', CHILDREN);
      assert.deepEqual(
        (list.body.data as { id: string }[]).map((c) => c.id),
        [id],
      );
    });

    test('a blank slug lets the Backend API derive one', async () => {
      const answer = await call('vciso-p', 'POST', CHILDREN, { name: 'Derived', slug: '  ' });
      assert.equal(answer.status, 201);
      assert.equal(typeof answer.body.slug, 'string');
    });

    const invalidBodies: [string, unknown][] = [
      ['no name', {}],
      ['a blank name', { name: '   ' }],
      ['a name that is not a string', { name: 42 }],
      ['a name over 256 characters', { name: 'x'.repeat(257) }],
      ['a slug with capitals', { name: 'A', slug: 'Client' }],
      ['a slug with a leading hyphen', { name: 'A', slug: '-client' }],
      ['a slug that is not a string', { name: 'A', slug: 5 }],
      ['an unknown field', { name: 'A', parentOrganizationId: 'org_q' }],
      ['a body that is not an object', ['A']],
      ['a body that is not JSON', '{"name":'],
    ];
    for (const [what, body] of invalidBodies) {
      test(`422 invalid_request for ${what}, and nothing changes`, async () => {
        const before = snapshot();
        const answer = await call('vciso-p', 'POST', CHILDREN, body);
        assert.equal(answer.status, 422);
        assert.equal(codeOf(answer), 'invalid_request');
        assert.ok(answer.body.errors?.[0]?.message);
        assert.deepEqual(snapshot(), before);
      });
    }

    test('409 slug_taken for a slug in use, and nothing changes', async () => {
      const before = snapshot();
      const answer = await call('vciso-p', 'POST', CHILDREN, { name: 'Dup', slug: 'x' });
      assert.equal(answer.status, 409);
      assert.equal(codeOf(answer), 'slug_taken');
      assert.deepEqual(snapshot(), before);
    });

    for (const operation of ['createOrganizationMembership', 'updateOrganizationMetadata']) {
      test(`all or nothing: when ${operation} fails, the new organisation is deleted again`, async () => {
        const before = snapshot();
        backend.failNextWrite = (write) => write.operation === operation;
        const answer = await call('vciso-p', 'POST', CHILDREN, { name: 'Doomed' });
        // The Backend API answered 503: the product says the service is unavailable, and undid its part.
        assert.equal(answer.status, 503);
        assert.equal(codeOf(answer), 'service_unavailable');
        assert.deepEqual(snapshot(), before);
      });
    }

    test('concurrent creations under one parent all end up in its list', async () => {
      backend.interleave = true;
      const answers = await Promise.all(
        ['One', 'Two', 'Three', 'Four'].map((name) => call('vciso-p', 'POST', CHILDREN, { name })),
      );
      assert.deepEqual(
        answers.map((a) => a.status),
        [201, 201, 201, 201],
      );
      assert.deepEqual(
        [...(metadataOf('org_p').vcisoChildOrganizations as string[])].sort(),
        answers.map((a) => a.body.id as string).sort(),
      );
    });
  });

  describe('attach', () => {
    test('links an organisation where the vCISO is admin: both sides, answered as listed', async () => {
      const answer = await call('vciso-p', 'PUT', `${CHILDREN}/org_x`);
      assert.equal(answer.status, 200);
      assert.equal(answer.body.id, 'org_x');
      assert.equal(answer.body.hasActiveSubscription, 'TRIAL');
      assert.equal(metadataOf('org_x').parentOrganizationId, 'org_p');
      assert.deepEqual(metadataOf('org_p').vcisoChildOrganizations, ['org_x']);
      // The caller's role in the attached organisation is left as it was.
      assert.equal(backend.memberships.get('org_x')!.get('user_v'), 'org:admin');
    });

    test('attaching again changes nothing and answers the child', async () => {
      await call('vciso-p', 'PUT', `${CHILDREN}/org_x`);
      const writes = backend.metadataWrites.length;
      const answer = await call('vciso-p', 'PUT', `${CHILDREN}/org_x`);
      assert.equal(answer.status, 200);
      assert.equal(backend.metadataWrites.length, writes);
    });

    test('completes a half-written link (the child names the parent, the parent does not list it)', async () => {
      setMetadata('org_x', { parentOrganizationId: 'org_p' });
      const answer = await call('vciso-p', 'PUT', `${CHILDREN}/org_x`);
      assert.equal(answer.status, 200);
      assert.deepEqual(metadataOf('org_p').vcisoChildOrganizations, ['org_x']);
    });

    const refusals: [string, string, number, string][] = [
      ['an organisation where the vCISO is only a member', 'org_m', 403, 'forbidden'],
      ['an organisation that does not exist', 'org_nowhere', 403, 'forbidden'],
      ['an organisation that already has another parent', 'org_y', 409, 'already_has_parent'],
      ['the active organisation itself', 'org_p', 409, 'hierarchy_cycle'],
      ['an ancestor of the active organisation', 'org_top', 409, 'hierarchy_cycle'],
      ['a slug instead of an id', 'x', 422, 'invalid_request'],
    ];
    for (const [what, id, status, code] of refusals) {
      test(`${status} ${code} for ${what}, and nothing changes`, async () => {
        const before = snapshot();
        const answer = await call('vciso-p', 'PUT', `${CHILDREN}/${id}`);
        assert.equal(answer.status, status);
        assert.equal(codeOf(answer), code);
        assert.ok(answer.body.errors?.[0]?.message);
        assert.deepEqual(snapshot(), before);
      });
    }

    test('a member and a non-member get the same refusal, so existence is not revealed', async () => {
      const member = await call('vciso-p', 'PUT', `${CHILDREN}/org_m`);
      const stranger = await call('vciso-p', 'PUT', `${CHILDREN}/org_nowhere`);
      assert.deepEqual(member.body, stranger.body);
    });

    test('all or nothing: when the parent side fails, the child side is undone', async () => {
      const before = snapshot();
      backend.failNextWrite = (write) =>
        write.operation === 'updateOrganizationMetadata' && write.organizationId === 'org_p';
      const answer = await call('vciso-p', 'PUT', `${CHILDREN}/org_x`);
      assert.equal(answer.status, 503);
      assert.deepEqual(snapshot(), before);
    });

    test('two attaches that would close a cycle together: one wins, the other is refused', async () => {
      // org_x's vCISO (user_v is its admin; make it vCISO with the module) and org_p attach each other.
      setMetadata('org_x', { vCisoModuleEnabled: true });
      backend.addMember('org_x', 'user_v', 'org:vciso');
      tokens.set('vciso-x', context('user_v', 'org_x', 'org:vciso'));
      backend.interleave = true;
      const [one, two] = await Promise.all([
        call('vciso-p', 'PUT', `${CHILDREN}/org_x`),
        call('vciso-x', 'PUT', `${CHILDREN}/org_p`),
      ]);
      assert.deepEqual([one.status, two.status].sort(), [200, 409]);
      assert.equal([one, two].map(codeOf).find(Boolean), 'hierarchy_cycle');
    });
  });

  describe('detach', () => {
    beforeEach(async () => {
      assert.equal((await call('vciso-p', 'PUT', `${CHILDREN}/org_x`)).status, 200);
    });

    test('clears both sides; the organisation and its members stay', async () => {
      const answer = await call('vciso-p', 'DELETE', `${CHILDREN}/org_x`);
      assert.deepEqual(answer, { status: 200, body: { id: 'org_x', detached: true } });
      assert.equal(metadataOf('org_x').parentOrganizationId, undefined);
      assert.deepEqual(metadataOf('org_p').vcisoChildOrganizations, []);
      assert.equal(backend.memberships.get('org_x')!.get('user_v'), 'org:admin');
      // Free again: it can be attached anew.
      assert.equal((await call('vciso-p', 'PUT', `${CHILDREN}/org_x`)).status, 200);
    });

    for (const [what, id] of [
      ['an organisation that is not a child', 'org_m'],
      ["another parent's child", 'org_y'],
      ['the active organisation itself', 'org_p'],
    ]) {
      test(`404 not_a_child for ${what}, and nothing changes`, async () => {
        const before = snapshot();
        const answer = await call('vciso-p', 'DELETE', `${CHILDREN}/${id}`);
        assert.equal(answer.status, 404);
        assert.equal(codeOf(answer), 'not_a_child');
        assert.deepEqual(snapshot(), before);
      });
    }

    test('all or nothing: when the child side fails, the parent list is restored', async () => {
      const before = snapshot();
      backend.failNextWrite = (write) =>
        write.operation === 'updateOrganizationMetadata' && write.organizationId === 'org_x';
      const answer = await call('vciso-p', 'DELETE', `${CHILDREN}/org_x`);
      assert.equal(answer.status, 503);
      assert.deepEqual(snapshot(), before);
    });

    test('a child deleted since can still be taken off the list', async () => {
      await backend.organizations.deleteOrganization('org_x');
      const answer = await call('vciso-p', 'DELETE', `${CHILDREN}/org_x`);
      assert.equal(answer.status, 200);
      assert.deepEqual(metadataOf('org_p').vcisoChildOrganizations, []);
    });
  });

  describe('parent', () => {
    const PARENT = '/api/organizations/current/parent';

    test("a child's member who belongs to the parent can switch to it", async () => {
      assert.equal((await call('vciso-p', 'PUT', `${CHILDREN}/org_x`)).status, 200);
      tokens.set('vciso-in-x', context('user_v', 'org_x', 'org:admin'));
      assert.deepEqual(await call('vciso-in-x', 'GET', PARENT), {
        status: 200,
        body: { parent: { id: 'org_p', name: 'Parent Firm', slug: 'p', isMember: true } },
      });
    });

    test("a child's member who does not belong to the parent sees it, without a way in", async () => {
      assert.equal((await call('vciso-p', 'PUT', `${CHILDREN}/org_x`)).status, 200);
      const answer = await call('admin-x', 'GET', PARENT);
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body.parent, { id: 'org_p', name: 'Parent Firm', slug: 'p', isMember: false });
    });

    test('an organisation without a parent, or whose parent is gone, has none', async () => {
      assert.deepEqual((await call('admin-x', 'GET', PARENT)).body, { parent: null });
      await backend.organizations.deleteOrganization('org_top');
      assert.deepEqual((await call('admin-p', 'GET', PARENT)).body, { parent: null });
    });

    test('needs a session and an active organisation', async () => {
      assert.equal((await call(undefined, 'GET', PARENT)).status, 401);
      const answer = await call('vciso-none', 'GET', PARENT);
      assert.equal(answer.status, 404);
      assert.equal(codeOf(answer), 'no_active_organization');
    });
  });

  test('hasActiveSubscription cannot be written through the product API', async () => {
    const settings = await call('vciso-p', 'PATCH', '/api/organizations/current/settings', {
      hasActiveSubscription: 'YES',
    });
    assert.equal(settings.status, 422);
    const create = await call('vciso-p', 'POST', CHILDREN, { name: 'Paid', hasActiveSubscription: 'YES' });
    assert.equal(create.status, 422);
    assert.equal(metadataOf('org_p').hasActiveSubscription, 'NO');
  });
});
