import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import * as oidc from 'openid-client';
import { WireBrowser } from '../../identity/test/support/wire-browser.ts';
import { startEmbeddedServer, type EmbeddedServer } from './support/embedded-server.ts';
import { backendApi, namedUser } from './support/product-api-world.ts';

/**
 * The product API with OAuth access tokens (docs/oauth-provider.md), against the real embedded provider:
 * an application signs a user in (authorization code with PKCE, the consent decision over the Frontend
 * API), then calls the product API with the `oat_…` token, verified by @clerk/backend's
 * `authenticateRequest({acceptsToken: 'oauth_token'})` on every call. Routes that do not take such tokens
 * refuse them before verifying; missing scopes, revoked tokens and withdrawn consents are refused.
 */
const REDIRECT = 'http://127.0.0.1:9/callback';
const insecure = { execute: [oidc.allowInsecureRequests] };

const backends = [
  { name: 'pglite', databaseUrl: undefined },
  ...(process.env.TEST_DATABASE_URL
    ? [{ name: 'postgres', databaseUrl: process.env.TEST_DATABASE_URL }]
    : []),
];

for (const backend of backends)
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
      wire = new WireBrowser(server.origin);
      const signIn = await wire.fapi('POST', '/client/sign_ins', { identifier: user.email });
      assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
      const done = await wire.fapi(
        'POST',
        `/client/sign_ins/${signIn.body.response.id}/attempt_first_factor`,
        {
          strategy: 'password',
          password: 'correct horse battery',
        },
      );
      assert.equal(done.body.response?.status, 'complete', JSON.stringify(done.body));
    });
    after(() => server?.stop());

    /** An application of `scopes`, and an access token its user allowed it. */
    async function tokenFor(scopes: string) {
      const app = await clerk.oauthApplications.create({
        name: `App ${scopes}`,
        redirectUris: [REDIRECT],
        scopes,
        public: true,
      });
      const config = await oidc.discovery(
        new URL(`${server.origin}/__clerk`),
        app.clientId,
        undefined,
        oidc.None(),
        insecure,
      );
      const verifier = oidc.randomPKCECodeVerifier();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT,
        scope: scopes,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: 's',
      });
      const consent = new URL((await wire.follow(url.href)).url);
      assert.equal(consent.pathname, '/oauth/consent');
      const uid = consent.searchParams.get('interaction')!;
      const decided = await wire.fapi('POST', `/me/oauth_consent/${uid}/decision`, { allow: 'true' });
      assert.equal(decided.status, 200, JSON.stringify(decided.body));
      const callback = new URL((await wire.follow(decided.body.redirect_url)).url);
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: 's',
      });
      assert.match(tokens.access_token, /^oat_/);
      return { app, config, token: tokens.access_token };
    }

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
