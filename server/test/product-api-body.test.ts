import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AuthContext } from '../src/auth/authenticate.ts';
import { InMemoryBackend, fakeApiDeps } from './support/in-memory-backend.ts';
import { registerProductApi } from '../src/api/product-api.ts';

/**
 * The product API authenticates before it reads a body, and reads bodies within a size and a nesting
 * depth: an unauthenticated caller cannot make the server parse anything (issue #11, item 5).
 */
describe('product API bodies', () => {
  let app: FastifyInstance;
  let parsed = 0;
  const backend = new InMemoryBackend();
  backend.add({ id: 'org_a', name: 'Acme Security', slug: 'acme', publicMetadata: {} });
  const tokens = new Map<string, AuthContext>([
    [
      'admin-a',
      {
        userId: 'user_1',
        sessionId: 'sess_1',
        orgId: 'org_a',
        orgSlug: 'acme',
        orgRole: 'org:admin',
        orgPermissions: [],
      },
    ],
  ]);

  before(async () => {
    app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
    await app.register(
      async (api) => {
        registerProductApi(
          api,
          fakeApiDeps(() => backend, tokens),
        );
        // Counts what the API scope's parser hands on: none for a refused caller.
        api.addHook('preValidation', async (req) => {
          if (req.body !== undefined) parsed++;
        });
      },
      { prefix: '/api' },
    );
  });
  after(() => app.close());

  const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
  const patch = (payload: string, token?: string) =>
    app.inject({
      method: 'PATCH',
      url: '/api/organizations/current/settings',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      payload,
    });

  test('an unauthenticated body is never read: unparseable, deep or large, the answer is 401', async () => {
    for (const payload of ['{"not json', deep(500_000), `{"a":"${'x'.repeat(2 * 1024 * 1024)}"}`]) {
      const res = await patch(payload);
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().errors[0].code, 'unauthenticated');
    }
    assert.equal(parsed, 0);
  });

  // How fast the refusal is belongs to bench/: a wall-clock bound here fails on a loaded machine.
  test('an authenticated body nested too deep is refused before JSON.parse', async () => {
    const before = parsed;
    const res = await patch(`{"uiLanguage":${deep(8000)}}`, 'admin-a');
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().errors[0].code, 'invalid_request');
    assert.equal(parsed, before, 'no parsed body reached the route');
  });

  test('an authenticated body over 16 KiB is 413 body_too_large, by Content-Length or chunked', async () => {
    const big = JSON.stringify({ uiLanguage: 'x'.repeat(20 * 1024) });
    const res = await patch(big, 'admin-a');
    assert.equal(res.statusCode, 413);
    assert.deepEqual(
      res.json().errors.map((e: { code: string }) => e.code),
      ['body_too_large'],
    );
    const { Readable } = await import('node:stream');
    const chunked = await app.inject({
      method: 'PATCH',
      url: '/api/organizations/current/settings',
      headers: { 'content-type': 'application/json', authorization: 'Bearer admin-a' },
      payload: Readable.from([Buffer.from(big.slice(0, 10_000)), Buffer.from(big.slice(10_000))]),
    });
    assert.equal(chunked.statusCode, 413);
    assert.equal(chunked.json().errors[0].code, 'body_too_large');
  });

  test('a small, shallow body still works', async () => {
    const res = await patch(JSON.stringify({ uiLanguage: 'FR' }), 'admin-a');
    assert.equal(res.statusCode, 200);
  });
});
