import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import Fastify from 'fastify';
import { bapiPlugin } from '../src/bapi/plugin.ts';
import { bodyKinds, queryKinds } from '../src/bapi/json-input.ts';
import type { BapiRoute } from '../src/bapi/route.ts';
import { bapiRoutes } from '../src/bapi/route-table.ts';
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

/**
 * The fuzz spec of a route is its own input declaration (src/bapi/route-table.ts): a new route is fuzzed
 * by being declared, and a field it reads without declaring it is a 500 the fuzzing finds.
 * Unknown parameters: identity ignores JSON keys it does not read (@clerk/backend sends some we have no
 * use for), so they go alone only to read-only routes, and elsewhere with a defect of their own.
 */
function specOf(route: BapiRoute): BapiSpec {
  return {
    params: bodyKinds(route.input.body),
    query: queryKinds(route.input.query),
    readOnly: route.method === 'GET',
    array: route.input.array,
  };
}
const SPECS: Record<string, BapiSpec> = Object.fromEntries(
  bapiRoutes.map((route) => [`${route.method} ${route.path}`, specOf(route)]),
);

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

  it('the plugin serves exactly the routes of the table, so every route served is fuzzed', () => {
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    assert.ok(keys.length > 20, `the route table was read (${keys.length} routes)`);
    assert.deepEqual(
      keys.filter((k) => !SPECS[k]),
      [],
      'routes served but not declared in the table',
    );
    assert.deepEqual(
      Object.keys(SPECS).filter((k) => !keys.includes(k)),
      [],
      'routes declared but not served',
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
