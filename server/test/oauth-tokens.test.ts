import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import * as oidc from 'openid-client';
import type { WireBrowser } from '../../identity/test/support/wire-browser.ts';
import { startEmbeddedServer, type EmbeddedServer, TEST_BACKENDS } from './support/embedded-server.ts';
import { backendApi, namedUser } from './support/product-api-world.ts';
import { oauthAccessToken, signedInWire } from './support/oauth-world.ts';

/**
 * The product API with OAuth access tokens (docs/oauth-provider.md), against the real embedded provider:
 * an application signs a user in (authorization code with PKCE, the consent decision over the Frontend
 * API), then calls the product API with the `oat_…` token, verified by @clerk/backend's
 * `authenticateRequest({acceptsToken: 'oauth_token'})` on every call. Routes that do not take such tokens
 * refuse them before verifying; missing scopes, revoked tokens and withdrawn consents are refused.
 */

for (const backend of TEST_BACKENDS)
  describe(`product API with OAuth access tokens [${backend.name}]`, () => {
    let server: EmbeddedServer;
    let clerk: ClerkClient;
    let wire: WireBrowser;
    let userId: string;

    before(async () => {
      server = await startEmbeddedServer({ databaseUrl: backend.databaseUrl });
      clerk = backendApi(server);
      const user = await namedUser(server, 'oauth', 'Ada', 'Lovelace');
      userId = user.userId;
      wire = await signedInWire(server, user.email);
    });
    after(() => server?.stop());

    /** An application of `scopes`, and an access token its user allowed it. */
    const tokenFor = (scopes: string) => oauthAccessToken(server, clerk, wire, scopes);

    test('a token with the scopes a route needs acts for the user who allowed the application', async () => {
      const { app, token } = await tokenFor('openid profile email');
      const res = await server.api(token, 'GET', '/api/authorized-user');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.userId, userId);
      assert.equal(res.body.clientId, app.clientId);
      assert.deepEqual([...res.body.scopes].sort(), ['email', 'openid', 'profile']);
      assert.equal(res.body.user.firstName, 'Ada');
    });

    test('a token without a needed scope is 403 insufficient_scope; other routes refuse tokens', async () => {
      const { token } = await tokenFor('openid email');
      const res = await server.api(token, 'GET', '/api/authorized-user');
      assert.equal(res.status, 403, JSON.stringify(res.body));
      assert.equal(res.body.errors[0].code, 'forbidden');
      const full = await tokenFor('openid profile email');
      for (const url of ['/api/me', '/api/organizations/current']) {
        const refused = await server.api(full.token, 'GET', url);
        assert.equal(refused.status, 403, url);
        assert.equal(refused.body.errors[0].message, 'This endpoint does not accept OAuth access tokens.');
      }
    });

    test('revoked, withdrawn and made-up tokens are refused at once', async () => {
      const revoked = await tokenFor('openid profile email');
      await oidc.tokenRevocation(revoked.config, revoked.token);
      assert.equal((await server.api(revoked.token, 'GET', '/api/authorized-user')).status, 401);

      const withdrawn = await tokenFor('openid profile email');
      assert.equal((await server.api(withdrawn.token, 'GET', '/api/authorized-user')).status, 200);
      const deleted = await wire.fapi('DELETE', `/me/oauth_consents/${withdrawn.app.id}`);
      assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
      assert.equal((await server.api(withdrawn.token, 'GET', '/api/authorized-user')).status, 401);

      const madeUp = `oat_${'A'.repeat(43)}`;
      const res = await server.api(madeUp, 'GET', '/api/authorized-user');
      assert.equal(res.status, 401);
      assert.equal(res.body.errors[0].code, 'unauthenticated');
    });
  });
