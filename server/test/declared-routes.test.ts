import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RouteOptions } from 'fastify';
import { declaredRoutes } from '@app/identity';
import { PRODUCT_ROUTES } from '../src/api/product-api.ts';
import { CONSOLE_API_PREFIX, CONSOLE_ROUTES } from '../src/console/console-api.ts';
import { BAPI_PATH } from '../src/app.ts';
import { SERVER_ROUTES } from '../src/server-routes.ts';
import { CLERK_JS_PREFIX } from '../src/static/clerk-js.ts';
import { startEmbeddedServer, type EmbeddedServer, TEST_BACKENDS } from './support/embedded-server.ts';

/**
 * The route tables are the only place a route is declared: every route the product server puts on
 * Fastify (seen by its onRoute hook) is declared by the product API's table (PRODUCT_ROUTES), the console's
 * (CONSOLE_ROUTES), the
 * server's own (SERVER_ROUTES) or one of the embedded provider's (declaredRoutes). Besides those, only
 * static files: one GET per file of the web build, and clerk-js's files.
 */
for (const backend of TEST_BACKENDS) {
  describe(`declared routes of the product server [${backend.name}]`, () => {
    let server: EmbeddedServer;
    const registered: { method: string; url: string }[] = [];
    before(async () => {
      server = await startEmbeddedServer({
        databaseUrl: backend.databaseUrl,
        app: {
          onRoute: (route: RouteOptions) => {
            const methods = Array.isArray(route.method) ? route.method : [route.method];
            for (const method of methods) registered.push({ method, url: route.url });
          },
        },
      });
    });
    after(() => server.stop());

    it('every route registered on Fastify is declared in a route table, or is a static file', () => {
      const identityConfig = server.app.identity!.deps.config;
      const declared = [
        ...PRODUCT_ROUTES.map((r) => ({ method: r.method, url: `/api${r.path}` })),
        ...CONSOLE_ROUTES.map((r) => ({ method: r.method, url: `${CONSOLE_API_PREFIX}${r.path}` })),
        ...SERVER_ROUTES.map((r) => ({ method: r.method, url: r.path })),
        ...declaredRoutes(identityConfig, BAPI_PATH),
        // The web build of embedded-server.ts (its placeholder index.html) and clerk-js's files.
        { method: 'GET', url: '/index.html' },
        { method: 'GET', url: `${CLERK_JS_PREFIX}:file` },
      ];
      const isDeclared = ({ method, url }: { method: string; url: string }) =>
        declared.some(
          (d) =>
            d.url === url &&
            (d.method === '*' || d.method === method || (method === 'HEAD' && d.method === 'GET')),
        );
      assert.ok(registered.length > 100, `Fastify's routes were seen (${registered.length})`);
      const undeclared = registered.filter((r) => !isDeclared(r)).map((r) => `${r.method} ${r.url}`);
      assert.deepEqual(undeclared, [], 'routes registered beside the route tables: declare them in one');
    });

    it("answers bad input to every route of the server's table without a 5xx; the webhook refuses it unverified", async () => {
      const junk: [string, string | Buffer][] = [
        ['application/json', '{"type":'],
        ['application/json', `${'['.repeat(5000)}${']'.repeat(5000)}`],
        ['application/x-www-form-urlencoded', '__proto__[x]=1&constructor=1'],
        ['application/octet-stream', Buffer.from([0, 1, 2, 255])],
        ['text/plain', 'a'.repeat(300 * 1024)],
      ];
      for (const route of SERVER_ROUTES) {
        const cases =
          route.method === 'GET'
            ? ['__proto__[x]=1', 'a=%00&a=%ff', `${'a['.repeat(300)}=1`].map((q) => ({
                url: `${route.path}?${q}`,
                headers: {} as Record<string, string>,
                payload: undefined as string | Buffer | undefined,
              }))
            : junk.map(([type, payload]) => ({
                url: route.path,
                headers: { 'content-type': type },
                payload,
              }));
        for (const c of cases) {
          const res = await server.app.fastify.inject({ method: route.method, ...c });
          const label = `${route.method} ${c.url.slice(0, 80)} (${c.headers['content-type'] ?? '-'}): ${res.statusCode} ${res.body.slice(0, 200)}`;
          assert.ok(res.statusCode < 500, label);
          if (route.auth === 'webhook_signature') {
            assert.ok([401, 413, 422].includes(res.statusCode), label);
            assert.ok(Array.isArray(res.json().errors), `${label}: the product API's envelope`);
          }
        }
      }
    });

    it("every route of the product API's and the server's tables is registered", () => {
      const keys = new Set(registered.map((r) => `${r.method} ${r.url}`));
      const missing = [
        ...PRODUCT_ROUTES.map((r) => `${r.method} /api${r.path}`),
        ...CONSOLE_ROUTES.map((r) => `${r.method} ${CONSOLE_API_PREFIX}${r.path}`),
        ...SERVER_ROUTES.map((r) => `${r.method} ${r.path}`),
      ].filter((k) => !keys.has(k));
      assert.deepEqual(missing, []);
    });
  });
}
