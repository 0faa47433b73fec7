import assert from 'node:assert/strict';
import { it } from 'node:test';
import * as oidc from 'openid-client';
import { forEachBackend } from './support/backends.ts';
import { insecure, LOGO, providerOfSuite, REDIRECT, register } from './support/oauth-registration.ts';
import { signUp } from './support/flows.ts';
import { BAPI, FAPI, uniqueEmail, type Json } from './support/harness.ts';
import { WireBrowser } from './support/wire-browser.ts';

/**
 * RFC 7592 client management of dynamically registered applications (docs/oauth-provider.md, issue #30):
 * the registration answers a registration access token and the client's configuration URI; the token
 * reads, replaces (rotating itself) and deletes its own application, and nothing else.
 */

forEachBackend('OAuth provider: RFC 7592 client management', (backend) => {
  const provider = providerOfSuite(backend, {
    dynamicClientRegistration: true,
    registrationsPerAddressPerHour: 1000,
  });

  /** A request on a client's configuration endpoint (its path from `registration_client_uri`). */
  const manage = (
    method: 'GET' | 'PUT' | 'DELETE',
    clientId: string,
    token: string | null,
    body?: unknown,
    contentType = 'application/json',
  ) =>
    provider.h.app.inject({
      method,
      url: `${FAPI}/oauth/register/${encodeURIComponent(clientId)}`,
      headers: {
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { 'content-type': contentType }),
      },
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  const assertUnauthorized = (res: { statusCode: number; headers: Json; body: string }, what: string) => {
    assert.equal(res.statusCode, 401, `${what}: ${res.body}`);
    assert.equal(res.headers['www-authenticate'], 'Bearer error="invalid_token"', what);
    assert.equal(JSON.parse(res.body).error, 'invalid_token', what);
  };
  const rowOf = async (clientId: string) =>
    (await provider.h.db.query<Json>('SELECT * FROM oauth_applications WHERE client_id = $1', [clientId]))[0];

  it('registration answers a token and the configuration URI; the token reads the registration', async () => {
    const made = await register(provider.h, {
      client_name: 'Reader',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      logo_uri: LOGO,
    });
    assert.match(made.registration_access_token, /^[A-Za-z0-9]{43}$/);
    assert.equal(made.registration_client_uri, `${provider.issuer}/oauth/register/${made.client_id}`);
    // Only its keyed hash is stored.
    const row = await rowOf(made.client_id);
    assert.match(row.registration_token_hash, /^[0-9a-f]{64}$/);
    assert.ok(!JSON.stringify(row).includes(made.registration_access_token));

    const read = await fetch(made.registration_client_uri, {
      headers: { authorization: `Bearer ${made.registration_access_token}` },
    });
    assert.equal(read.status, 200);
    assert.equal(read.headers.get('cache-control'), 'no-store');
    assert.deepEqual(await read.json(), made);
  });

  it('PUT replaces the registration and rotates the token; the old one is refused from then on', async () => {
    const made = await register(provider.h, {
      client_name: 'Before',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      logo_uri: LOGO,
      scope: 'openid email',
    });
    const old = made.registration_access_token;
    const res = await manage('PUT', made.client_id, old, {
      client_id: made.client_id,
      client_name: 'After',
      redirect_uris: ['https://tools.example.com/cb', REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      scope: 'openid profile',
      // Server-set values a client may echo back are ignored.
      client_id_issued_at: 1,
      registration_client_uri: 'https://evil.example.com/',
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['cache-control'], 'no-store');
    const body = res.json();
    assert.equal(body.client_id, made.client_id);
    assert.equal(body.client_name, 'After');
    assert.deepEqual(body.redirect_uris, ['https://tools.example.com/cb', REDIRECT]);
    assert.equal(body.scope, 'openid profile offline_access');
    assert.equal(body.token_endpoint_auth_method, 'none');
    assert.equal(body.client_id_issued_at, made.client_id_issued_at);
    assert.equal(body.registration_client_uri, made.registration_client_uri);
    // Omitted metadata is cleared (RFC 7592 §2.2).
    assert.equal(body.logo_uri, undefined);
    assert.match(body.registration_access_token, /^[A-Za-z0-9]{43}$/);
    assert.notEqual(body.registration_access_token, old);

    // The Backend API sees the change.
    const app = (await provider.clerk.oauthApplications.list({ limit: 100 })).data.find(
      (a) => a.clientId === made.client_id,
    )!;
    assert.equal(app.name, 'After');
    assert.equal(app.clientImageUrl, null);
    assert.equal(app.isPublic, true);

    // The old token is dead for every method; the new one works.
    assertUnauthorized(await manage('GET', made.client_id, old), 'old token, GET');
    assertUnauthorized(
      await manage('PUT', made.client_id, old, { client_id: made.client_id, redirect_uris: [REDIRECT] }),
      'old token, PUT',
    );
    assertUnauthorized(await manage('DELETE', made.client_id, old), 'old token, DELETE');
    const read = await manage('GET', made.client_id, body.registration_access_token);
    assert.equal(read.statusCode, 200);
    assert.equal(read.json().client_name, 'After');
  });

  it('two replacements with one token: one passes, the other is refused', async () => {
    const made = await register(provider.h, {
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    });
    const put = (name: string) =>
      manage('PUT', made.client_id, made.registration_access_token, {
        client_id: made.client_id,
        client_name: name,
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
      });
    const codes = (await Promise.all([put('One'), put('Two')])).map((r) => r.statusCode).sort();
    assert.deepEqual(codes, [200, 401]);
  });

  it('a wrong, missing or other client’s token, an unknown client or an operator’s application: 401 alike', async () => {
    const mine = await register(provider.h, {
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    });
    const theirs = await register(provider.h, {
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    });
    const operator = await provider.h.app.inject({
      method: 'POST',
      url: `${BAPI}/v1/oauth_applications`,
      headers: {
        authorization: `Bearer ${provider.h.identity.secretKey}`,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ name: 'Operator', redirect_uris: [REDIRECT] }),
    });
    assert.equal(operator.statusCode, 200, operator.body);
    const operatorClient: string = operator.json().client_id;
    assert.equal((await rowOf(operatorClient)).registration_token_hash, null);
    const t = mine.registration_access_token;
    for (const method of ['GET', 'DELETE'] as const) {
      assertUnauthorized(await manage(method, mine.client_id, null), `${method} without a token`);
      assertUnauthorized(await manage(method, mine.client_id, `${t}x`), `${method} wrong token`);
      assertUnauthorized(await manage(method, mine.client_id, 'a b'), `${method} malformed token`);
      assertUnauthorized(
        await manage(method, mine.client_id, theirs.registration_access_token),
        `${method} another client's token`,
      );
      assertUnauthorized(await manage(method, theirs.client_id, t), `${method} on another client`);
      assertUnauthorized(await manage(method, 'nosuchclient0000', t), `${method} unknown client`);
      assertUnauthorized(await manage(method, operatorClient, t), `${method} operator's application`);
    }
    const basic = await provider.h.app.inject({
      method: 'GET',
      url: `${FAPI}/oauth/register/${mine.client_id}`,
      headers: { authorization: `Basic ${Buffer.from(`${mine.client_id}:${t}`).toString('base64')}` },
    });
    assertUnauthorized(basic, 'Basic credentials');
    assertUnauthorized(
      await manage('PUT', theirs.client_id, t, { client_id: theirs.client_id, redirect_uris: [REDIRECT] }),
      'PUT on another client',
    );
    // Nothing changed: both still answer their own tokens, the operator's application is still there.
    assert.equal((await manage('GET', mine.client_id, t)).statusCode, 200);
    assert.equal((await manage('GET', theirs.client_id, theirs.registration_access_token)).statusCode, 200);
    assert.equal((await provider.clerk.oauthApplications.get(operator.json().id)).name, 'Operator');
  });

  it('a bad replacement answers RFC 7591 errors, changes nothing and keeps the token', async () => {
    const pub = await register(provider.h, {
      client_name: 'Kept',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      logo_uri: LOGO,
    });
    const conf = await register(provider.h, { client_name: 'Confidential', redirect_uris: [REDIRECT] });
    const ok = (c: Json) => ({ client_id: c.client_id, redirect_uris: [REDIRECT] });
    const cases: [Json, unknown, string, string?][] = [
      [pub, { ...ok(pub), redirect_uris: ['http://tools.example.com/cb'] }, 'invalid_redirect_uri'],
      [pub, { ...ok(pub), redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
      [pub, { ...ok(pub), redirect_uris: [] }, 'invalid_redirect_uri'],
      [pub, { redirect_uris: [REDIRECT] }, 'invalid_client_metadata'],
      [pub, { ...ok(pub), client_id: conf.client_id }, 'invalid_client_metadata'],
      // A public client cannot give itself a secret.
      [pub, { ...ok(pub), token_endpoint_auth_method: 'client_secret_basic' }, 'invalid_client_metadata'],
      [pub, { ...ok(pub), client_secret: 'x'.repeat(40) }, 'invalid_client_metadata'],
      [pub, { ...ok(pub), logo_uri: 'http://evil.example.com/x.png' }, 'invalid_client_metadata'],
      [pub, { ...ok(pub), client_name: 'x'.repeat(257) }, 'invalid_client_metadata'],
      [pub, { ...ok(pub), scope: 'openid admin' }, 'invalid_client_metadata'],
      [pub, { ...ok(pub), grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
      [pub, [ok(pub)], 'invalid_client_metadata'],
      [pub, '{"client_id":', 'invalid_client_metadata'],
      [pub, JSON.stringify(ok(pub)), 'invalid_client_metadata', 'text/plain'],
      // A confidential client cannot drop its secret, nor name another.
      [conf, { ...ok(conf), token_endpoint_auth_method: 'none' }, 'invalid_client_metadata'],
      [conf, { ...ok(conf), client_secret: `${conf.client_secret}x` }, 'invalid_client_metadata'],
    ];
    const unchanged = await provider.h.db.query('SELECT * FROM oauth_applications ORDER BY id');
    for (const [client, body, error, type] of cases) {
      const res = await manage('PUT', client.client_id, client.registration_access_token, body, type);
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
      assert.equal(res.json().error, error, JSON.stringify(body));
      assert.equal(typeof res.json().error_description, 'string');
    }
    assert.deepEqual(await provider.h.db.query('SELECT * FROM oauth_applications ORDER BY id'), unchanged);
    const read = await manage('GET', pub.client_id, pub.registration_access_token);
    assert.equal(read.statusCode, 200);
    assert.equal(read.json().logo_uri, LOGO);

    // A confidential client may name its own secret; it keeps it.
    const same = await manage('PUT', conf.client_id, conf.registration_access_token, {
      ...ok(conf),
      client_secret: conf.client_secret,
      token_endpoint_auth_method: 'client_secret_post',
    });
    assert.equal(same.statusCode, 200, same.body);
    assert.equal(same.json().token_endpoint_auth_method, 'client_secret_basic');
    assert.equal(same.json().client_secret, undefined);
    const row = await rowOf(conf.client_id);
    assert.equal(row.public, false);
    assert.equal(
      row.secret_hash,
      (unchanged as Json[]).find((r) => r.client_id === conf.client_id).secret_hash,
    );
  });

  it('DELETE removes the application: its tokens and consents stop, its token is dead', async () => {
    const registered = await register(provider.h, {
      client_name: 'Gone',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      scope: 'openid email',
    });
    const config = await oidc.discovery(
      new URL(provider.issuer),
      registered.client_id,
      { token_endpoint_auth_method: 'none' },
      oidc.None(),
      insecure,
    );
    const browser = provider.h.browser({ origin: provider.origin });
    await signUp(provider.h, browser, uniqueEmail('rfc7592'), { firstName: 'Ada' });
    const wire = WireBrowser.signedInAs(browser, provider.origin);
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid email offline_access',
      prompt: 'consent',
      state: 's',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const uid = new URL((await wire.follow(url.href)).url).searchParams.get('interaction')!;
    const decided = await wire.fapi('POST', `/me/oauth_consent/${uid}/decision`, { allow: 'true' });
    const callback = new URL((await wire.follow(decided.body.redirect_url)).url);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: 's',
    });
    assert.ok(tokens.refresh_token);
    await provider.clerk.idPOAuthAccessToken.verifyAccessToken(tokens.access_token);
    const appId: string = (await rowOf(registered.client_id)).id;
    const consents = () =>
      provider.h.db
        .query('SELECT 1 FROM oauth_consents WHERE application_id = $1', [appId])
        .then((r) => r.length);
    assert.equal(await consents(), 1);

    const gone = await manage('DELETE', registered.client_id, registered.registration_access_token);
    assert.equal(gone.statusCode, 204, gone.body);
    assert.equal(gone.body, '');
    assert.equal(await rowOf(registered.client_id), undefined);
    assert.equal(await consents(), 0);
    await assert.rejects(provider.clerk.idPOAuthAccessToken.verifyAccessToken(tokens.access_token));
    await assert.rejects(oidc.refreshTokenGrant(config, tokens.refresh_token!));
    const userinfo = await fetch(`${provider.issuer}/oauth/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    assert.equal(userinfo.status, 401);
    for (const method of ['GET', 'DELETE'] as const) {
      assertUnauthorized(
        await manage(method, registered.client_id, registered.registration_access_token),
        method,
      );
    }
  });

  it('is switched with the registration: off, the configuration endpoint is 404', async () => {
    const made = await register(provider.h, {
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    });
    await provider.h.identity.settings.set({
      ...provider.h.identity.settings.settings,
      oauthProvider: { dynamicClientRegistration: false },
    });
    const res = await manage('GET', made.client_id, made.registration_access_token);
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().errors[0].code, 'resource_not_found');
    const del = await manage('DELETE', made.client_id, made.registration_access_token);
    assert.equal(del.statusCode, 404);
    assert.ok(await rowOf(made.client_id));
  });
});
