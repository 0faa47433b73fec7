import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { bodyKinds, queryKinds } from '../src/bapi/json-input.ts';
import { bapiRoutes } from '../src/bapi/route-table.ts';
import { besideRoutes } from '../src/fapi/beside-routes.ts';
import { AVATAR_PLACEHOLDER_PATH, directRoutes } from '../src/fapi/direct-routes.ts';
import { fapiRoutes } from '../src/fapi/route-table.ts';
import { ClaimsTemplateError, parseClaimsTemplate } from '../src/instance/settings/claims-template.ts';
import { forEachBackend } from './support/backends.ts';
import {
  BAPI_KEY_PLACEHOLDER,
  bapiRequest,
  buildWorld,
  describeRequest,
  fapiUrl,
  judge,
  knownClientErrorCodes,
  pathParams,
  resolvePath,
  Rng,
  send,
  snapshot,
  snapshotDiff,
  type FuzzRequest,
  type World,
} from './support/fuzz.ts';
import { BAPI, FAPI, Harness, type Json } from './support/harness.ts';

/**
 * Names every plain JavaScript object answers to without holding them (issue #27, item 5): a lookup of a
 * request's word in a `{…}` map finds a function or `Object.prototype` there, and the route answered 500
 * (`/__clerk/v1/social_logos/constructor.svg`) or read the wrong thing. Each is sent wherever a request
 * names something: every path parameter of every route of both APIs and of the provider's own routes, the
 * parameters that pick from a fixed list (strategies, roles, statuses, orders…), and metadata keys.
 */
const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'] as const;

/**
 * The Frontend API's routes outside its router's table: those Fastify serves ahead of it (the placeholder
 * avatar's file name taken as a parameter) and those beside the plugin (paths here without `/v1`).
 */
const OWN_ROUTES = [
  ...directRoutes.map((route) =>
    route.path === AVATAR_PLACEHOLDER_PATH ? { ...route, path: '/avatars/:name' } : route,
  ),
  ...besideRoutes.map((route) => ({ ...route, path: route.path.replace(/^\/v1/, '') })),
];

/** Frontend API parameters that choose one of a fixed list, or name a provider, a strategy or a template. */
const FAPI_CHOICES = [
  'strategy',
  'role',
  'status',
  'level',
  'payer_type',
  'plan_period',
  'gateway',
  'captcha_widget_type',
  'captcha_action',
  'order_by',
  'subject',
  'type',
];

/** What each name becomes in a parameter: itself, and a provider's strategy made of it. */
function choiceValues(name: string): string[] {
  return [name, `oauth_${name}`];
}

/** The world's id for a path parameter, or a made-up one where the fuzz world has none. */
function pathWith(world: World, path: string, index: number, raw: string): string {
  try {
    return resolvePath(world, path, { index, raw });
  } catch {
    return path
      .split('/')
      .map((part, i) => (i === index ? raw : part.startsWith(':') ? 'x' : part))
      .join('/');
  }
}

/** Error lines logged since `from`: a name that reached a lookup it broke shows up here as a stack trace. */
function errorsLogged(logs: string[], from: number): string[] {
  return logs.slice(from).filter((line) => {
    try {
      return (JSON.parse(line) as { level?: number }).level! >= 50;
    } catch {
      return false;
    }
  });
}

it('a session-token template naming them is refused as an unknown shortcode', () => {
  for (const name of PROTOTYPE_NAMES) {
    assert.throws(
      () => parseClaimsTemplate({ claim: `{{${name}}}` }),
      (err) => err instanceof ClaimsTemplateError && /not a supported shortcode/.test(err.message),
      name,
    );
  }
});

forEachBackend('names of Object.prototype in requests', (backend) => {
  let h: Harness;
  let world: World;
  const logs: string[] = [];
  const known = knownClientErrorCodes();
  const rng = new Rng(27);
  before(async () => {
    h = await Harness.start(backend, { logs });
    world = await buildWorld(h);
  });
  after(() => h.close());

  it('the social logos answer 404 in Clerk’s envelope for each, and log nothing', async () => {
    for (const name of PROTOTYPE_NAMES) {
      for (const file of [`${name}.svg`, name]) {
        const from = logs.length;
        const res = await h.app.inject({ method: 'GET', url: `${FAPI}/v1/social_logos/${file}` });
        assert.equal(res.statusCode, 404, `${file}: ${res.body}`);
        const body: Json = res.json();
        assert.equal(body.errors[0].code, 'resource_not_found', file);
        assert.deepEqual(errorsLogged(logs, from), [], file);
      }
    }
    const google = await h.app.inject({ method: 'GET', url: `${FAPI}/v1/social_logos/google.svg` });
    assert.equal(google.statusCode, 200);
    assert.match(google.headers['content-type'] as string, /^image\/svg\+xml/);
  });

  it('every path parameter of every route: a 4xx in Clerk’s envelope, nothing logged, nothing changed', async () => {
    const failures: string[] = [];
    const before = await snapshot(h.db);
    const from = logs.length;
    const fapi = [...fapiRoutes(h.config), ...OWN_ROUTES];
    for (const route of fapi) {
      const bodied = route.method !== 'GET';
      for (const p of pathParams(route.path)) {
        for (const name of PROTOTYPE_NAMES) {
          const raw = route.path === '/social_logos/:file' ? `${name}.svg` : name;
          const req: FuzzRequest = {
            label: `FAPI ${route.method} ${route.path}: :${p.name} is ${raw}`,
            method: bodied ? 'POST' : 'GET',
            url: fapiUrl(pathWith(world, route.path, p.index, raw), route.method),
            headers: bodied ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
            payload: bodied ? '' : undefined,
            expect: 'reject',
          };
          const owner = /^\/(client\/sign_(ins|ups)|verify|tickets)/.test(route.path)
            ? world.visitor
            : world.owner.browser;
          const verdict = judge(req, await send(h, req, owner, rng), known);
          if (!verdict.ok) failures.push(`${describeRequest(req)}\n    → ${verdict.problem}`);
        }
      }
    }
    for (const route of bapiRoutes) {
      const bodied = route.method !== 'GET' && route.method !== 'DELETE';
      for (const p of pathParams(route.path)) {
        for (const name of PROTOTYPE_NAMES) {
          const req: FuzzRequest = {
            label: `BAPI ${route.method} ${route.path}: :${p.name} is ${name}`,
            method: route.method,
            url: `${BAPI}${pathWith(world, route.path, p.index, name)}`,
            headers: {
              authorization: `Bearer ${BAPI_KEY_PLACEHOLDER}`,
              ...(bodied ? { 'content-type': 'application/json' } : {}),
            },
            payload: bodied ? (route.input.array ? '[]' : '{}') : undefined,
            expect: 'reject',
          };
          const verdict = judge(req, await send(h, req, 'bapi', rng), known);
          if (!verdict.ok) failures.push(`${describeRequest(req)}\n    → ${verdict.problem}`);
        }
      }
    }
    failures.push(...errorsLogged(logs, from).map((line) => `logged: ${line.slice(0, 400)}`));
    const changed = snapshotDiff(before, await snapshot(h.db));
    if (changed.length) failures.push(`the database changed:\n    ${changed.slice(0, 20).join('\n    ')}`);
    assert.deepEqual(failures, [], failures.join('\n'));
  });

  it('every parameter that picks a strategy, a role, a status or an order: never a 5xx, nothing logged', async () => {
    const failures: string[] = [];
    const from = logs.length;
    for (const route of fapiRoutes(h.config)) {
      const bodied = route.method !== 'GET';
      for (const name of PROTOTYPE_NAMES) {
        for (const value of choiceValues(name)) {
          const pairs = FAPI_CHOICES.map((p) => `${p}=${encodeURIComponent(value)}`).join('&');
          const path = pathWith(world, route.path, -1, '');
          const req: FuzzRequest = {
            label: `FAPI ${route.method} ${route.path} with every choice ${value}`,
            method: bodied ? 'POST' : 'GET',
            url: bodied ? fapiUrl(path, route.method) : fapiUrl(path, route.method, pairs),
            headers: bodied ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
            payload: bodied ? pairs : undefined,
            expect: 'tolerate',
          };
          // A fresh browser with a pending sign-in and sign-up, so each attempt meets a live one.
          const res = await send(h, req, world.visitor, rng);
          if (res.statusCode >= 500)
            failures.push(`${describeRequest(req)}\n    → ${res.statusCode} ${res.body}`);
        }
      }
    }
    for (const route of bapiRoutes) {
      const body = bodyKinds(route.input.body);
      const query = queryKinds(route.input.query);
      const named = [
        ...Object.entries(body).filter(([, kind]) => kind === 'role' || kind === 'string' || kind === 'id'),
      ].map(([field]) => field);
      const enums = Object.entries(query)
        .filter(([, kind]) => kind === 'enum' || kind === 'text')
        .map(([field]) => field);
      if (!named.length && !enums.length) continue;
      for (const name of PROTOTYPE_NAMES) {
        const json = Object.fromEntries(named.map((field) => [field, name]));
        const search = enums.map((field) => `${field}=${encodeURIComponent(name)}`).join('&');
        const path = pathWith(world, route.path, -1, '');
        const res = await bapiRequest(
          h,
          route.method,
          `${path}${search ? `?${search}` : ''}`,
          route.method === 'GET' || route.method === 'DELETE' ? undefined : route.input.array ? [json] : json,
        );
        if (res.statusCode >= 500)
          failures.push(
            `BAPI ${route.method} ${path}?${search} ${JSON.stringify(json)} → ${res.statusCode} ${res.body}`,
          );
      }
    }
    failures.push(...errorsLogged(logs, from).map((line) => `logged: ${line.slice(0, 400)}`));
    assert.deepEqual(failures, [], failures.join('\n'));
  });

  it('metadata keys named after them are stored as given, and merge like any other key', async () => {
    const userId = world.other.userId;
    const patch = Object.fromEntries(PROTOTYPE_NAMES.map((name) => [name, { kept: name }]));
    // JSON.parse makes `__proto__` an own key, as the request body's parser does.
    const payload = JSON.parse(JSON.stringify({ public_metadata: patch, private_metadata: patch }));
    for (let round = 0; round < 2; round++) {
      const res = await bapiRequest(h, 'PATCH', `/v1/users/${userId}/metadata`, payload);
      assert.equal(res.statusCode, 200, res.body);
    }
    const user = (await bapiRequest(h, 'GET', `/v1/users/${userId}`)).json();
    for (const name of PROTOTYPE_NAMES) {
      assert.ok(Object.hasOwn(user.public_metadata, name), `public_metadata.${name}`);
      assert.deepEqual(user.public_metadata[name], { kept: name }, `public_metadata.${name}`);
      assert.deepEqual(user.private_metadata[name], { kept: name }, `private_metadata.${name}`);
    }
    const removed = await bapiRequest(h, 'PATCH', `/v1/users/${userId}/metadata`, {
      public_metadata: JSON.parse('{"__proto__": null, "constructor": {"kept": null}}'),
    });
    assert.equal(removed.statusCode, 200, removed.body);
    const after = removed.json().public_metadata;
    assert.ok(!Object.hasOwn(after, '__proto__'), 'null deletes __proto__ like any key');
    assert.deepEqual(after.constructor, {});
    assert.equal(({} as Record<string, unknown>).kept, undefined, 'Object.prototype untouched');
  });
});
