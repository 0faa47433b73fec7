import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import {
  startEmbeddedServer,
  withoutTraceId,
  type EmbeddedServer,
  TEST_BACKENDS,
} from './support/embedded-server.ts';
import { backendApi, namedUser } from './support/product-api-world.ts';
import { oauthAccessToken, signedInWire } from './support/oauth-world.ts';

/**
 * The product API as an OAuth protected resource (docs/oauth-provider.md), against the real embedded
 * provider: its RFC 9728 metadata names the instance's issuer, its 401s about access tokens point there,
 * and failed access tokens are limited per address (a small limit here; 30 in 10 minutes in production),
 * counted in the product database, without touching other addresses' good tokens.
 */
const LIMIT = 3;

for (const backend of TEST_BACKENDS)
  describe(`product API as an OAuth protected resource [${backend.name}]`, () => {
    let server: EmbeddedServer;
    let clerk: ClerkClient;
    let token: string;

    before(async () => {
      server = await startEmbeddedServer({
        databaseUrl: backend.databaseUrl,
        app: { oauthTokenFailureLimit: { limit: LIMIT, windowSeconds: 600 } },
      });
      clerk = backendApi(server);
      const user = await namedUser(server, 'resource', 'Grace', 'Hopper');
      const wire = await signedInWire(server, user.email);
      ({ token } = await oauthAccessToken(server, clerk, wire, 'openid profile email', 'MCP tools'));
    });
    after(() => server?.stop());

    const metadataUrl = () => `${server.origin}/.well-known/oauth-protected-resource`;
    const call = (bearer: string | null, from: string, url = '/api/authorized-user') =>
      server.app.fastify.inject({
        method: 'GET',
        url,
        remoteAddress: from,
        headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
      });

    test('RFC 9728 metadata names the issuer, the scopes the routes ask, and the header method', async () => {
      const res = await fetch(metadataUrl());
      assert.equal(res.status, 200);
      const metadata = (await res.json()) as Record<string, unknown>;
      assert.deepEqual(metadata, {
        resource: server.origin,
        authorization_servers: [`${server.origin}/__clerk`],
        scopes_supported: ['email', 'profile'],
        bearer_methods_supported: ['header'],
        resource_name: 'Product API',
      });
      // The issuer it names is the one the provider's discovery document says.
      const discovery = await fetch(`${server.origin}/__clerk/.well-known/oauth-authorization-server`);
      assert.equal(((await discovery.json()) as { issuer: string }).issuer, `${server.origin}/__clerk`);
    });

    test('a 401 about an access token names the metadata; routes taking none keep a bare Bearer', async () => {
      const missing = await call(null, '192.0.2.1');
      assert.equal(missing.statusCode, 401);
      assert.equal(missing.headers['www-authenticate'], `Bearer resource_metadata="${metadataUrl()}"`);
      const invalid = await call(`oat_${'B'.repeat(43)}`, '192.0.2.1');
      assert.equal(invalid.statusCode, 401);
      assert.equal(
        invalid.headers['www-authenticate'],
        `Bearer error="invalid_token", resource_metadata="${metadataUrl()}"`,
      );
      const me = await call(null, '192.0.2.1', '/api/me');
      assert.equal(me.statusCode, 401);
      assert.equal(me.headers['www-authenticate'], 'Bearer');
    });

    test('failed access tokens from one address are refused with 429 past the limit; others go on', async () => {
      const attacker = '198.51.100.23';
      for (let i = 0; i < LIMIT; i++) {
        const res = await call(`oat_${String(i).padStart(43, 'x')}`, attacker);
        assert.equal(res.statusCode, 401, res.body);
      }
      const refused = await call(token, attacker);
      assert.equal(refused.statusCode, 429, refused.body);
      assert.ok(Number(refused.headers['retry-after']) > 0);
      assert.deepEqual(withoutTraceId(JSON.parse(refused.body)), {
        errors: [
          {
            code: 'too_many_requests',
            message: 'Too many failed access tokens from this address. Try again later.',
          },
        ],
      });
      // Another address's good token is taken; API keys from the attacker are counted apart.
      const good = await call(token, '198.51.100.24');
      assert.equal(good.statusCode, 200, good.body);
      const key = await call(`ak_${'a'.repeat(48)}`, attacker, '/api/organizations/current');
      assert.equal(key.statusCode, 401, key.body);
    });

    test('the consent page may show an https logo; other pages load images from this origin only', async () => {
      const consent = await fetch(`${server.origin}/oauth/consent?interaction=x`);
      assert.match(consent.headers.get('content-security-policy') ?? '', /img-src 'self' https: data: blob:/);
      const home = await fetch(`${server.origin}/`);
      assert.match(home.headers.get('content-security-policy') ?? '', /img-src 'self' data: blob:/);
    });
  });
