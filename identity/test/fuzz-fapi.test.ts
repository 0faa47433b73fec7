import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { AnyFapiRoute } from '../src/fapi/context.ts';
import type { BesideRoute } from '../src/http/route-declaration.ts';
import { formKinds } from '../src/fapi/form-input.ts';
import { apiKeyRoutes } from '../src/fapi/api-keys/api-key-routes.ts';
import { AVATAR_PLACEHOLDER_PATH, directRoutes } from '../src/fapi/direct-routes.ts';
import { besideFamilies } from '../src/fapi/beside-routes.ts';
import { fapiRoutes } from '../src/fapi/route-table.ts';
import { forEachBackend } from './support/backends.ts';
import {
  buildWorld,
  deepJson,
  deepKey,
  describeRequest,
  everyBadPathId,
  fapiCases,
  fapiUrl,
  FUZZ_CASES,
  FUZZ_SEED,
  judge,
  knownClientErrorCodes,
  megabyte,
  pathParamCases,
  Rng,
  routeSeed,
  send,
  snapshot,
  snapshotDiff,
  type FapiSpec,
  type FuzzRequest,
  type World,
} from './support/fuzz.ts';
import { Harness } from './support/harness.ts';
import { BILLING, enableBilling } from './support/billing-world.ts';

const FUZZ_BILLING = {
  ...BILLING,
  plans: { pro_user: BILLING.plans.pro_user, team: BILLING.plans.team },
};

/**
 * The fuzz spec of a route is its own declaration (src/fapi/route-table.ts): the parameters its input
 * declares, by kind (form-input.ts), so a new route is fuzzed by being declared.
 *
 * Unknown parameters: identity, like clerk-js's tolerance of extra query parameters, ignores form
 * parameters it does not read. They are therefore sent alone only to read-only routes (where a 2xx is
 * accepted if nothing changes), and otherwise together with a defect that must be refused on its own
 * (a wrong id in the path, a wrong value of a known parameter). Routes that change state and read
 * neither an id nor a parameter (`DELETE /client`, `POST /me/totp`, …) get only defects of the body
 * and the query themselves.
 */
function specOf(route: AnyFapiRoute): FapiSpec {
  const key = `${route.method} ${route.path}`;
  const params = formKinds(route.method === 'GET' ? route.input.query : route.input.body);
  return {
    ...(Object.keys(params).length ? { params } : {}),
    ...(NAVIGATIONS.has(key) ? { navigate: true } : {}),
    ...((route.method === 'GET' && !NAVIGATIONS.has(key)) || CHANGE_NOTHING.has(key)
      ? { readOnly: true }
      : {}),
    ...('upload' in route && route.upload ? { upload: true } : {}),
  };
}

/** Browser navigations, answered with a 303 into the app whatever they carry. */
const NAVIGATIONS = new Set([
  'GET /verify',
  'GET /tickets/accept',
  'GET /oauth_callback',
  // A form_post provider's cross-site POST: sent on to the GET callback, whatever it carries.
  'POST /oauth_callback',
  // The SAML ACS: the IdP's cross-site POST, and the handoff the browser brings back.
  'POST /saml/acs/:connectionId',
  'GET /saml/acs/:connectionId',
]);

/**
 * Calls other than GET that change nothing: clerk-js's environment "touch", and PUT /client, which with
 * the client's cookie answers the existing client.
 */
const CHANGE_NOTHING = new Set(['PATCH /environment', 'PUT /client']);

/**
 * The routes Fastify serves ahead of the router (src/fapi/direct-routes.ts), whose path parameters are
 * fuzzed like the router's; the placeholder avatar's file name is fuzzed as one.
 */
const DIRECT_ROUTES = directRoutes.map((route) =>
  route.path === AVATAR_PLACEHOLDER_PATH ? { ...route, path: '/avatars/:name' } : route,
);

/**
 * Bad requests for a route beside the plugin (src/fapi/beside-routes.ts), from its declaration: each
 * path parameter replaced by every wrong value, then junk queries (GET) or junk bodies of every type.
 */
function besideCases(route: BesideRoute, fapiPath: string, rng: Rng): FuzzRequest[] {
  const cases: FuzzRequest[] = [];
  const base = (path: string) => `${fapiPath}${path.replace(/:(\w+)/g, 'x')}`;
  const names = route.path.match(/:\w+/g) ?? [];
  for (const name of names) {
    for (const bad of everyBadPathId(rng, 'x')) {
      cases.push({
        label: `${name} is ${bad.label}`,
        method: route.method,
        url: `${fapiPath}${route.path.replace(name, bad.raw).replace(/:(\w+)/g, 'x')}`,
        headers: {},
        expect: 'reject',
      });
    }
  }
  const url = base(route.path);
  if (route.method === 'GET') {
    for (const [label, query] of [
      ['prototype names', '__proto__[polluted]=1&constructor[prototype][x]=1'],
      ['a deep key', `${deepKey(500)}=1`],
      ['a repeated parameter', 'client_id=a&client_id=b&to=a&to=b'],
      ['a NUL byte', 'client_id=%00&redirect_uri=%00'],
    ] as const) {
      cases.push({ label, method: 'GET', url: `${url}?${query}`, headers: {}, expect: 'reject' });
    }
    return cases;
  }
  for (const [label, type, payload] of [
    ['JSON cut short', 'application/json', '{"client_name":'],
    ['deep JSON', 'application/json', deepJson(2000)],
    ['a deep form key', 'application/x-www-form-urlencoded', `${deepKey(500)}=1`],
    ['a 1 MB form value', 'application/x-www-form-urlencoded', `grant_type=${megabyte(rng)}`],
    ['prototype names', 'application/x-www-form-urlencoded', '__proto__[x]=1&constructor=1'],
    ['random bytes', 'application/octet-stream', Buffer.from(rng.word(64))],
    ['no content type', '', 'grant_type=client_credentials'],
  ] as const) {
    cases.push({
      label,
      method: route.method,
      url,
      headers: type ? { 'content-type': type } : {},
      payload,
      expect: 'reject',
    });
  }
  return cases;
}

/**
 * The authorization server answers in RFC 6749's shape (`{error, error_description}`) or, for a browser's
 * authorization request, an HTML page: not Clerk's envelope. Any answer but a 5xx or an acceptance.
 */
function judgeOAuth(res: { statusCode: number; body: string }): string | null {
  if (res.statusCode >= 500) return `answered ${res.statusCode}: ${res.body.slice(0, 300)}`;
  return null;
}

/** The browser a route is called from: the visitor for attempts and navigations, else the owner. */
function callerOf(world: World, path: string) {
  return /^\/(client\/sign_(ins|ups)|verify|tickets|dev_browser|environment)/.test(path)
    ? world.visitor
    : world.owner.browser;
}

forEachBackend('fuzzing the Frontend API with bad input', (backend) => {
  let h: Harness;
  let world: World;
  const known = knownClientErrorCodes();
  before(async () => {
    h = await Harness.start(backend);
    // Billing on, with no default plan: a payer's reads then create nothing (a default plan is started
    // on first look), so "changes nothing" holds for every refused call.
    await enableBilling(h, FUZZ_BILLING);
    world = await buildWorld(h);
    console.warn(`fuzz-fapi [${backend.name}]: FUZZ_SEED=${FUZZ_SEED} FUZZ_CASES=${FUZZ_CASES}`);
  });
  after(() => h.close());

  it('every route is declared once, and the suite names only declared routes', () => {
    const keys = fapiRoutes(h.config).map((r) => `${r.method} ${r.path}`);
    assert.ok(keys.length > 50, `the route table was read (${keys.length} routes)`);
    assert.deepEqual(
      keys.filter((k, i) => keys.indexOf(k) !== i),
      [],
      'routes declared twice',
    );
    // The lists above may name routes of development keys too (this harness runs production keys).
    const all = new Set([
      ...keys,
      ...fapiRoutes({ ...h.config, instanceKeys: 'development' }).map((r) => `${r.method} ${r.path}`),
    ]);
    assert.deepEqual(
      [...NAVIGATIONS, ...CHANGE_NOTHING].filter((k) => !all.has(k)),
      [],
      'routes named here that no longer exist',
    );
  });

  it('answers every bad request with a 4xx in Clerk envelope and changes nothing', async (t) => {
    for (const route of fapiRoutes(h.config)) {
      const key = `${route.method} ${route.path}`;
      await t.test(key, async () => {
        const spec = specOf(route);
        const rng = new Rng(routeSeed(FUZZ_SEED, key));
        const cases = fapiCases(route, spec, world, rng, FUZZ_CASES);
        const before = await snapshot(h.db);
        const failures: string[] = [];
        for (const req of cases) {
          const res = await send(h, req, callerOf(world, route.path), rng);
          const verdict = judge(req, res, known);
          if (!verdict.ok) failures.push(`${describeRequest(req)}\n    → ${verdict.problem}`);
        }
        const changed = snapshotDiff(before, await snapshot(h.db));
        // A batch that changed the world gets a fresh one, so the next route's failures are its own.
        if (changed.length) world = await buildWorld(h);
        if (changed.length)
          failures.push(`the database changed:\n    ${changed.slice(0, 20).join('\n    ')}`);
        assert.deepEqual(failures, [], `FUZZ_SEED=${FUZZ_SEED} ${key}:\n${failures.join('\n')}`);
      });
    }
  });

  it('answers every bad request of every route beside the plugin without a 5xx, and changes nothing', async (t) => {
    const rng = new Rng(FUZZ_SEED);
    for (const family of besideFamilies) {
      for (const route of family.routes) {
        const key = `${route.method} ${route.path}`;
        await t.test(`${family.name}: ${key}`, async () => {
          const before = await snapshot(h.db);
          const failures: string[] = [];
          for (const req of besideCases(route, h.config.fapiPath, rng)) {
            const res = await h.app.inject({
              method: req.method,
              url: req.url,
              headers: req.headers,
              ...(req.payload === undefined ? {} : { payload: req.payload }),
            });
            // The authorization server answers in its own shapes (judgeOAuth); the others in Clerk's envelope.
            const problem =
              family.name === 'oauth provider' ? judgeOAuth(res) : (judge(req, res, known).problem ?? null);
            if (problem) failures.push(`${describeRequest(req)}\n    → ${problem}`);
          }
          const changed = snapshotDiff(before, await snapshot(h.db));
          if (changed.length)
            failures.push(`the database changed:\n    ${changed.slice(0, 20).join('\n    ')}`);
          assert.deepEqual(failures, [], `FUZZ_SEED=${FUZZ_SEED} ${key}:\n${failures.join('\n')}`);
        });
      }
    }
  });

  it('answers every wrong id in every path parameter, the image routes included, with a 4xx in Clerk envelope', async () => {
    const rng = new Rng(FUZZ_SEED);
    const before = await snapshot(h.db);
    const failures: string[] = [];
    // The API-key routes sit beside `/v1` (clerk-js calls them without it). The routes beside the plugin
    // (beside-routes.ts) name files, not objects of the world: the test above sends them wrong names.
    const prefixed = [
      ...[...fapiRoutes(h.config), ...DIRECT_ROUTES].map((route) => ({ route, prefix: '/v1' })),
      ...apiKeyRoutes.map((route) => ({ route, prefix: '' })),
    ];
    for (const { route, prefix } of prefixed) {
      const bodied = route.method !== 'GET';
      const cases = pathParamCases(route, world, rng, (path, label) => ({
        label: `${route.method} ${route.path}: ${label}`,
        method: bodied ? 'POST' : 'GET',
        url: fapiUrl(path, route.method, '', prefix),
        headers: bodied
          ? { 'content-type': 'application/x-www-form-urlencoded' }
          : ({} as Record<string, string>),
        payload: bodied ? '' : undefined,
        expect: 'reject',
      }));
      for (const req of cases) {
        const verdict = judge(req, await send(h, req, callerOf(world, route.path), rng), known);
        if (!verdict.ok) failures.push(`${describeRequest(req)}\n    → ${verdict.problem}`);
      }
    }
    const changed = snapshotDiff(before, await snapshot(h.db));
    if (changed.length) failures.push(`the database changed:\n    ${changed.slice(0, 20).join('\n    ')}`);
    assert.deepEqual(failures, [], failures.join('\n'));
  });
});
