import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import * as oidc from 'openid-client';
import type { ClerkClient } from '@clerk/backend';
import { forEachBackend } from './support/backends.ts';
import { listeningProvider } from './support/listening-provider.ts';
import { insecure, pkceAuthorizationUrl, REDIRECT } from './support/oauth-registration.ts';
import { signUp } from './support/flows.ts';
import { BAPI, Harness, uniqueEmail, type Json } from './support/harness.ts';
import { WireBrowser } from './support/wire-browser.ts';

/**
 * The instance as an OAuth 2.1 / OpenID Connect provider (docs/oauth-provider.md), driven over real HTTP by
 * openid-client as the relying party and a browser signed in over the Frontend API: discovery, the
 * authorization code flow with PKCE through the consent decision, tokens, userinfo, the ID token against
 * the JWKS, refresh rotation, revocation, introspection, @clerk/backend's verification, and the abuse cases.
 */

/** Asserts that an openid-client call fails with the OAuth error `code` (in the body or the challenge). */
async function rejectsWithOAuth(promise: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(promise, (err: Json) => {
    const said = err.error ?? err.cause?.[0]?.parameters?.error ?? err.cause?.error;
    assert.equal(said, code, String(err));
    return true;
  });
}

forEachBackend('OAuth provider', (backend) => {
  let h: Harness;
  let origin: string;
  let issuer: string;
  let clerk: ClerkClient;
  let confidential: { clientId: string; secret: string; id: string };
  let publicApp: { clientId: string; id: string };

  before(async () => {
    ({ h, origin, issuer, clerk } = await listeningProvider(backend));
    const made = await clerk.oauthApplications.create({
      name: 'Partner portal',
      redirectUris: [REDIRECT],
      scopes: 'openid profile email offline_access',
    });
    confidential = { clientId: made.clientId, secret: made.clientSecret!, id: made.id };
    const pub = await clerk.oauthApplications.create({
      name: 'Acme CLI',
      redirectUris: [REDIRECT],
      scopes: 'openid email offline_access',
      public: true,
    });
    publicApp = { clientId: pub.clientId, id: pub.id };
  });
  after(() => h.close());

  /** A new user signed in over the Frontend API, as a browser on the instance's origin. */
  async function signedInBrowser(): Promise<{ wire: WireBrowser; userId: string; email: string }> {
    const email = uniqueEmail('oauth');
    const browser = h.browser({ origin });
    const { userId } = await signUp(h, browser, email, { firstName: 'Ada', lastName: 'Lovelace' });
    return { wire: WireBrowser.signedInAs(browser, origin), userId, email };
  }

  const configOf = (app: 'confidential' | 'public') =>
    app === 'confidential'
      ? oidc.discovery(
          new URL(issuer),
          confidential.clientId,
          undefined,
          oidc.ClientSecretBasic(confidential.secret),
          insecure,
        )
      : oidc.discovery(new URL(issuer), publicApp.clientId, undefined, oidc.None(), insecure);

  interface Started {
    config: oidc.Configuration;
    verifier: string;
    state: string;
    uid: string;
    consentUrl: string;
  }

  /** The relying party sends the browser to authorize; the browser lands on the product's consent page. */
  async function start(
    wire: WireBrowser,
    app: 'confidential' | 'public' | oidc.Configuration,
    scope = 'openid profile email offline_access',
  ): Promise<Started> {
    const config = typeof app === 'string' ? await configOf(app) : app;
    const { url, verifier, state } = await pkceAuthorizationUrl(config, scope);
    const landed = await wire.follow(url.href);
    const consent = new URL(landed.url);
    assert.equal(consent.origin, origin, landed.url);
    assert.equal(consent.pathname, '/oauth/consent', landed.url);
    const uid = consent.searchParams.get('interaction')!;
    assert.ok(uid);
    return { config, verifier, state, uid, consentUrl: landed.url };
  }

  /** Allow (or deny) on the consent page, then back through oidc-provider to the client's redirect URI. */
  async function decide(wire: WireBrowser, uid: string, allow: boolean): Promise<URL> {
    const decided = await wire.fapi('POST', `/me/oauth_consent/${uid}/decision`, { allow: String(allow) });
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
    const back = await wire.follow(decided.body.redirect_url);
    const callback = new URL(back.url);
    assert.equal(`${callback.origin}${callback.pathname}`, REDIRECT, JSON.stringify(back));
    return callback;
  }

  /** Start, Allow, then exchange the code with its verifier: what a relying party holds after a consent. */
  async function allowedTokens(wire: WireBrowser, app: 'confidential' | 'public', scope?: string) {
    const started = await start(wire, app, scope);
    const callback = await decide(wire, started.uid, true);
    const tokens = await oidc.authorizationCodeGrant(started.config, callback, {
      pkceCodeVerifier: started.verifier,
      expectedState: started.state,
    });
    return { started, tokens };
  }

  it('publishes both discovery documents with the issuer and endpoints under the Frontend API path', async () => {
    for (const path of ['openid-configuration', 'oauth-authorization-server']) {
      const res = await fetch(`${issuer}/.well-known/${path}`);
      assert.equal(res.status, 200);
      const doc: Json = await res.json();
      assert.equal(doc.issuer, issuer);
      assert.equal(doc.authorization_endpoint, `${issuer}/oauth/authorize`);
      assert.equal(doc.token_endpoint, `${issuer}/oauth/token`);
      assert.equal(doc.userinfo_endpoint, `${issuer}/oauth/userinfo`);
      assert.equal(doc.introspection_endpoint, `${issuer}/oauth/token_info`);
      assert.equal(doc.revocation_endpoint, `${issuer}/oauth/token/revoke`);
      assert.equal(doc.jwks_uri, `${issuer}/oauth/jwks`);
      assert.deepEqual(doc.code_challenge_methods_supported, ['S256']);
      assert.ok(!JSON.stringify(doc).includes('HS256'), 'no symmetric algorithm is offered');
    }
    // The JWKS is the instance's session-signing key.
    const jwks: Json = await (await fetch(`${issuer}/oauth/jwks`)).json();
    const sessions: Json = (await h.bapi('/v1/jwks')).json();
    assert.deepEqual(
      jwks.keys.map((k: Json) => k.kid),
      sessions.keys.map((k: Json) => k.kid),
    );
  });

  it('signs a user in to a confidential client: consent, code, tokens, ID token, userinfo, refresh', async () => {
    const { wire, userId, email } = await signedInBrowser();
    const started = await start(wire, 'confidential');
    const details = await wire.fapi('GET', `/me/oauth_consent/${started.uid}`);
    assert.equal(details.status, 200, JSON.stringify(details.body));
    assert.equal(details.body.oauth_application_name, 'Partner portal');
    assert.equal(details.body.oauth_application_logo_url, null);
    assert.equal(details.body.redirect_url, '127.0.0.1:9');
    assert.equal(details.body.consent_required, true);
    assert.deepEqual(
      details.body.scopes.map((s: Json) => [s.scope, s.requires_consent]),
      [
        ['openid', false],
        ['profile', true],
        ['email', true],
        ['offline_access', true],
      ],
    );
    const callback = await decide(wire, started.uid, true);
    oidc.enableNonRepudiationChecks(started.config);
    const tokens = await oidc.authorizationCodeGrant(started.config, callback, {
      pkceCodeVerifier: started.verifier,
      expectedState: started.state,
    });
    assert.match(tokens.access_token, /^oat_/);
    assert.ok(tokens.refresh_token);
    const claims = tokens.claims()!;
    assert.equal(claims.sub, userId);
    assert.equal(claims.iss, issuer);
    const info = await oidc.fetchUserInfo(started.config, tokens.access_token, userId);
    assert.equal(info.email, email);
    assert.equal(info.name, 'Ada Lovelace');

    // @clerk/backend's verification of the access token.
    const verified = await clerk.idPOAuthAccessToken.verifyAccessToken(tokens.access_token);
    assert.equal(verified.subject, userId);
    assert.equal(verified.clientId, confidential.clientId);
    assert.ok(verified.scopes.includes('email'));

    // Introspection (token_info) by the client the token was issued to.
    const introspected = await oidc.tokenIntrospection(started.config, tokens.access_token);
    assert.equal(introspected.active, true);
    assert.equal(introspected.sub, userId);

    // Refresh rotates: a new refresh token, the old one used up.
    const refreshed = await oidc.refreshTokenGrant(started.config, tokens.refresh_token!);
    assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
    assert.match(refreshed.access_token, /^oat_/);
    const again = await oidc.fetchUserInfo(started.config, refreshed.access_token, userId);
    assert.equal(again.sub, userId);

    // A reused refresh token revokes the whole family: the new tokens stop too.
    await rejectsWithOAuth(oidc.refreshTokenGrant(started.config, tokens.refresh_token!), 'invalid_grant');
    await rejectsWithOAuth(oidc.refreshTokenGrant(started.config, refreshed.refresh_token!), 'invalid_grant');
    await assert.rejects(oidc.fetchUserInfo(started.config, refreshed.access_token, userId));
    await assert.rejects(clerk.idPOAuthAccessToken.verifyAccessToken(refreshed.access_token), (err: Json) => {
      assert.equal(err.status, 404);
      return true;
    });

    // Remembered: the next authorization says so, and the page can allow without asking.
    const next = await start(wire, 'confidential');
    const remembered = await wire.fapi('GET', `/me/oauth_consent/${next.uid}`);
    assert.equal(remembered.body.consent_remembered, true);
    assert.equal(remembered.body.consent_required, false);
  });

  it('signs a user in to a public client with PKCE; a reused code revokes what it issued', async () => {
    const { wire, userId } = await signedInBrowser();
    const started = await start(wire, 'public', 'openid email offline_access');
    const callback = await decide(wire, started.uid, true);
    const tokens = await oidc.authorizationCodeGrant(started.config, callback, {
      pkceCodeVerifier: started.verifier,
      expectedState: started.state,
    });
    assert.equal(tokens.claims()!.sub, userId);
    await rejectsWithOAuth(
      oidc.authorizationCodeGrant(started.config, callback, {
        pkceCodeVerifier: started.verifier,
        expectedState: started.state,
      }),
      'invalid_grant',
    );
    await assert.rejects(oidc.fetchUserInfo(started.config, tokens.access_token, userId));
  });

  it('refuses a wrong or missing PKCE verifier', async () => {
    const { wire } = await signedInBrowser();
    const started = await start(wire, 'public', 'openid email');
    const callback = await decide(wire, started.uid, true);
    const code = callback.searchParams.get('code')!;
    const post = (form: Record<string, string>) =>
      fetch(`${issuer}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT,
          client_id: publicApp.clientId,
          ...form,
        }),
      });
    const missing = await post({});
    assert.equal(missing.status, 400);
    assert.equal(((await missing.json()) as Json).error, 'invalid_grant');
    const wrong = await post({ code_verifier: oidc.randomPKCECodeVerifier() });
    assert.equal(wrong.status, 400);
    assert.equal(((await wrong.json()) as Json).error, 'invalid_grant');
  });

  it('refuses an unregistered redirect URI and an unknown client without redirecting', async () => {
    const { wire } = await signedInBrowser();
    for (const [clientId, redirect] of [
      [confidential.clientId, 'https://evil.example.com/callback'],
      [confidential.clientId, `${REDIRECT}/more`],
      ['no-such-client', REDIRECT],
    ] as const) {
      const url = new URL(`${issuer}/oauth/authorize`);
      url.search = new URLSearchParams({
        client_id: clientId,
        redirect_uri: redirect,
        response_type: 'code',
        scope: 'openid',
        state: 'x',
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
      }).toString();
      const res = await wire.request(url.href);
      assert.equal(res.status, 400, `${clientId} ${redirect}`);
      assert.equal(res.headers.get('location'), null);
      assert.match(((await res.json()) as Json).error, /invalid_redirect_uri|invalid_client|invalid_request/);
    }
  });

  it('a NUL character in a parameter the provider keeps is refused as invalid_request, never a 500', async () => {
    const { wire } = await signedInBrowser();
    const url = new URL(`${issuer}/oauth/authorize`);
    url.search = new URLSearchParams({
      client_id: confidential.clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid',
      state: 'before\u0000after',
      nonce: 'n\u0000',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    }).toString();
    const res = await wire.request(url.href);
    assert.ok(res.status < 500, `status ${res.status}`);
    const location = res.headers.get('location');
    const error = location ? new URL(location).searchParams.get('error') : ((await res.json()) as Json).error;
    assert.equal(error, 'invalid_request', location ?? '');
  });

  it('refuses a wrong client secret', async () => {
    const config = await oidc.discovery(
      new URL(issuer),
      confidential.clientId,
      undefined,
      oidc.ClientSecretBasic('not-the-secret-0000000000000000000000000'),
      insecure,
    );
    await rejectsWithOAuth(oidc.refreshTokenGrant(config, 'whatever'), 'invalid_client');
  });

  it('revoked tokens stop at userinfo, introspection and verification', async () => {
    const { wire, userId } = await signedInBrowser();
    const { started, tokens } = await allowedTokens(wire, 'confidential');
    await oidc.tokenRevocation(started.config, tokens.access_token);
    await assert.rejects(oidc.fetchUserInfo(started.config, tokens.access_token, userId));
    assert.equal((await oidc.tokenIntrospection(started.config, tokens.access_token)).active, false);
    await assert.rejects(clerk.idPOAuthAccessToken.verifyAccessToken(tokens.access_token));
  });

  it("a locked user's and a deleted application's tokens stop working", async () => {
    const { wire, userId } = await signedInBrowser();
    const { started, tokens } = await allowedTokens(wire, 'confidential');
    await clerk.users.lockUser(userId);
    await assert.rejects(oidc.fetchUserInfo(started.config, tokens.access_token, userId));
    await rejectsWithOAuth(oidc.refreshTokenGrant(started.config, tokens.refresh_token!), 'invalid_grant');
    await assert.rejects(clerk.idPOAuthAccessToken.verifyAccessToken(tokens.access_token));
    await clerk.users.unlockUser(userId);

    const app = await clerk.oauthApplications.create({
      name: 'Short-lived',
      redirectUris: [REDIRECT],
      scopes: 'openid email offline_access',
      public: true,
    });
    const config = await oidc.discovery(new URL(issuer), app.clientId, undefined, oidc.None(), insecure);
    const short = await start(wire, config, 'openid email');
    const granted = await oidc.authorizationCodeGrant(config, await decide(wire, short.uid, true), {
      pkceCodeVerifier: short.verifier,
      expectedState: short.state,
    });
    assert.equal((await oidc.fetchUserInfo(config, granted.access_token, userId)).sub, userId);
    await clerk.oauthApplications.delete(app.id);
    await assert.rejects(oidc.fetchUserInfo(config, granted.access_token, userId));
    await assert.rejects(clerk.idPOAuthAccessToken.verifyAccessToken(granted.access_token));
    await rejectsWithOAuth(oidc.refreshTokenGrant(config, granted.refresh_token!), 'invalid_client');
  });

  it("a banned user's tokens stop working", async () => {
    const { wire, userId } = await signedInBrowser();
    const { started, tokens } = await allowedTokens(wire, 'confidential');
    await clerk.users.banUser(userId);
    await assert.rejects(oidc.fetchUserInfo(started.config, tokens.access_token, userId));
    await rejectsWithOAuth(oidc.refreshTokenGrant(started.config, tokens.refresh_token!), 'invalid_grant');
    await assert.rejects(clerk.idPOAuthAccessToken.verifyAccessToken(tokens.access_token));
  });

  it("refuses a code at another client's token endpoint call", async () => {
    const { wire } = await signedInBrowser();
    const started = await start(wire, 'public', 'openid email');
    const callback = await decide(wire, started.uid, true);
    const other = await configOf('confidential');
    await rejectsWithOAuth(
      oidc.authorizationCodeGrant(other, callback, {
        pkceCodeVerifier: started.verifier,
        expectedState: started.state,
      }),
      'invalid_grant',
    );
  });

  it('echoes the state on every return to the client; a callback without it is refused', async () => {
    const { wire } = await signedInBrowser();
    const started = await start(wire, 'public', 'openid email');
    const callback = await decide(wire, started.uid, true);
    assert.equal(callback.searchParams.get('state'), started.state);
    // An error sent back to the client carries it too (prompt=none never signs anyone in here).
    const url = oidc.buildAuthorizationUrl(started.config, {
      redirect_uri: REDIRECT,
      scope: 'openid',
      state: 'echo-me',
      prompt: 'none',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    const error = new URL((await wire.follow(url.href)).url);
    assert.equal(error.searchParams.get('error'), 'login_required');
    assert.equal(error.searchParams.get('state'), 'echo-me');
    // The relying party that sent a state takes no code whose return lost it.
    const stripped = new URL(callback);
    stripped.searchParams.delete('state');
    await assert.rejects(
      oidc.authorizationCodeGrant(started.config, stripped, {
        pkceCodeVerifier: started.verifier,
        expectedState: started.state,
      }),
      (err: Json) => /"state" missing/.test(String(err.cause)),
    );
  });

  it('releases only the claims of the scopes granted', async () => {
    const app = await clerk.oauthApplications.create({
      name: 'Metadata reader',
      redirectUris: [REDIRECT],
      scopes: 'openid email public_metadata',
      public: true,
    });
    const { wire, userId, email } = await signedInBrowser();
    await clerk.users.updateUserMetadata(userId, {
      publicMetadata: { plan: 'gold' },
      privateMetadata: { note: 'secret' },
    });
    const config = await oidc.discovery(new URL(issuer), app.clientId, undefined, oidc.None(), insecure);
    const exchange = async (scope: string) => {
      const started = await start(wire, config, scope);
      return oidc.authorizationCodeGrant(config, await decide(wire, started.uid, true), {
        pkceCodeVerifier: started.verifier,
        expectedState: started.state,
      });
    };
    const narrow = await oidc.fetchUserInfo(config, (await exchange('openid email')).access_token, userId);
    assert.deepEqual(Object.keys(narrow).sort(), ['email', 'email_verified', 'sub']);
    assert.equal(narrow.email, email);
    const wide = await oidc.fetchUserInfo(
      config,
      (await exchange('openid public_metadata')).access_token,
      userId,
    );
    assert.deepEqual(wide.public_metadata, { plan: 'gold' });
    assert.equal(wide.private_metadata, undefined);
    assert.equal(wide.name, undefined);
  });

  it('a consent covers the scopes allowed: a request for more asks again', async () => {
    const { wire } = await signedInBrowser();
    const first = await start(wire, 'confidential', 'openid email');
    await decide(wire, first.uid, true);
    const wider = await start(wire, 'confidential', 'openid profile email');
    assert.equal((await wire.fapi('GET', `/me/oauth_consent/${wider.uid}`)).body.consent_required, true);
    await decide(wire, wider.uid, true);
    const again = await start(wire, 'confidential', 'openid email');
    assert.equal((await wire.fapi('GET', `/me/oauth_consent/${again.uid}`)).body.consent_required, false);
  });

  it('denying sends access_denied to the client', async () => {
    const { wire } = await signedInBrowser();
    const started = await start(wire, 'confidential');
    const callback = await decide(wire, started.uid, false);
    assert.equal(callback.searchParams.get('error'), 'access_denied');
    assert.equal(callback.searchParams.get('state'), started.state);
    assert.equal(callback.searchParams.get('code'), null);
  });

  it("another user or browser can neither read nor decide someone's interaction, nor decide twice", async () => {
    const victim = await signedInBrowser();
    const attacker = await signedInBrowser();
    const started = await start(attacker.wire, 'confidential');
    // The victim, lured to the attacker's interaction, finds nothing to allow.
    const read = await victim.wire.fapi('GET', `/me/oauth_consent/${started.uid}`);
    assert.equal(read.status, 404);
    assert.equal(read.body.errors[0].code, 'resource_not_found');
    const decided = await victim.wire.fapi('POST', `/me/oauth_consent/${started.uid}/decision`, {
      allow: 'true',
    });
    assert.equal(decided.status, 404);
    // The browser that started it decides once; a replay finds nothing.
    await decide(attacker.wire, started.uid, true);
    const replay = await attacker.wire.fapi('POST', `/me/oauth_consent/${started.uid}/decision`, {
      allow: 'true',
    });
    assert.equal(replay.status, 404);
    // Signed out, the consent endpoints are refused.
    const anonymous = new WireBrowser(origin);
    assert.equal((await anonymous.fapi('GET', `/me/oauth_consent/${started.uid}`)).status, 404);
  });

  it('lists and withdraws consents; withdrawing stops the tokens', async () => {
    const { wire, userId } = await signedInBrowser();
    const { started, tokens } = await allowedTokens(wire, 'confidential');
    const list = await wire.fapi('GET', '/me/oauth_consents');
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.data.map((c: Json) => c.application_id),
      [confidential.id],
    );
    const withdrawn = await wire.fapi('DELETE', `/me/oauth_consents/${confidential.id}`);
    assert.equal(withdrawn.status, 200, JSON.stringify(withdrawn.body));
    await assert.rejects(oidc.fetchUserInfo(started.config, tokens.access_token, userId));
    await assert.rejects(oidc.refreshTokenGrant(started.config, tokens.refresh_token!));
    assert.equal((await wire.fapi('GET', '/me/oauth_consents')).body.data.length, 0);
  });

  /** The Backend API with the instance's secret key (or another key), as an operator calls it. */
  async function bapi(method: 'GET' | 'DELETE', path: string, key = h.identity.secretKey) {
    const res = await fetch(`${origin}${BAPI}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}` },
    });
    return { status: res.status, body: (await res.json()) as Json };
  }

  it("the Backend API lists a user's consents and withdraws one; its tokens stop, other users' stay", async () => {
    const alice = await signedInBrowser();
    const bob = await signedInBrowser();
    const grant = async (who: { wire: WireBrowser }) => {
      const started = await start(who.wire, 'confidential');
      const callback = await decide(who.wire, started.uid, true);
      return oidc.authorizationCodeGrant(started.config, callback, {
        pkceCodeVerifier: started.verifier,
        expectedState: started.state,
      });
    };
    const aliceTokens = await grant(alice);
    const bobTokens = await grant(bob);
    const config = await configOf('confidential');

    const list = await bapi('GET', `/v1/users/${alice.userId}/oauth_consents`);
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.equal(list.body.total_count, 1);
    const [consent] = list.body.data as Json[];
    assert.equal(consent.object, 'oauth_consent');
    assert.equal(consent.user_id, alice.userId);
    assert.equal(consent.application_id, confidential.id);
    assert.equal(consent.client_id, confidential.clientId);
    assert.equal(consent.oauth_application_name, 'Partner portal');
    assert.deepEqual(
      consent.scopes.map((s: Json) => s.scope),
      ['openid', 'profile', 'email', 'offline_access'],
    );
    assert.equal(consent.scopes[2].description, 'View your email address');
    assert.equal(typeof consent.created_at, 'number');
    // Paged like every Backend API list; a bad page is refused in Clerk's envelope.
    const empty = await bapi('GET', `/v1/users/${alice.userId}/oauth_consents?limit=1&offset=1`);
    assert.deepEqual([empty.body.data.length, empty.body.total_count], [0, 1]);
    const bad = await bapi('GET', `/v1/users/${alice.userId}/oauth_consents?limit=abc`);
    assert.equal(bad.status, 422);
    assert.equal(bad.body.errors[0].code, 'form_param_format_invalid');

    // Without the secret key, or with another one, nothing.
    assert.equal(
      (await bapi('GET', `/v1/users/${alice.userId}/oauth_consents`, 'sk_live_wrong')).status,
      401,
    );
    // An unknown user, or an odd id, is not found; an oversized one is refused: Clerk's envelope either way.
    for (const id of ['user_unknown', '..%2F..%2Fjwks', 'x'.repeat(5000)]) {
      const answer = await bapi('GET', `/v1/users/${id}/oauth_consents`);
      assert.equal(answer.status, id.length > 1000 ? 400 : 404, id.slice(0, 20));
      assert.ok(answer.body.errors[0].code, JSON.stringify(answer.body));
      if (answer.status === 404) assert.equal(answer.body.errors[0].code, 'resource_not_found');
    }

    // A consent of another user, named through this user's path, is not found and stays.
    const crossed = await bapi('DELETE', `/v1/users/${alice.userId}/oauth_consents/${publicApp.id}`);
    assert.equal(crossed.status, 404);
    assert.equal(crossed.body.errors[0].code, 'resource_not_found');

    const withdrawn = await bapi('DELETE', `/v1/users/${alice.userId}/oauth_consents/${confidential.id}`);
    assert.equal(withdrawn.status, 200, JSON.stringify(withdrawn.body));
    assert.deepEqual(withdrawn.body, {
      object: 'oauth_consent',
      user_id: alice.userId,
      application_id: confidential.id,
      deleted: true,
    });
    // Alice's tokens stop at once; Bob's, for the same application, still work.
    await assert.rejects(oidc.fetchUserInfo(config, aliceTokens.access_token, alice.userId));
    await assert.rejects(clerk.idPOAuthAccessToken.verifyAccessToken(aliceTokens.access_token));
    await rejectsWithOAuth(oidc.refreshTokenGrant(config, aliceTokens.refresh_token!), 'invalid_grant');
    assert.equal((await oidc.fetchUserInfo(config, bobTokens.access_token, bob.userId)).sub, bob.userId);
    // Gone from both lists; a replay finds nothing.
    assert.equal((await bapi('GET', `/v1/users/${alice.userId}/oauth_consents`)).body.total_count, 0);
    assert.equal((await alice.wire.fapi('GET', '/me/oauth_consents')).body.data.length, 0);
    assert.equal((await bob.wire.fapi('GET', '/me/oauth_consents')).body.data.length, 1);
    const replay = await bapi('DELETE', `/v1/users/${alice.userId}/oauth_consents/${confidential.id}`);
    assert.equal(replay.status, 404);
    // Alice's next authorization asks again.
    const again = await start(alice.wire, 'confidential');
    const details = await alice.wire.fapi('GET', `/me/oauth_consent/${again.uid}`);
    assert.equal(details.body.consent_required, true);
  });

  it('codes and tokens live as long as the instance settings say, from the next issuance on', async () => {
    const before = h.identity.settings.settings;
    await h.identity.settings.set({
      ...before,
      oauthProvider: { accessTokenLifetime: 120, refreshTokenLifetime: 7200, authorizationCodeLifetime: 10 },
    });
    try {
      const { wire, userId } = await signedInBrowser();
      let started = await start(wire, 'confidential');
      let callback = await decide(wire, started.uid, true);
      const tokens = await oidc.authorizationCodeGrant(started.config, callback, {
        pkceCodeVerifier: started.verifier,
        expectedState: started.state,
      });
      assert.equal(tokens.expires_in, 120);
      const idToken = tokens.claims()!;
      assert.equal(idToken.exp - idToken.iat, 120);
      const refresh = await oidc.tokenIntrospection(started.config, tokens.refresh_token!);
      assert.equal(refresh.active, true);
      assert.equal(refresh.exp! - refresh.iat!, 7200);
      const verified = await clerk.idPOAuthAccessToken.verifyAccessToken(tokens.access_token);
      assert.equal(verified.subject, userId);
      // A rotation renews the refresh token for the same lifetime.
      const rotated = await oidc.refreshTokenGrant(started.config, tokens.refresh_token!);
      assert.equal(rotated.expires_in, 120);
      const next = await oidc.tokenIntrospection(started.config, rotated.refresh_token!);
      assert.equal(next.exp! - next.iat!, 7200);

      // A code older than its 10 seconds is refused.
      started = await start(wire, 'confidential');
      callback = await decide(wire, started.uid, true);
      await new Promise((resolve) => setTimeout(resolve, 11_000));
      await rejectsWithOAuth(
        oidc.authorizationCodeGrant(started.config, callback, {
          pkceCodeVerifier: started.verifier,
          expectedState: started.state,
        }),
        'invalid_grant',
      );
    } finally {
      await h.identity.settings.set(before);
    }
    // Back to the defaults for the next issuance.
    const { wire } = await signedInBrowser();
    const { tokens } = await allowedTokens(wire, 'confidential');
    assert.equal(tokens.expires_in, 3600);
  });

  it('an application without a consent screen says so; the page allows at once', async () => {
    const app = await clerk.oauthApplications.create({
      name: 'Internal tool',
      redirectUris: [REDIRECT],
      scopes: 'openid email',
      public: true,
    });
    await h.app.inject({
      method: 'PATCH',
      url: `${BAPI}/v1/oauth_applications/${app.id}`,
      headers: { authorization: `Bearer ${h.identity.secretKey}`, 'content-type': 'application/json' },
      payload: { consent_screen_enabled: false },
    });
    const { wire, userId } = await signedInBrowser();
    const config = await oidc.discovery(new URL(issuer), app.clientId, undefined, oidc.None(), insecure);
    const { uid, verifier, state } = await start(wire, config, 'openid email');
    const details = await wire.fapi('GET', `/me/oauth_consent/${uid}`);
    assert.equal(details.body.consent_required, false);
    const callback = await decide(wire, uid, true);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    assert.equal(tokens.claims()!.sub, userId);
  });
});
