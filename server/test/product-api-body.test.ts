import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { startEmbeddedServer, type EmbeddedServer } from './support/embedded-server.ts';
import { namedUser, productApiOn, sessionToken, teamOrganization } from './support/product-api-world.ts';

/**
 * The product API authenticates before it reads a body, and reads bodies within a size and a nesting
 * depth: an unauthenticated caller cannot make the server parse anything (issue #11, item 5). Against
 * the real embedded provider: real session tokens, verified by @clerk/backend.
 */
describe('product API bodies', () => {
  let server: EmbeddedServer;
  let app: FastifyInstance;
  let adminToken: () => Promise<string>;
  let parsed = 0;

  before(async () => {
    server = await startEmbeddedServer();
    ({ app } = await productApiOn(server, (api) => {
      // Counts what the API scope's parser hands on: none for a refused caller.
      api.addHook('preValidation', async (req) => {
        if (req.body !== undefined) parsed++;
      });
    }));
    const team = {
      admin: await namedUser(server, 'admin', 'Ada', null),
      vciso: await namedUser(server, 'vciso', 'Grace', null),
      member: await namedUser(server, 'member', 'Alan', null),
    };
    const organization = await teamOrganization(server, team, 'Acme Security');
    adminToken = () => sessionToken(team.admin, organization.id);
  });
  after(() => server?.stop());

  const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
  const patch = (payload: string, token?: string) =>
    app.inject({
      method: 'PATCH',
      url: '/api/organizations/current/settings',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      payload,
    });

  test('an unauthenticated body is never read: unparseable, deep or large, the answer is 401', async () => {
    const before = parsed;
    const forged = `${(await adminToken()).slice(0, -4)}AAAA`;
    for (const token of [undefined, forged, 'not-a-jwt']) {
      for (const payload of ['{"not json', deep(500_000), `{"a":"${'x'.repeat(2 * 1024 * 1024)}"}`]) {
        const res = await patch(payload, token);
        assert.equal(res.statusCode, 401);
        assert.equal(res.json().errors[0].code, 'unauthenticated');
      }
    }
    assert.equal(parsed, before);
  });

  test('an authenticated body nested too deep is refused before JSON.parse', async () => {
    const before = parsed;
    const res = await patch(`{"uiLanguage":${deep(8000)}}`, await adminToken());
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().errors[0].code, 'invalid_request');
    assert.equal(parsed, before, 'the body never reached the route');
  });

  test('an authenticated body over 16 KiB is 413 body_too_large, by Content-Length or chunked', async () => {
    const token = await adminToken();
    const big = JSON.stringify({ uiLanguage: 'x'.repeat(20 * 1024) });
    const res = await patch(big, token);
    assert.equal(res.statusCode, 413);
    assert.deepEqual(
      res.json().errors.map((e: { code: string }) => e.code),
      ['body_too_large'],
    );
    const { Readable } = await import('node:stream');
    const chunked = await app.inject({
      method: 'PATCH',
      url: '/api/organizations/current/settings',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      payload: Readable.from([Buffer.from(big.slice(0, 10_000)), Buffer.from(big.slice(10_000))]),
    });
    assert.equal(chunked.statusCode, 413);
    assert.equal(chunked.json().errors[0].code, 'body_too_large');
  });

  test('a body of another type is refused as invalid, not parsed', async () => {
    const res = await app.inject({
      method: 'PATCH',
      url: '/api/organizations/current/settings',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Bearer ${await adminToken()}`,
      },
      payload: 'uiLanguage=EN',
    });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().errors[0].code, 'invalid_request');
  });

  test('a small, shallow body still works', async () => {
    const res = await patch(JSON.stringify({ uiLanguage: 'FR' }), await adminToken());
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().publicMetadata.uiLanguage, 'FR');
  });
});
