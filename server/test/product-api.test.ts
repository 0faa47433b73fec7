import { after, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AuthContext } from '../src/auth/authenticate.ts';
import type { ApiDeps } from '../src/api/deps.ts';
import { InMemoryBackend, fakeApiDeps } from './support/in-memory-backend.ts';
import { registerProductApi } from '../src/api/product-api.ts';
import { requireAuth } from '../src/api/require-auth.ts';
import { ADMIN_RIGHTS_ROLES, requireOrgRole } from '../src/api/require-org-role.ts';
import { defaultOrganizationMetadata } from '../src/organizations/default-metadata.ts';

const signedIn = (overrides: Partial<AuthContext> = {}): AuthContext => ({
  userId: 'user_1',
  sessionId: 'sess_1',
  orgId: null,
  orgSlug: null,
  orgRole: null,
  orgPermissions: [],
  ...overrides,
});

const inOrg = (orgId: string, orgRole: string) =>
  signedIn({ orgId, orgSlug: `${orgId}-slug`, orgRole, orgPermissions: ['org:sys_memberships:read'] });

describe('product API', () => {
  let backend: InMemoryBackend;
  let app: FastifyInstance;
  const tokens = new Map<string, AuthContext>();

  const deps: ApiDeps = fakeApiDeps(() => backend, tokens);

  const get = async (url: string, token?: string) => {
    const res = await app.inject({
      method: 'GET',
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return { status: res.statusCode, headers: res.headers, body: res.json() as Record<string, unknown> };
  };

  beforeEach(async () => {
    await app?.close();
    backend = new InMemoryBackend();
    backend.add({ id: 'org_a', name: 'Acme Security', slug: 'acme', publicMetadata: {} });
    backend.add({ id: 'org_b', name: 'Beta Audits', slug: 'beta', publicMetadata: null });
    tokens.clear();
    tokens.set('none', signedIn());
    tokens.set('admin-a', inOrg('org_a', 'org:admin'));
    tokens.set('member-a', inOrg('org_a', 'org:member'));
    tokens.set('vciso-a', inOrg('org_a', 'org:vciso'));
    tokens.set('admin-b', inOrg('org_b', 'org:admin'));
    tokens.set('admin-gone', inOrg('org_deleted', 'org:admin'));
    app = Fastify({ logger: false });
    await app.register(
      async (api) => {
        registerProductApi(api, deps);
        api.get(
          '/admin-only',
          { preHandler: [requireAuth(deps), requireOrgRole(ADMIN_RIGHTS_ROLES)] },
          async () => ({ ok: true }),
        );
      },
      { prefix: '/api' },
    );
  });

  after(async () => {
    await app?.close();
  });

  describe('GET /api/me', () => {
    test('401 unauthenticated without a session token', async () => {
      const res = await get('/api/me');
      assert.equal(res.status, 401);
      assert.equal(res.headers['www-authenticate'], 'Bearer');
      assert.deepEqual(res.body, {
        errors: [{ code: 'unauthenticated', message: 'Missing bearer session token.' }],
      });
    });

    test('adds the active organisation, role and permissions from the token to the existing fields', async () => {
      const res = await get('/api/me', 'admin-a');
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {
        userId: 'user_1',
        sessionId: 'sess_1',
        orgId: 'org_a',
        orgSlug: 'org_a-slug',
        orgRole: 'org:admin',
        orgPermissions: ['org:sys_memberships:read'],
        user: { id: 'user_1', firstName: 'Ada', lastName: null, primaryEmailAddress: 'ada@example.com' },
        actor: null,
      });
    });

    test('null organisation fields and no permissions without an active organisation', async () => {
      const res = await get('/api/me', 'none');
      assert.equal(res.status, 200);
      assert.equal(res.body.orgId, null);
      assert.equal(res.body.orgSlug, null);
      assert.equal(res.body.orgRole, null);
      assert.deepEqual(res.body.orgPermissions, []);
    });

    test('impersonation: actor is who the token’s act claim names, looked up through the Backend API', async () => {
      backend.users = {
        getUser: async (userId) => {
          if (userId === 'user_1')
            return { id: userId, firstName: 'Carl', lastName: null, primaryEmailAddress: null };
          if (userId === 'user_operator')
            return {
              id: userId,
              firstName: 'Olga',
              lastName: 'Operator',
              primaryEmailAddress: { emailAddress: 'olga@example.com' },
            };
          throw Object.assign(new Error('Not Found'), { status: 404 });
        },
      };
      tokens.set('impersonated', signedIn({ actorId: 'user_operator' }));
      tokens.set('impersonated-by-outsider', signedIn({ actorId: 'dashboard_admin_7' }));

      const res = await get('/api/me', 'impersonated');
      assert.equal(res.status, 200);
      assert.equal(res.body.userId, 'user_1');
      assert.deepEqual(res.body.actor, {
        userId: 'user_operator',
        name: 'Olga Operator',
        email: 'olga@example.com',
      });
      // Clerk lets any sub act; one that is no user here is named by id alone.
      const outsider = await get('/api/me', 'impersonated-by-outsider');
      assert.equal(outsider.status, 200);
      assert.deepEqual(outsider.body.actor, { userId: 'dashboard_admin_7', name: null, email: null });
    });

    test('impersonation: a Backend API failure looking up the actor is an error, not a guess', async () => {
      backend.users = {
        getUser: async (userId) => {
          if (userId === 'user_1')
            return { id: userId, firstName: 'Carl', lastName: null, primaryEmailAddress: null };
          throw Object.assign(new Error('Backend API unavailable'), { status: 503 });
        },
      };
      tokens.set('impersonated', signedIn({ actorId: 'user_operator' }));
      const res = await get('/api/me', 'impersonated');
      assert.equal(res.status, 503);
      assert.equal((res.body.errors as { code: string }[])[0]?.code, 'service_unavailable');
    });
  });

  describe('GET /api/organizations/current', () => {
    test('401 unauthenticated without a session token', async () => {
      const res = await get('/api/organizations/current');
      assert.equal(res.status, 401);
      assert.equal((res.body.errors as { code: string }[])[0]?.code, 'unauthenticated');
    });

    test('404 no_active_organization when the token has no active organisation', async () => {
      const res = await get('/api/organizations/current', 'none');
      assert.equal(res.status, 404);
      assert.deepEqual(res.body, {
        errors: [{ code: 'no_active_organization', message: 'The session has no active organisation.' }],
      });
      assert.equal(backend.metadataWrites.length, 0);
    });

    test('answers { id, slug, name, publicMetadata } with the defaults merged on first read', async () => {
      const res = await get('/api/organizations/current', 'admin-a');
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {
        id: 'org_a',
        slug: 'acme',
        name: 'Acme Security',
        publicMetadata: defaultOrganizationMetadata('org_a'),
      });
      assert.deepEqual(backend.metadataWrites, [
        { organizationId: 'org_a', publicMetadata: defaultOrganizationMetadata('org_a') },
      ]);
    });

    test('writes the defaults once: later reads, by any member, change nothing', async () => {
      await get('/api/organizations/current', 'admin-a');
      const again = await get('/api/organizations/current', 'member-a');
      assert.equal(again.status, 200);
      assert.deepEqual(again.body.publicMetadata, defaultOrganizationMetadata('org_a'));
      assert.equal(backend.metadataWrites.length, 1);
    });

    test('keeps values stored before the first read', async () => {
      backend.add({
        id: 'org_a',
        name: 'Acme Security',
        slug: 'acme',
        publicMetadata: { vCisoModuleEnabled: true, hasActiveSubscription: 'TRIAL' },
      });
      const res = await get('/api/organizations/current', 'admin-a');
      const metadata = res.body.publicMetadata as Record<string, unknown>;
      assert.equal(metadata.vCisoModuleEnabled, true);
      assert.equal(metadata.hasActiveSubscription, 'TRIAL');
      assert.equal(metadata.complianceModuleEnabled, false);
      const written = backend.metadataWrites[0]!.publicMetadata;
      assert.equal('vCisoModuleEnabled' in written, false);
      assert.equal('hasActiveSubscription' in written, false);
    });

    test("only ever reads the token's organisation, whatever the request says", async () => {
      const res = await get('/api/organizations/current?organizationId=org_a&orgId=org_a', 'admin-b');
      assert.equal(res.body.id, 'org_b');
      assert.equal(res.body.name, 'Beta Audits');
      assert.deepEqual(
        backend.metadataWrites.map((w) => w.organizationId),
        ['org_b'],
      );
    });

    test('404 organization_not_found when the token names an organisation that no longer exists', async () => {
      const res = await get('/api/organizations/current', 'admin-gone');
      assert.equal(res.status, 404);
      assert.equal((res.body.errors as { code: string }[])[0]?.code, 'organization_not_found');
    });

    test('503 service_unavailable, in the API error shape, when the Backend API is unavailable', async () => {
      backend.failNextRead = true;
      const res = await get('/api/organizations/current', 'admin-a');
      assert.equal(res.status, 503);
      assert.equal(res.headers['retry-after'], '2');
      assert.deepEqual(res.body, {
        errors: [
          {
            code: 'service_unavailable',
            message: 'The service is temporarily unavailable. Try again in a moment.',
          },
        ],
      });
    });

    test('500 internal_error, in the API error shape, when the Backend API fails otherwise', async () => {
      backend.users = {
        getUser: async () => {
          throw Object.assign(new Error('Backend API failed'), { status: 500 });
        },
      };
      const res = await get('/api/me', 'admin-a');
      assert.equal(res.status, 500);
      assert.deepEqual(res.body, {
        errors: [{ code: 'internal_error', message: 'The server could not complete the request.' }],
      });
    });
  });

  describe('requireOrgRole', () => {
    test('lets admins and virtual security officers through', async () => {
      assert.equal((await get('/api/admin-only', 'admin-a')).status, 200);
      assert.equal((await get('/api/admin-only', 'vciso-a')).status, 200);
    });

    test('403 forbidden for a member', async () => {
      const res = await get('/api/admin-only', 'member-a');
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, {
        errors: [{ code: 'forbidden', message: 'Your role in the active organisation does not allow this.' }],
      });
    });

    test('403 forbidden without an active organisation', async () => {
      assert.equal((await get('/api/admin-only', 'none')).status, 403);
    });

    test('still 401 first for an unauthenticated caller', async () => {
      assert.equal((await get('/api/admin-only')).status, 401);
    });
  });
});
