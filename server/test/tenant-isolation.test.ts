import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import type { ApiDeps } from '../src/api/deps.ts';
import { PRODUCT_ROUTES, registerProductApi } from '../src/api/product-api.ts';
import { SERVER_ROUTES } from '../src/server-routes.ts';
import {
  sessionToken,
  signUpUser,
  startEmbeddedServer,
  type ApiBody,
  type EmbeddedServer,
  type User,
  TEST_BACKENDS,
} from './support/embedded-server.ts';

/**
 * Tenant isolation of the product API, table-driven over every route it registers, against the real
 * server with its embedded identity provider and real session tokens. Two vCISO firms, A and B, each
 * with an admin, a vCISO and a member, and a client organisation of their own. A's people, with A
 * active in their token, try every route on B: B's id or slug in the path, in the body or in the
 * query, B's client organisation as a child to attach or detach. They get their own organisation's
 * data or a refusal, never B's, and B is unchanged. A new product API route without a row fails the
 * first test.
 */

type Role = 'admin' | 'vciso' | 'member';
const ROLES: Role[] = ['admin', 'vciso', 'member'];

interface Firm {
  id: string;
  slug: string;
  name: string;
  /** Its client organisation, created by its vCISO. */
  child: { id: string; name: string; slug: string };
  users: Record<Role, User>;
}

interface World {
  server: EmbeddedServer;
  a: Firm;
  b: Firm;
}

interface Request {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
}

interface Case {
  /** `METHOD /api/...` exactly as registered; `+ …` marks extra cases for the same route. */
  route: string;
  request: (w: World) => Request;
  /** The status each of A's roles gets. */
  expect: Record<Role, number>;
  /** Further checks of a successful answer (it is about A, or A's caller). */
  check?: (w: World, body: ApiBody, role: Role) => void;
}

const forbiddenUnlessVciso = (vciso: number) => ({ admin: 403, vciso, member: 403 });

const CASES: Case[] = [
  {
    route: 'GET /api/me',
    request: () => ({ method: 'GET', url: '/api/me' }),
    expect: { admin: 200, vciso: 200, member: 200 },
    check: ({ a }, body, role) => {
      assert.equal(body.userId, a.users[role].userId);
      assert.equal(body.orgId, a.id);
    },
  },
  {
    route: 'GET /api/authorized-user',
    request: ({ b }) => ({ method: 'GET', url: `/api/authorized-user?userId=${b.users.admin.userId}` }),
    expect: { admin: 200, vciso: 200, member: 200 },
    check: ({ a }, body, role) => {
      assert.equal(body.userId, a.users[role].userId);
      assert.equal(body.clientId, null);
    },
  },
  {
    route: 'GET /api/me + B named in the query',
    request: ({ b }) => ({ method: 'GET', url: `/api/me?orgId=${b.id}&organization_id=${b.id}` }),
    expect: { admin: 200, vciso: 200, member: 200 },
    check: ({ a }, body) => assert.equal(body.orgId, a.id),
  },
  {
    route: 'GET /api/organizations/current',
    request: ({ b }) => ({ method: 'GET', url: `/api/organizations/current?organizationId=${b.id}` }),
    expect: { admin: 200, vciso: 200, member: 200 },
    check: ({ a }, body) => assert.equal(body.id, a.id),
  },
  {
    route: 'PATCH /api/organizations/current/settings',
    request: () => ({
      method: 'PATCH',
      url: '/api/organizations/current/settings',
      body: { uiLanguage: 'FR' },
    }),
    // Changes A, the token's organisation, for its admin and vCISO.
    expect: { admin: 200, vciso: 200, member: 403 },
    check: ({ a }, body) => assert.equal(body.id, a.id),
  },
  {
    route: 'PATCH /api/organizations/current/settings + B named in the body',
    request: ({ b }) => ({
      method: 'PATCH',
      url: '/api/organizations/current/settings',
      body: { organizationId: b.id, modules: { vCiso: false } },
    }),
    expect: { admin: 422, vciso: 422, member: 403 },
  },
  {
    route: 'POST /api/organizations/current/members',
    // Invites a new address to A, the token's organisation, for those who manage its members.
    request: () => ({
      method: 'POST',
      url: '/api/organizations/current/members',
      body: { emailAddress: `invitee-${randomBytes(4).toString('hex')}@example.com`, role: 'org:member' },
    }),
    expect: { admin: 201, vciso: 201, member: 403 },
    check: (_w, body) => assert.equal(body.outcome, 'invited'),
  },
  {
    route: 'POST /api/organizations/current/members + B named in the body',
    request: ({ b }) => ({
      method: 'POST',
      url: '/api/organizations/current/members',
      body: { emailAddress: b.users.member.email, role: 'org:admin', organizationId: b.id },
    }),
    expect: { admin: 422, vciso: 422, member: 403 },
  },
  {
    route: 'GET /api/organizations/current/children',
    request: ({ b }) => ({ method: 'GET', url: `/api/organizations/current/children?parent=${b.id}` }),
    expect: forbiddenUnlessVciso(200),
    check: ({ a }, body) =>
      assert.deepEqual(
        body.data.map((c: ApiBody) => c.id),
        [a.child.id],
      ),
  },
  {
    route: 'POST /api/organizations/current/children',
    request: ({ b }) => ({
      method: 'POST',
      url: '/api/organizations/current/children',
      body: { name: 'Planted in B', parentOrganizationId: b.id },
    }),
    expect: forbiddenUnlessVciso(422),
  },
  {
    route: 'POST /api/organizations/current/children + with B slug',
    // The slug is B's: a new organisation cannot take it, nor become B.
    request: ({ b }) => ({
      method: 'POST',
      url: '/api/organizations/current/children',
      body: { name: 'Lookalike', slug: b.slug },
    }),
    expect: forbiddenUnlessVciso(409),
  },
  {
    route: 'PUT /api/organizations/current/children/:organizationId',
    request: ({ b }) => ({ method: 'PUT', url: `/api/organizations/current/children/${b.id}` }),
    expect: forbiddenUnlessVciso(403),
  },
  {
    route: "PUT /api/organizations/current/children/:organizationId + B's client",
    request: ({ b }) => ({ method: 'PUT', url: `/api/organizations/current/children/${b.child.id}` }),
    expect: forbiddenUnlessVciso(403),
  },
  {
    route: 'PUT /api/organizations/current/children/:organizationId + by slug',
    request: ({ b }) => ({ method: 'PUT', url: `/api/organizations/current/children/${b.slug}` }),
    expect: forbiddenUnlessVciso(422),
  },
  {
    route: "DELETE /api/organizations/current/children/:organizationId + B's client",
    request: ({ b }) => ({ method: 'DELETE', url: `/api/organizations/current/children/${b.child.id}` }),
    expect: forbiddenUnlessVciso(404),
  },
  {
    route: 'DELETE /api/organizations/current/children/:organizationId',
    request: ({ b }) => ({ method: 'DELETE', url: `/api/organizations/current/children/${b.id}` }),
    expect: forbiddenUnlessVciso(404),
  },
  {
    route: 'GET /api/organizations/current/parent',
    request: ({ b }) => ({ method: 'GET', url: `/api/organizations/current/parent?organizationId=${b.id}` }),
    expect: { admin: 200, vciso: 200, member: 200 },
    check: (_w, body) => assert.deepEqual(body, { parent: null }),
  },
  {
    route: 'GET /api/machine/organizations/:organizationId',
    // For machines only (server/test/m2m-tokens.test.ts): a person's session reads no organisation here.
    request: ({ b }) => ({ method: 'GET', url: `/api/machine/organizations/${b.id}` }),
    expect: { admin: 403, vciso: 403, member: 403 },
  },
];

/** Every route the product API registers, read from Fastify's `onRoute` hook (the routes only keep `deps` for later). */
async function productApiRoutes(): Promise<string[]> {
  const app = Fastify({ logger: false });
  const routes = new Set<string>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) if (method !== 'HEAD') routes.add(`${method} ${route.url}`);
  });
  await app.register(async (api) => registerProductApi(api, {} as ApiDeps), { prefix: '/api' });
  await app.ready();
  await app.close();
  return [...routes].sort();
}

it('every product API route has a tenant-isolation case', async () => {
  const routes = PRODUCT_ROUTES.map((r) => `${r.method} /api${r.path}`).sort();
  // The table is the only place a route is declared: nothing is registered beside it.
  assert.deepEqual(await productApiRoutes(), routes, 'routes registered beside PRODUCT_ROUTES');
  const covered = new Set(CASES.map((c) => c.route.split(' + ')[0]!));
  const missing = routes.filter((r) => !covered.has(r));
  assert.deepEqual(
    missing,
    [],
    `add a case to server/test/tenant-isolation.test.ts for: ${missing.join(', ')}`,
  );
  const stale = [...covered].filter((r) => !routes.includes(r));
  assert.deepEqual(stale, [], 'cases for routes that no longer exist');
});

/**
 * The server's routes beside /api (src/server-routes.ts), each with why it acts for no user and no
 * organisation; every declared one must be here, and each is called below as A with B's ids.
 */
const SERVER_ROUTE_REASONS: Record<string, string> = {
  'GET /app-config.json': "the web app's start-up configuration: the same for everyone, public",
  'GET /healthz': 'reads nothing',
  'GET /sign-in':
    "the web app's page; a development satellite's sync sends the browser's own dev-browser token (its cookie) to a satellite page, exactly on a satellite origin (satellite-sync.test.ts)",
  'GET /.well-known/oauth-protected-resource': 'RFC 9728 metadata: the same for everyone, public',
  'GET /readyz':
    'which databases answer: names and up or down, the same for everyone (observability.test.ts)',
  'GET /metrics':
    'counts by route pattern, strategy and state, never an id or an address; 404 outside METRICS_ALLOWED_FROM (observability.test.ts)',
  'POST /api/webhooks/clerk':
    "the provider's events: the Svix signature is the only credential, and an event only makes the product ask the Backend API again (clerk-webhooks.test.ts)",
};

it('every route of the server beside /api is listed with why it names nothing of anyone', () => {
  const all = SERVER_ROUTES.map((r) => `${r.method} ${r.path}`);
  assert.deepEqual(
    all.filter((k) => !(k in SERVER_ROUTE_REASONS)),
    [],
    'add a reason to SERVER_ROUTE_REASONS',
  );
  assert.deepEqual(
    Object.keys(SERVER_ROUTE_REASONS).filter((k) => !all.includes(k)),
    [],
    'reasons for routes that no longer exist',
  );
});

for (const backend of TEST_BACKENDS) {
  describe(`product API tenant isolation [${backend.name}]`, () => {
    let w: World;
    let bSnapshot: string;

    before(async () => {
      const server = await startEmbeddedServer({ databaseUrl: backend.databaseUrl });
      const firm = async (label: string): Promise<Firm> => {
        const admin = await signUpUser(server, `${label}-admin`);
        const vciso = await signUpUser(server, `${label}-vciso`);
        const member = await signUpUser(server, `${label}-member`);
        const name = `${label} ${randomBytes(3).toString('hex')}`;
        const created = await admin.browser.call('POST', '/organizations', { name });
        assert.equal(created.status, 200, JSON.stringify(created.body?.errors));
        const org = created.body.response;
        for (const [user, role] of [
          [vciso, 'org:vciso'],
          [member, 'org:member'],
        ] as const) {
          const added = await admin.browser.call('POST', `/organizations/${org.id}/memberships`, {
            user_id: user.userId,
            role,
          });
          assert.equal(added.status, 200, JSON.stringify(added.body?.errors));
        }
        const enabled = await server.api(
          await sessionToken(admin, org.id),
          'PATCH',
          '/api/organizations/current/settings',
          { modules: { vCiso: true } },
        );
        assert.equal(enabled.status, 200, JSON.stringify(enabled.body));
        const child = await server.api(
          await sessionToken(vciso, org.id),
          'POST',
          '/api/organizations/current/children',
          { name: `${name} client` },
        );
        assert.equal(child.status, 201, JSON.stringify(child.body));
        return {
          id: org.id,
          slug: org.slug,
          name,
          child: { id: child.body.id, name: child.body.name, slug: child.body.slug },
          users: { admin, vciso, member },
        };
      };
      const a = await firm('alpha');
      const b = await firm('bravo');
      w = { server, a, b };
      bSnapshot = await snapshot(w);
    });
    after(() => w?.server.stop());

    /** B and its client organisation as stored, with their members. */
    async function snapshot({ server, b }: World): Promise<string> {
      const ids = [b.id, b.child.id];
      const organizations = await server.db.query(
        'SELECT id, name, slug, public_metadata, private_metadata, updated_at FROM organizations WHERE id = ANY($1) ORDER BY id',
        [ids],
      );
      const members = await server.db.query(
        'SELECT organization_id, user_id, role, updated_at FROM organization_memberships WHERE organization_id = ANY($1) ORDER BY id',
        [ids],
      );
      return JSON.stringify({ organizations, members });
    }

    /** B's identifiers, which no answer to A's people may contain (unless their own request named it). */
    function secrets({ b }: World): string[] {
      return [
        b.id,
        b.slug,
        b.name,
        b.child.id,
        b.child.name,
        b.child.slug,
        ...ROLES.flatMap((r) => [b.users[r].userId, b.users[r].email]),
      ];
    }

    it("A's admin gets nothing of B from the server's routes beside /api, with B's ids in query and body", async () => {
      const token = await sessionToken(w.a.users.admin, w.a.id);
      for (const route of SERVER_ROUTES) {
        for (const target of [w.b.id, w.b.child.id, w.b.users.admin.userId]) {
          const named = { organization_id: target, user_id: target, type: 'organization.deleted' };
          const res = await w.server.app.fastify.inject({
            method: route.method,
            url: `${route.path}?${new URLSearchParams(named)}`,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            ...(route.method === 'POST'
              ? { payload: JSON.stringify({ type: 'organization.deleted', data: { id: target } }) }
              : {}),
          });
          const label = `${route.method} ${route.path} with ${target}: ${res.statusCode} ${res.body.slice(0, 300)}`;
          assert.ok(res.statusCode < 500, label);
          if (route.auth === 'webhook_signature') assert.equal(res.statusCode, 401, label);
          for (const secret of secrets(w).filter((s) => s !== target))
            assert.equal(res.body.includes(secret), false, `${label} leaks ${secret}`);
        }
      }
      assert.equal(await snapshot(w), bSnapshot, 'B is unchanged');
    });

    for (const role of ROLES) {
      it(`A's ${role}, with A active, gets A or a refusal from every route, never B; B is unchanged`, async () => {
        const attacker = w.a.users[role];
        const token = await sessionToken(attacker, w.a.id);
        for (const c of CASES) {
          const req = c.request(w);
          const res = await w.server.api(token, req.method, req.url, req.body);
          const label = `${c.route} as A's ${role}`;
          assert.equal(res.status, c.expect[role], `${label}: ${res.status} ${JSON.stringify(res.body)}`);
          if (res.status < 300) c.check?.(w, res.body, role);
          const asked = JSON.stringify(req);
          const text = JSON.stringify(res.body);
          for (const secret of secrets(w).filter((s) => !asked.includes(s)))
            assert.equal(text.includes(secret), false, `${label} leaks ${secret}`);
        }
        assert.equal(await snapshot(w), bSnapshot, 'B is unchanged');
      });
    }

    it('a token cannot be made to name B: the provider leaves the organisation out, and a forged claim is refused', async () => {
      const attacker = w.a.users.admin;
      // The provider issues no token for an organisation the user is not a member of.
      const withoutOrg = await sessionToken(attacker, w.b.id);
      const current = await w.server.api(withoutOrg, 'GET', '/api/organizations/current');
      assert.equal(current.status, 404);
      assert.equal(current.body.errors[0].code, 'no_active_organization');

      // A's token with its organisation claim rewritten to B's: the signature no longer holds.
      const [header, payload, signature] = (await sessionToken(attacker, w.a.id)).split('.') as [
        string,
        string,
        string,
      ];
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const forged = { ...claims, org_id: w.b.id, org_slug: w.b.slug, org_role: 'org:admin' };
      if (claims.o) forged.o = { ...claims.o, id: w.b.id, slg: w.b.slug, rol: 'admin' };
      const token = `${header}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`;
      for (const c of CASES) {
        const req = c.request(w);
        const res = await w.server.api(token, req.method, req.url, req.body);
        assert.equal(res.status, 401, `${c.route} with a forged token: ${res.status}`);
        assert.equal(res.body.errors[0].code, 'unauthenticated');
      }
      assert.equal(await snapshot(w), bSnapshot, 'B is unchanged');
    });

    it("B's own people still see B as it was (the fixture is real)", async () => {
      const token = await sessionToken(w.b.users.vciso, w.b.id);
      const children = await w.server.api(token, 'GET', '/api/organizations/current/children');
      assert.equal(children.status, 200, JSON.stringify(children.body));
      assert.deepEqual(
        children.body.data.map((c: ApiBody) => c.id),
        [w.b.child.id],
      );
      const parent = await w.server.api(
        await sessionToken(w.b.users.vciso, w.b.child.id),
        'GET',
        '/api/organizations/current/parent',
      );
      assert.equal(parent.status, 200, JSON.stringify(parent.body));
      assert.equal(parent.body.parent.id, w.b.id);
    });
  });
}
