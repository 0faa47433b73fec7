import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { openDatabase, type Database } from '@app/identity';
import { serverConfigFromEnv } from '../src/config.ts';
import { openProductDatabase } from '../src/db/product-database.ts';
import {
  sessionToken,
  signUpWithOrganization,
  startEmbeddedServer,
  type EmbeddedServer,
  TEST_BACKENDS,
} from './support/embedded-server.ts';

/**
 * The product server's operations routes (docs/observability.md): /metrics for the addresses the operator
 * names, request ids on every answer and in the error envelope, /readyz naming the dependency that is down.
 */

/** The value of one sample of the exposition (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelPart = line.slice(name.length).split(' ')[0]!;
    if (wanted.every((w) => labelPart.includes(w))) return Number(line.split(' ').at(-1));
  }
  return 0;
}

/** The product's database opened by the test, so that it can close it under the running server. */
async function productDatabase(
  databaseUrl: string | undefined,
): Promise<{ db: Database; drop(): Promise<void> }> {
  if (databaseUrl) {
    const schema = `test_${randomBytes(6).toString('hex')}_product`;
    const db = await openProductDatabase({ url: databaseUrl, schema });
    return {
      db,
      async drop() {
        const admin = await openDatabase({ url: databaseUrl });
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await admin.close();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'product-db-'));
  const db = await openProductDatabase({ dataDir: dir });
  return { db, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

for (const backend of TEST_BACKENDS) {
  describe(`operations routes of the product server [${backend.name}]`, () => {
    let server: EmbeddedServer;
    before(async () => {
      server = await startEmbeddedServer({ databaseUrl: backend.databaseUrl });
    });
    after(() => server.stop());

    const get = (url: string, remoteAddress = '127.0.0.1', headers: Record<string, string> = {}) =>
      server.app.fastify.inject({ method: 'GET', url, remoteAddress, headers });

    it('/metrics answers loopback and counts requests by route pattern and status', async () => {
      const user = await signUpWithOrganization(server, 'metrics', 'Metrics Org');
      const token = await sessionToken(user, user.organizationId);
      const childId = `org_${randomBytes(8).toString('hex')}`;
      await get('/healthz');
      const refused = await server.api(token, 'DELETE', `/api/organizations/current/children/${childId}`);
      assert.ok(refused.status >= 400, JSON.stringify(refused.body));

      const res = await get('/metrics');
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
      const text = res.body;
      assert.ok(
        sample(text, 'http_requests_total', { method: 'GET', route: '/healthz', status: '200' }) >= 1,
      );
      assert.equal(
        sample(text, 'http_requests_total', {
          method: 'DELETE',
          route: '/api/organizations/current/children/:organizationId',
          status: String(refused.status),
        }),
        1,
        text,
      );
      assert.equal(text.includes(childId), false, 'no id in a label');
      assert.equal(text.includes(user.organizationId), false);
      // One registry for the server and its embedded provider: both databases, the provider's counters.
      assert.ok(sample(text, 'database_connections', { database: 'identity', state: 'open' }) >= 1, text);
      assert.ok(sample(text, 'database_connections', { database: 'product', state: 'open' }) >= 1, text);
      assert.ok(sample(text, 'identity_session_tokens_minted_total') >= 1);
      assert.match(text, /^# TYPE identity_webhook_queue_depth gauge/m);
      assert.match(text, /^# TYPE nodejs_heap_size_used_bytes gauge/m);
    });

    it('/metrics is a 404 for any other address, and through a proxy the server does not trust', async () => {
      for (const address of ['203.0.113.9', '10.0.0.1', '2001:db8::2']) {
        const res = await get('/metrics', address);
        assert.equal(res.statusCode, 404, address);
        assert.doesNotMatch(res.body, /http_requests_total/);
      }
      const proxied = await get('/metrics', '127.0.0.1', { 'x-forwarded-for': '203.0.113.9' });
      assert.equal(proxied.statusCode, 404);
    });

    it('every answer carries a request id, the one of a well-formed X-Request-Id, and error envelopes name it', async () => {
      const given = '5b0d3a4e-aaaa-4bbb-8ccc-0123456789ab';
      const unauthenticated = await get('/api/me', '127.0.0.1', { 'x-request-id': given });
      assert.equal(unauthenticated.statusCode, 401);
      assert.equal(unauthenticated.headers['x-request-id'], given);
      assert.equal(unauthenticated.json().clerk_trace_id, given);
      assert.ok(Array.isArray(unauthenticated.json().errors));

      const bad = await get('/__clerk/v1/nothing', '127.0.0.1', { 'x-request-id': 'no\ttabs allowed here' });
      const id = String(bad.headers['x-request-id']);
      assert.match(id, /^[0-9a-f-]{36}$/);
      assert.equal(bad.json().clerk_trace_id, id);

      for (const url of ['/healthz', '/readyz', '/app-config.json', '/'])
        assert.ok((await get(url)).headers['x-request-id'], url);
      const a = await get('/healthz');
      const b = await get('/healthz');
      assert.notEqual(a.headers['x-request-id'], b.headers['x-request-id']);
    });

    it('/readyz is 200 while both databases answer', async () => {
      const res = await get('/readyz', '203.0.113.9');
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), {
        status: 'ready',
        dependencies: { identity_database: 'up', product_database: 'up' },
        down: [],
      });
    });
  });

  describe(`/readyz names the database that is down [${backend.name}]`, () => {
    it('the product database closed: 503 product_database, the provider still up; /healthz stays 200', async () => {
      const product = await productDatabase(backend.databaseUrl);
      const server = await startEmbeddedServer({
        databaseUrl: backend.databaseUrl,
        app: { productDatabase: product.db },
      });
      try {
        assert.equal((await server.app.fastify.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
        await product.db.close();
        const res = await server.app.fastify.inject({ method: 'GET', url: '/readyz' });
        assert.equal(res.statusCode, 503);
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.deepEqual(res.json(), {
          status: 'unavailable',
          dependencies: { identity_database: 'up', product_database: 'down' },
          down: ['product_database'],
        });
        assert.equal((await server.app.fastify.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
      } finally {
        await server.stop();
        await product.drop();
      }
    });

    it('the identity database closed: 503 identity_database', async () => {
      const server = await startEmbeddedServer({ databaseUrl: backend.databaseUrl });
      try {
        await server.closeDatabase();
        const res = await server.app.fastify.inject({ method: 'GET', url: '/readyz' });
        assert.equal(res.statusCode, 503);
        assert.deepEqual(res.json().down, ['identity_database']);
        assert.equal(res.json().dependencies.product_database, 'up');
      } finally {
        await server.stop();
      }
    });
  });
}

describe('METRICS_ALLOWED_FROM in the server configuration', () => {
  const hosted = { CLERK_PUBLISHABLE_KEY: 'pk_test_Y2xlcmsuZXhhbXBsZS5jb20k', CLERK_SECRET_KEY: 'sk_test_x' };
  const production = { IDENTITY_MODE: 'production', SMTP_URL: 'smtp://127.0.0.1:1' };

  it('loopback in development, no one in production unless set, either identity', () => {
    const embedded = serverConfigFromEnv({});
    assert.deepEqual(embedded.identity === 'embedded' && embedded.identityConfig.metricsAccess, [
      '127.0.0.0/8',
      '::1/128',
    ]);
    const prod = serverConfigFromEnv(production);
    assert.equal(prod.identity === 'embedded' && prod.identityConfig.metricsAccess, 'off');
    const hostedProd = serverConfigFromEnv({ ...hosted, NODE_ENV: 'production' });
    assert.equal(hostedProd.identity === 'hosted' && hostedProd.metricsAccess, 'off');
    const set = serverConfigFromEnv({
      ...hosted,
      NODE_ENV: 'production',
      METRICS_ALLOWED_FROM: '10.0.0.0/8',
    });
    assert.deepEqual(set.identity === 'hosted' && set.metricsAccess, ['10.0.0.0/8']);
    assert.throws(() => serverConfigFromEnv({ METRICS_ALLOWED_FROM: 'everyone' }), /METRICS_ALLOWED_FROM/);
  });

  it('behind a trusted proxy, the client address decides', async () => {
    const server = await startEmbeddedServer({
      env: { TRUST_PROXY: '1', METRICS_ALLOWED_FROM: '10.0.0.0/8' },
    });
    try {
      const from = (client: string) =>
        server.app.fastify.inject({
          method: 'GET',
          url: '/metrics',
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': client },
        });
      assert.equal((await from('10.20.30.40')).statusCode, 200);
      assert.equal((await from('203.0.113.9')).statusCode, 404);
      assert.equal((await from('127.0.0.1')).statusCode, 404, 'loopback is not in this list');
    } finally {
      await server.stop();
    }
  });
});
