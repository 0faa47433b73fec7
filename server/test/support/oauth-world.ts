import assert from 'node:assert/strict';
import type { ClerkClient } from '@clerk/backend';
import * as oidc from 'openid-client';
import { WireBrowser } from '../../../identity/test/support/wire-browser.ts';
import type { EmbeddedServer } from './embedded-server.ts';

/** Where the test applications send their users back: nothing listens there, only the URL is read. */
export const OAUTH_REDIRECT = 'http://127.0.0.1:9/callback';
/** The embedded provider's issuer is plain http on loopback. */
const insecure = { execute: [oidc.allowInsecureRequests] };

/** A browser (the wire client) signed in as `email` with the named users' password. */
export async function signedInWire(server: EmbeddedServer, email: string): Promise<WireBrowser> {
  const wire = new WireBrowser(server.origin);
  const signIn = await wire.fapi('POST', '/client/sign_ins', { identifier: email });
  assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
  const done = await wire.fapi('POST', `/client/sign_ins/${signIn.body.response.id}/attempt_first_factor`, {
    strategy: 'password',
    password: 'correct horse battery',
  });
  assert.equal(done.body.response?.status, 'complete', JSON.stringify(done.body));
  return wire;
}

/**
 * A public application of `scopes`, and an access token the signed-in `wire` user allowed it: the
 * authorization code flow with PKCE, the consent decided over the Frontend API as the consent page does.
 */
export async function oauthAccessToken(
  server: EmbeddedServer,
  clerk: ClerkClient,
  wire: WireBrowser,
  scopes: string,
  name = `App ${scopes}`,
) {
  const app = await clerk.oauthApplications.create({
    name,
    redirectUris: [OAUTH_REDIRECT],
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
    redirect_uri: OAUTH_REDIRECT,
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
