import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import Fastify from 'fastify';
import { bapiPlugin } from '../src/bapi/plugin.ts';
import { forEachBackend } from './support/backends.ts';
import {
  BAPI_KEY_PLACEHOLDER,
  bapiCases,
  buildWorld,
  describeRequest,
  FUZZ_CASES,
  FUZZ_SEED,
  judge,
  knownClientErrorCodes,
  pathParamCases,
  Rng,
  routeSeed,
  send,
  snapshot,
  snapshotDiff,
  type BapiSpec,
  type FuzzRequest,
  type World,
} from './support/fuzz.ts';
import { BAPI, Harness } from './support/harness.ts';

const METADATA = { public_metadata: 'object', private_metadata: 'object' } as const;
const LIST = { limit: 'page', offset: 'page', order_by: 'enum' } as const;

/**
 * The parameters each Backend API route reads, by kind. A route missing here fails the run.
 * Unknown parameters: identity ignores JSON keys it does not read (@clerk/backend sends some we have no
 * use for), so they go alone only to read-only routes, and elsewhere with a defect of their own.
 */
const SPECS: Record<string, BapiSpec> = {
  'GET /v1/jwks': { readOnly: true },
  'GET /v1/users': {
    readOnly: true,
    query: {
      ...LIST,
      email_address: 'text',
      user_id: 'text',
      external_id: 'text',
      organization_id: 'text',
      query: 'text',
    },
  },
  'GET /v1/users/count': {
    readOnly: true,
    query: { email_address: 'text', user_id: 'text', organization_id: 'text', query: 'text' },
  },
  'GET /v1/users/:id': { readOnly: true },
  'PATCH /v1/users/:id/metadata': { params: { ...METADATA, unsafe_metadata: 'object' } },
  'POST /v1/users/:id/lock': {},
  'POST /v1/users/:id/unlock': {},
  'POST /v1/users/:id/require_password_reset': {},
  'DELETE /v1/users/:id/require_password_reset': {},
  'GET /v1/organizations': {
    readOnly: true,
    query: { ...LIST, organization_id: 'text', query: 'text', include_members_count: 'flag' },
  },
  'POST /v1/organizations': {
    params: {
      name: 'string',
      slug: 'string',
      created_by: 'id',
      ...METADATA,
      max_allowed_memberships: 'integer',
    },
  },
  'GET /v1/organizations/:id': { readOnly: true, query: { include_members_count: 'flag' } },
  'PATCH /v1/organizations/:id': {
    params: {
      name: 'string',
      slug: 'string',
      ...METADATA,
      max_allowed_memberships: 'integer',
      admin_delete_enabled: 'boolean',
    },
  },
  'DELETE /v1/organizations/:id': {},
  'PATCH /v1/organizations/:id/metadata': { params: METADATA },
  'PUT /v1/organizations/:id/logo': {},
  'DELETE /v1/organizations/:id/logo': {},
  'GET /v1/organizations/:id/memberships': {
    readOnly: true,
    query: { ...LIST, role: 'text', user_id: 'text', email_address: 'text', query: 'text' },
  },
  'POST /v1/organizations/:id/memberships': { params: { user_id: 'id', role: 'role' } },
  'PATCH /v1/organizations/:id/memberships/:userId': { params: { role: 'role' } },
  'PATCH /v1/organizations/:id/memberships/:userId/metadata': { params: METADATA },
  'DELETE /v1/organizations/:id/memberships/:userId': {},
  'GET /v1/organizations/:id/invitations': {
    readOnly: true,
    query: { limit: 'page', offset: 'page', status: 'enum' },
  },
  'POST /v1/organizations/:id/invitations': {
    params: {
      email_address: 'email',
      role: 'role',
      inviter_user_id: 'id',
      ...METADATA,
      redirect_url: 'string',
      expires_in_days: 'integer',
    },
  },
  'POST /v1/organizations/:id/invitations/bulk': {
    array: true,
    params: { email_address: 'email', role: 'role', inviter_user_id: 'id', ...METADATA },
  },
  'GET /v1/organizations/:id/invitations/:invitationId': { readOnly: true },
  'POST /v1/organizations/:id/invitations/:invitationId/revoke': { params: { requesting_user_id: 'string' } },
  'POST /v1/actor_tokens': {
    params: {
      user_id: 'id',
      actor: 'object',
      expires_in_seconds: 'number',
      session_max_duration_in_seconds: 'number',
    },
  },
  'POST /v1/actor_tokens/:id/revoke': {},
};

forEachBackend('fuzzing the Backend API with bad input', (backend) => {
  let h: Harness;
  let world: World;
  /** The Backend API's route table, as Fastify registers it. */
  const routes: { method: FuzzRequest['method']; path: string }[] = [];
  const known = knownClientErrorCodes();
  before(async () => {
    h = await Harness.start(backend);
    world = await buildWorld(h);
    const scratch = Fastify();
    scratch.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        if (method === 'HEAD' || !route.url.startsWith(BAPI)) continue;
        routes.push({ method: method as FuzzRequest['method'], path: route.url.slice(BAPI.length) });
      }
    });
    await scratch.register(bapiPlugin, { prefix: BAPI, deps: h.identity.deps });
    await scratch.ready();
    await scratch.close();
    console.warn(`fuzz-bapi [${backend.name}]: FUZZ_SEED=${FUZZ_SEED} FUZZ_CASES=${FUZZ_CASES}`);
  });
  after(() => h.close());

  it('every route has a fuzz spec, and every spec a route', () => {
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    assert.ok(keys.length > 20, `the route table was read (${keys.length} routes)`);
    assert.deepEqual(
      keys.filter((k) => !SPECS[k]),
      [],
      'routes without a fuzz spec',
    );
    assert.deepEqual(
      Object.keys(SPECS).filter((k) => !keys.includes(k)),
      [],
      'fuzz specs of routes that no longer exist',
    );
  });

  it('answers every bad request with a 4xx in Clerk envelope and changes nothing', async (t) => {
    for (const route of routes) {
      const key = `${route.method} ${route.path}`;
      await t.test(key, async () => {
        const spec = SPECS[key];
        assert.ok(spec, `no fuzz spec for ${key}`);
        const rng = new Rng(routeSeed(FUZZ_SEED, key));
        const cases = bapiCases(route, spec, world, rng, FUZZ_CASES);
        const before = await snapshot(h.db);
        const failures: string[] = [];
        for (const req of cases) {
          const res = await send(h, req, 'bapi', rng);
          const verdict = judge(req, res, known);
          if (!verdict.ok) failures.push(`${describeRequest(req)}\n    → ${verdict.problem}`);
        }
        const changed = snapshotDiff(before, await snapshot(h.db));
        if (changed.length) world = await buildWorld(h);
        if (changed.length)
          failures.push(`the database changed:\n    ${changed.slice(0, 20).join('\n    ')}`);
        assert.deepEqual(failures, [], `FUZZ_SEED=${FUZZ_SEED} ${key}:\n${failures.join('\n')}`);
      });
    }
  });

  it('answers every wrong id in every path parameter with a 4xx in Clerk envelope', async () => {
    const rng = new Rng(FUZZ_SEED);
    const before = await snapshot(h.db);
    const failures: string[] = [];
    for (const route of routes) {
      const bodied = route.method !== 'GET' && route.method !== 'DELETE';
      const cases = pathParamCases(route, world, rng, (path, label) => ({
        label: `${route.method} ${route.path}: ${label}`,
        method: route.method,
        url: `${BAPI}${path}`,
        headers: {
          authorization: `Bearer ${BAPI_KEY_PLACEHOLDER}`,
          ...(bodied ? { 'content-type': 'application/json' } : {}),
        },
        payload: bodied ? (route.path.endsWith('/bulk') ? '[]' : '{}') : undefined,
        expect: 'reject',
      }));
      for (const req of cases) {
        const verdict = judge(req, await send(h, req, 'bapi', rng), known);
        if (!verdict.ok) failures.push(`${describeRequest(req)}\n    → ${verdict.problem}`);
      }
    }
    const changed = snapshotDiff(before, await snapshot(h.db));
    if (changed.length) failures.push(`the database changed:\n    ${changed.slice(0, 20).join('\n    ')}`);
    assert.deepEqual(failures, [], failures.join('\n'));
  });
});
