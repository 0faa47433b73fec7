import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { RouteOptions } from 'fastify';
import { declaredRoutes, DEV_OUTBOX_PREFIX } from '../src/declared-routes.ts';
import { besideRoutes } from '../src/fapi/beside-routes.ts';
import { forEachBackend } from './support/backends.ts';
import { BAPI, Harness } from './support/harness.ts';

/**
 * The route tables are the only place a route is declared: every route the provider puts on Fastify
 * (seen by Fastify's onRoute hook) is one a table declares (src/declared-routes.ts reads them all), and
 * every declared route is served. A route added with `app.get(…)` beside the tables fails here.
 */
forEachBackend('declared routes', (backend) => {
  let h: Harness;
  const registered: { method: string; url: string }[] = [];
  before(async () => {
    h = await Harness.start(backend, {
      onRoute: (route: RouteOptions) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        for (const method of methods) registered.push({ method, url: route.url });
      },
    });
  });
  after(() => h.close());

  it('every route registered on Fastify is declared in a route table', () => {
    const declared = declaredRoutes(h.config, BAPI);
    const isDeclared = ({ method, url }: { method: string; url: string }) =>
      declared.some(
        (d) =>
          d.url === url &&
          (d.method === '*' ||
            d.method === method ||
            // Fastify answers HEAD for every GET route by itself (exposeHeadRoutes).
            (method === 'HEAD' && d.method === 'GET')),
      );
    assert.ok(registered.length > 100, `Fastify's routes were seen (${registered.length})`);
    const undeclared = registered.filter((r) => !isDeclared(r)).map((r) => `${r.method} ${r.url}`);
    assert.deepEqual(undeclared, [], 'routes registered beside the route tables: declare them in one');
  });

  it('every declared route is registered (the development outbox: its captured channels)', () => {
    const keys = new Set(registered.map((r) => `${r.method} ${r.url}`));
    const missing = declaredRoutes(h.config, BAPI)
      .filter((d) => d.method !== '*' && !keys.has(`${d.method} ${d.url}`))
      .map((d) => `${d.method} ${d.url} (${d.table})`);
    assert.deepEqual(missing, [], 'declared routes Fastify does not serve');
    assert.ok(keys.has(`GET ${DEV_OUTBOX_PREFIX}/sms`), 'the SMS outbox is on in this configuration');
  });

  it('each route is declared once, and the routes beside the plugin declare their input', () => {
    const keys = declaredRoutes(h.config, BAPI).map((d) => `${d.method} ${d.url}`);
    assert.deepEqual(
      keys.filter((k, i) => keys.indexOf(k) !== i),
      [],
    );
    for (const route of besideRoutes) {
      for (const name of route.path.match(/:(\w+)/g) ?? []) {
        assert.ok(route.input.params?.shape[name.slice(1)], `${route.path} declares its parameter ${name}`);
      }
    }
  });
});
