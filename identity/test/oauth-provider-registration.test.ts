import assert from 'node:assert/strict';
import { it } from 'node:test';
import * as oidc from 'openid-client';
import { forEachBackend } from './support/backends.ts';
import {
  insecure,
  LOGO,
  postRegistration,
  providerOfSuite,
  REDIRECT,
  setOAuthProvider,
} from './support/oauth-registration.ts';
import { signUp } from './support/flows.ts';
import { BAPI, FAPI, uniqueEmail, type Json } from './support/harness.ts';
import { WireBrowser } from './support/wire-browser.ts';

/**
 * What docs/oauth-provider.md adds to the authorization server beyond the code flow (issue #30): RFC 7591
 * dynamic client registration behind its instance setting, limited per address; an application's home
 * page and logo (Backend API, registration, the consent request); and the Backend API's limit on failed
 * access-token verifications per address. Small limits are set through the live instance settings; the
 * protocol flow runs once (openid-client registering itself, then the code flow with PKCE).
 */

const HOME = 'https://tools.example.com/';

forEachBackend('OAuth provider: registration, presentation, verification limits', (backend) => {
  const provider = providerOfSuite(backend);

  const setProvider = (oauthProvider: Json) => setOAuthProvider(provider.h, oauthProvider);
  const register = (body: unknown, address: string, contentType?: string) =>
    postRegistration(provider.h, body, address, contentType);

  const applicationCount = async () => (await provider.clerk.oauthApplications.list({ limit: 1 })).totalCount;

  it('is off by default: 404 like an unknown path, and discovery names no registration endpoint', async () => {
    const res = await register({ redirect_uris: [REDIRECT] }, '192.0.2.10');
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().errors[0].code, 'resource_not_found');
    const unknown = await provider.h.app.inject({ method: 'POST', url: `${FAPI}/oauth/nowhere` });
    assert.equal(unknown.statusCode, 404);
    const doc: Json = await (await fetch(`${provider.issuer}/.well-known/openid-configuration`)).json();
    assert.equal(doc.registration_endpoint, undefined);
    assert.equal(await applicationCount(), 0);
  });

  it('on: a public client registers itself, must use PKCE, and signs a user in through the consent', async () => {
    await setProvider({ dynamicClientRegistration: true });
    const doc: Json = await (await fetch(`${provider.issuer}/.well-known/oauth-authorization-server`)).json();
    assert.equal(doc.registration_endpoint, `${provider.issuer}/oauth/register`);

    const config = await oidc.dynamicClientRegistration(
      new URL(provider.issuer),
      {
        client_name: 'MCP tools',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        scope: 'openid email',
        client_uri: HOME,
        logo_uri: LOGO,
      },
      oidc.None(),
      insecure,
    );
    const metadata = config.clientMetadata();
    assert.equal(metadata.client_secret, undefined);
    assert.equal(metadata.token_endpoint_auth_method, 'none');
    assert.equal(metadata.scope, 'openid email offline_access');
    assert.deepEqual(metadata.grant_types, ['authorization_code', 'refresh_token']);

    // An ordinary OAuth application of the instance, marked as registered by itself.
    const { data } = await provider.clerk.oauthApplications.list({ limit: 10 });
    const app = data.find((a) => a.clientId === metadata.client_id)!;
    assert.equal(app.name, 'MCP tools');
    assert.equal(app.dynamicallyRegistered, true);
    assert.equal(app.isPublic, true);
    assert.equal(app.pkceRequired, true);
    assert.equal(app.consentScreenEnabled, true);
    assert.equal(app.clientUri, HOME);
    assert.equal(app.clientImageUrl, LOGO);
    assert.deepEqual(app.redirectUris, [REDIRECT]);

    // Without PKCE the authorization is refused (back to the client with invalid_request).
    const noPkce = new URL(`${provider.issuer}/oauth/authorize`);
    noPkce.search = new URLSearchParams({
      client_id: metadata.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid',
      state: 's',
    }).toString();
    const refused = await fetch(noPkce, { redirect: 'manual' });
    const location = new URL(refused.headers.get('location')!);
    assert.equal(location.searchParams.get('error'), 'invalid_request', location.href);
    assert.match(location.searchParams.get('error_description') ?? '', /PKCE/);

    // With PKCE: the consent request shows the logo and the home page, and the token verifies.
    const browser = provider.h.browser({ origin: provider.origin });
    const { userId } = await signUp(provider.h, browser, uniqueEmail('dcr'), { firstName: 'Ada' });
    const wire = WireBrowser.signedInAs(browser, provider.origin);
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid email',
      state: 's',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const uid = new URL((await wire.follow(url.href)).url).searchParams.get('interaction')!;
    const details = await wire.fapi('GET', `/me/oauth_consent/${uid}`);
    assert.equal(details.status, 200, JSON.stringify(details.body));
    assert.equal(details.body.oauth_application_logo_url, LOGO);
    assert.equal(details.body.oauth_application_url, HOME);
    assert.equal(details.body.consent_required, true);
    const decided = await wire.fapi('POST', `/me/oauth_consent/${uid}/decision`, { allow: 'true' });
    const callback = new URL((await wire.follow(decided.body.redirect_url)).url);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: 's',
    });
    assert.ok(tokens.refresh_token);
    const verified = await provider.clerk.idPOAuthAccessToken.verifyAccessToken(tokens.access_token);
    assert.equal(verified.subject, userId);
    accessToken = tokens.access_token;
  });
  let accessToken: string;

  it('a confidential client gets its secret once, which never expires', async () => {
    const res = await register(
      { redirect_uris: ['https://partner.example.com/cb'], client_name: 'Partner' },
      '192.0.2.11',
    );
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.headers['cache-control'], 'no-store');
    const body = res.json();
    assert.match(body.client_secret, /^[A-Za-z0-9]{40}$/);
    assert.equal(body.client_secret_expires_at, 0);
    assert.equal(body.token_endpoint_auth_method, 'client_secret_basic');
    assert.equal(body.scope, 'openid profile email');
    const app = (await provider.clerk.oauthApplications.list({ limit: 10 })).data.find(
      (a) => a.clientId === body.client_id,
    )!;
    assert.equal(app.isPublic, false);
    assert.equal(app.dynamicallyRegistered, true);
    assert.equal(app.clientSecret, undefined);
  });

  it('malformed metadata answers RFC 7591 errors and registers nothing', async () => {
    const before = await applicationCount();
    const cases: [unknown, string, string?][] = [
      [{}, 'invalid_redirect_uri'],
      [{ redirect_uris: [] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['http://partner.example.com/cb'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://partner.example.com/cb#frag'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: 'https://partner.example.com/cb' }, 'invalid_client_metadata'],
      [{ redirect_uris: [REDIRECT], scope: 'openid admin' }, 'invalid_client_metadata'],
      [
        { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'private_key_jwt' },
        'invalid_client_metadata',
      ],
      [{ redirect_uris: [REDIRECT], response_types: ['token'] }, 'invalid_client_metadata'],
      [{ redirect_uris: [REDIRECT], grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
      [{ redirect_uris: [REDIRECT], logo_uri: 'http://evil.example.com/x.png' }, 'invalid_client_metadata'],
      [{ redirect_uris: [REDIRECT], client_name: 'x'.repeat(257) }, 'invalid_client_metadata'],
      ['[1,2', 'invalid_client_metadata'],
      ['{"redirect_uris":["http://127.0.0.1/cb"]}', 'invalid_client_metadata', 'text/plain'],
    ];
    // Each from an address of its own: the limit (10 an hour) is the next test's.
    for (const [i, [body, error, type]] of cases.entries()) {
      const res = await register(body, `192.0.2.${20 + i}`, type);
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
      assert.equal(res.json().error, error, JSON.stringify(body));
      assert.equal(typeof res.json().error_description, 'string');
    }
    assert.equal(await applicationCount(), before);
  });

  it('is limited per address, counted in the database, refused ones included; other addresses go on', async () => {
    await setProvider({ dynamicClientRegistration: true, registrationsPerAddressPerHour: 2 });
    const ok = { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' };
    assert.equal((await register({}, '203.0.113.50')).statusCode, 400);
    assert.equal((await register(ok, '203.0.113.50')).statusCode, 201);
    const before = await applicationCount();
    const limited = await register(ok, '203.0.113.50');
    assert.equal(limited.statusCode, 429, limited.body);
    assert.ok(Number(limited.headers['retry-after']) > 3500);
    assert.equal(limited.json().errors[0].code, 'too_many_requests');
    assert.equal(await applicationCount(), before);
    const [row] = await provider.h.db.query<{ count: number }>(
      'SELECT count FROM rate_limits WHERE key = $1',
      ['oauth_register:ip:203.0.113.50'],
    );
    assert.equal(row?.count, 3);
    assert.equal((await register(ok, '203.0.113.51')).statusCode, 201);
    // Off again: 404, and nothing counted.
    await setProvider({ dynamicClientRegistration: false });
    assert.equal((await register(ok, '203.0.113.52')).statusCode, 404);
  });

  it('the Backend API takes and checks a home page and a logo', async () => {
    const post = (body: Json) =>
      provider.h.app.inject({
        method: 'POST',
        url: `${BAPI}/v1/oauth_applications`,
        headers: {
          authorization: `Bearer ${provider.h.identity.secretKey}`,
          'content-type': 'application/json',
        },
        payload: JSON.stringify(body),
      });
    const made = await post({ name: 'Shown', client_uri: HOME, client_image_url: LOGO });
    assert.equal(made.statusCode, 200, made.body);
    assert.equal(made.json().client_uri, HOME);
    assert.equal(made.json().client_image_url, LOGO);
    assert.equal(made.json().dynamically_registered, false);
    const read = await provider.clerk.oauthApplications.get(made.json().id);
    assert.equal(read.clientImageUrl, LOGO);
    const cleared = await provider.h.app.inject({
      method: 'PATCH',
      url: `${BAPI}/v1/oauth_applications/${made.json().id}`,
      headers: {
        authorization: `Bearer ${provider.h.identity.secretKey}`,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ client_image_url: '' }),
    });
    assert.equal(cleared.json().client_image_url, null);
    assert.equal(cleared.json().client_uri, HOME);
    for (const bad of [
      { client_uri: 'http://example.com' },
      { client_image_url: 'data:image/png;base64,AA' },
    ]) {
      const res = await post({ name: 'Bad', ...bad });
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().errors[0].code, 'form_param_value_invalid');
    }
  });

  it('failed token verifications are limited per caller address; good tokens elsewhere go on', async () => {
    await setProvider({ failedTokenVerificationsPerAddress: 3 });
    const verify = (token: string, address: string) =>
      provider.h.app.inject({
        method: 'POST',
        url: `${BAPI}/oauth_applications/access_tokens/verify`,
        remoteAddress: address,
        headers: {
          authorization: `Bearer ${provider.h.identity.secretKey}`,
          'content-type': 'application/json',
        },
        payload: JSON.stringify({ access_token: token }),
      });
    const scanner = '198.51.100.77';
    for (const token of [`oat_${'A'.repeat(43)}`, 'not-a-token', `oat_${'B'.repeat(43)}`]) {
      assert.equal((await verify(token, scanner)).statusCode, 404);
    }
    const limited = await verify(accessToken, scanner);
    assert.equal(limited.statusCode, 429, limited.body);
    assert.ok(Number(limited.headers['retry-after']) > 0);
    assert.equal(limited.json().errors[0].code, 'too_many_requests');
    const [row] = await provider.h.db.query<{ count: number }>(
      'SELECT count FROM rate_limits WHERE key = $1',
      [`oauth_token_verify_failed:ip:${scanner}`],
    );
    assert.equal(row?.count, 3);
    // The same token from another caller (here @clerk/backend over loopback) verifies, and costs no count.
    assert.equal((await verify(accessToken, '198.51.100.78')).statusCode, 200);
    const verified = await provider.clerk.idPOAuthAccessToken.verifyAccessToken(accessToken);
    assert.match(verified.clientId, /.+/);
    const [none] = await provider.h.db.query('SELECT count FROM rate_limits WHERE key = $1', [
      'oauth_token_verify_failed:ip:198.51.100.78',
    ]);
    assert.equal(none, undefined);
  });
});
