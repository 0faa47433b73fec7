import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { exportSPKI, importJWK, type CryptoKey } from 'jose';
import { BAPI_PATH } from '../src/app.ts';
import { startEmbeddedServer, type EmbeddedServer, type User } from './support/embedded-server.ts';
import {
  backendApi,
  backendApiRequests,
  namedUser,
  productApiOn,
  PROFILE_CLAIMS,
  resignedToken,
  sessionToken,
  type Call,
} from './support/product-api-world.ts';

/**
 * GET /api/me without any network call or query: the token is verified with keys held in the process,
 * and the user's name and address are its `email`/`first_name`/`last_name` claims. The Backend API
 * requests are counted as they reach the embedded provider's socket (support/product-api-world.ts).
 * Tokens with or without those claims are the instance's own, re-signed with its signing key, so these
 * tests hold whatever the provider's session-token template puts in the tokens it mints.
 */
describe('GET /api/me: the session check', () => {
  let server: EmbeddedServer;
  let call: Call;
  let ada: User;
  let alan: User;

  before(async () => {
    server = await startEmbeddedServer();
    ({ call } = await productApiOn(server));
    ada = await namedUser(server, 'ada', 'Ada', 'Lovelace');
    alan = await namedUser(server, 'alan', 'Alan', null);
    // The first token of an authenticator fetches the JWKS: done here, so the tests count the rest.
    assert.equal((await call(await sessionToken(ada, null), 'GET', '/api/me')).status, 200);
  });
  after(() => server?.stop());

  /** A token of `user` carrying exactly `profile` as its template claims (null: none of them). */
  async function tokenWith(
    user: User,
    profile: { email: unknown; first_name: unknown; last_name: unknown } | null,
  ): Promise<string> {
    return resignedToken(server, await sessionToken(user, null), (claims) => {
      for (const claim of PROFILE_CLAIMS) delete claims[claim];
      Object.assign(claims, profile);
    });
  }

  /** The Backend API requests `work` made, counted on the provider's socket. */
  async function requestsDuring<T>(work: () => Promise<T>): Promise<{ result: T; paths: string[] }> {
    const counter = backendApiRequests(server);
    try {
      return { result: await work(), paths: counter.paths };
    } finally {
      counter.stop();
    }
  }

  /** `token` answers Ada as she is, with no Backend API request: the claims alone said who she is. */
  async function assertAdaFromClaimsAlone(token: string) {
    const { result: res, paths } = await requestsDuring(() => call(token, 'GET', '/api/me'));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.user, {
      id: ada.userId,
      firstName: 'Ada',
      lastName: 'Lovelace',
      primaryEmailAddress: ada.email,
    });
    assert.deepEqual(paths, []);
  }

  test('the name and address come from the token’s claims: no Backend API request at all', async () => {
    const token = await tokenWith(ada, { email: ada.email, first_name: 'Ada', last_name: 'Lovelace' });
    await assertAdaFromClaimsAlone(token);

    // The token's word, as the instance minted it: not a lookup that happens to agree.
    const renamed = await tokenWith(ada, {
      email: 'augusta@example.com',
      first_name: 'Augusta',
      last_name: null,
    });
    const fromClaims = await requestsDuring(() => call(renamed, 'GET', '/api/me'));
    assert.deepEqual(fromClaims.result.body.user, {
      id: ada.userId,
      firstName: 'Augusta',
      lastName: null,
      primaryEmailAddress: 'augusta@example.com',
    });
    assert.deepEqual(fromClaims.paths, []);
  });

  test('without the claims (hosted Clerk without the template): one Backend API request for the user', async () => {
    const token = await tokenWith(alan, null);
    const { result: res, paths } = await requestsDuring(() => call(token, 'GET', '/api/me'));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.user, {
      id: alan.userId,
      firstName: 'Alan',
      lastName: null,
      primaryEmailAddress: alan.email,
    });
    assert.deepEqual(paths, [`GET ${BAPI_PATH}/v1/users/${alan.userId}`]);
  });

  test('a partial or mistyped template is no template: the Backend API says who the user is', async () => {
    for (const profile of [
      { email: alan.email, first_name: undefined, last_name: undefined },
      { email: 42, first_name: 'Mallory', last_name: null },
      { email: alan.email, first_name: ['Mallory'], last_name: null },
    ]) {
      const token = await tokenWith(alan, profile);
      const { result: res, paths } = await requestsDuring(() => call(token, 'GET', '/api/me'));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.user.firstName, 'Alan', JSON.stringify(profile));
      assert.equal(res.body.user.primaryEmailAddress, alan.email);
      assert.deepEqual(paths, [`GET ${BAPI_PATH}/v1/users/${alan.userId}`]);
    }
  });

  test('refused (401): a claim changed under the signature, expired, another azp, a pending session', async () => {
    const genuine = await tokenWith(ada, { email: ada.email, first_name: 'Ada', last_name: 'Lovelace' });
    const [header, payload, signature] = genuine.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
    const now = Math.floor(Date.now() / 1000);
    const refusals: [string, string, RegExp][] = [
      [
        'email changed, signature kept',
        `${header}.${Buffer.from(JSON.stringify({ ...claims, email: 'mallory@example.com' })).toString('base64url')}.${signature}`,
        /JWT signature is invalid/,
      ],
      [
        'expired 30 s ago',
        await resignedToken(server, genuine, (c) => Object.assign(c, { exp: now - 30 })),
        /JWT is expired/,
      ],
      [
        'not valid for another minute (nbf)',
        await resignedToken(server, genuine, (c) => Object.assign(c, { nbf: now + 60 })),
        /not before date claim \(nbf\)/,
      ],
      [
        'azp of another origin',
        await resignedToken(server, genuine, (c) => Object.assign(c, { azp: 'https://evil.test' })),
        /Authorized party claim \(azp\)/,
      ],
      [
        'a pending session (sts), as @clerk/backend’s toAuth() treats it',
        await resignedToken(server, genuine, (c) => Object.assign(c, { sts: 'pending' })),
        /Session is not active/,
      ],
    ];
    assert.equal((await call(genuine, 'GET', '/api/me')).status, 200, 'the genuine token passes');
    for (const [name, token, because] of refusals) {
      const { result: res, paths } = await requestsDuring(() => call(token, 'GET', '/api/me'));
      assert.equal(res.status, 401, `${name}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.errors[0].code, 'unauthenticated', name);
      assert.match(res.body.errors[0].message, because, name);
      assert.deepEqual(paths, [], `${name}: refused without asking anyone`);
    }
  });

  test('impersonation: the user from the claims, the actor still looked up (one request)', async () => {
    const actorToken = await backendApi(server).actorTokens.create({
      userId: alan.userId,
      actor: { sub: ada.userId },
    });
    const browser = server.browser();
    const signIn = await browser.call('POST', '/client/sign_ins', {
      strategy: 'ticket',
      ticket: actorToken.token!,
    });
    assert.equal(signIn.body?.response?.status, 'complete', JSON.stringify(signIn.body?.errors));
    const session = {
      browser,
      userId: alan.userId,
      sessionId: signIn.body.response.created_session_id,
      email: '',
    };
    const token = await tokenWith(session, { email: alan.email, first_name: 'Alan', last_name: null });
    const { result: res, paths } = await requestsDuring(() => call(token, 'GET', '/api/me'));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.user.firstName, 'Alan');
    assert.deepEqual(res.body.actor, { userId: ada.userId, name: 'Ada Lovelace', email: ada.email });
    assert.deepEqual(paths, [`GET ${BAPI_PATH}/v1/users/${ada.userId}`]);
  });

  test('the provider’s own tokens carry the default template’s claims: a genuine token takes the claims path', async () => {
    const token = await sessionToken(ada, null);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
    assert.equal(claims.email, ada.email);
    assert.equal(claims.first_name, 'Ada');
    assert.equal(claims.last_name, 'Lovelace');
    await assertAdaFromClaimsAlone(token);
  });

  test('GET /healthz, the no-op route it is measured against: 200 without a session, never cached', async () => {
    const res = await server.app.fastify.inject({ method: 'GET', url: '/healthz' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ok' });
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
  });

  describe('the instance keys', () => {
    test('the JWKS is fetched once by an authenticator, however many tokens arrive at once', async () => {
      const tokens = await Promise.all(
        [ada, alan].map((u) => tokenWith(u, { email: u.email, first_name: 'X', last_name: null })),
      );
      const { result: statuses, paths } = await requestsDuring(async () => {
        const { call: fresh } = await productApiOn(server);
        const first = await Promise.all(
          tokens.flatMap((t) => [1, 2, 3, 4, 5].map(() => fresh(t, 'GET', '/api/me'))),
        );
        const again = await Promise.all(tokens.map((t) => fresh(t, 'GET', '/api/me')));
        return [...first, ...again].map((r) => r.status);
      });
      assert.deepEqual(new Set(statuses), new Set([200]));
      assert.deepEqual(paths, [`GET ${BAPI_PATH}/v1/jwks`]);
    });

    test('a kid the instance does not have: refused, and the JWKS fetched again at most once', async () => {
      const unknownKid = await resignedToken(server, await sessionToken(ada, null), () => {});
      // resignedToken keeps the instance's kid: this one names another, under the instance's own signature.
      const [, payload, signature] = unknownKid.split('.');
      const header = Buffer.from(
        JSON.stringify({ alg: 'RS256', kid: 'ins_2zzzzzzzzzzzzzzzzzzzzzzzzzz', typ: 'JWT' }),
      ).toString('base64url');
      const forged = `${header}.${payload}.${signature}`;
      const { call: fresh } = await productApiOn(server);
      assert.equal((await fresh(await sessionToken(ada, null), 'GET', '/api/me')).status, 200);
      const { result: refusals, paths } = await requestsDuring(() =>
        Promise.all([1, 2, 3, 4, 5, 6].map(() => fresh(forged, 'GET', '/api/me'))),
      );
      for (const res of refusals) {
        assert.equal(res.status, 401);
        assert.match(res.body.errors[0].message, /Unable to find a signing key in JWKS/);
      }
      assert.ok(paths.length <= 1, `at most one JWKS fetch for six unknown-kid tokens: ${paths.join(', ')}`);
    });

    test('hosted mode with CLERK_JWT_KEY (the PEM public key): no request at all, not even the first', async () => {
      const { publicJwk } = server.app.identity!.deps.signingKey;
      const pem = await exportSPKI((await importJWK(publicJwk, 'RS256', { extractable: true })) as CryptoKey);
      const token = await tokenWith(alan, { email: alan.email, first_name: 'Alan', last_name: null });
      const { result: res, paths } = await requestsDuring(async () => {
        const { call: hosted } = await productApiOn(server, undefined, { jwtKey: pem });
        return hosted(token, 'GET', '/api/me');
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.userId, alan.userId);
      assert.deepEqual(paths, []);
    });
  });
});
