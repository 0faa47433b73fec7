import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { verifyToken } from '@clerk/backend';
import { mintSessionToken } from '../src/instance/session-token.ts';
import { forEachBackend } from './support/backends.ts';
import { bareTokenInput } from './support/token-input.ts';
import { FORGERIES, parts, type ForgeryContext } from './support/forged-tokens.ts';
import { BAPI, Harness, PUBLIC_URL } from './support/harness.ts';
import { activate, createOrganization, newMember, type Member } from './support/organizations.ts';

const KEY_INVALID = {
  errors: [
    {
      code: 'clerk_key_invalid',
      message: 'Secret key invalid',
      long_message:
        'The provided Clerk Secret Key is invalid. Make sure that your Clerk Secret Key is correct.',
      meta: {},
    },
  ],
};

/**
 * Forged session tokens and secret keys against the Backend API. The Backend API has no endpoint that takes
 * a session token (hosted Clerk's `sessions/{id}/verify` and `clients/verify` are deprecated, and
 * @clerk/backend 2.10.1 verifies session tokens networkless against `GET /v1/jwks`). So: the JWKS a
 * backend verifies with exposes only the public key, @clerk/backend's `verifyToken` with that JWKS refuses
 * every forgery, and a session token, forged or genuine, is never accepted as the secret key.
 */
forEachBackend('forged session tokens and secret keys on the Backend API', (backend) => {
  let h: Harness;
  let other: Harness;
  let victim: Member;
  let apiUrl: string;
  let ctx: Omit<ForgeryContext, 'genuine'>;

  before(async () => {
    h = await Harness.start(backend);
    // A second, independent instance: its own database, signing key and secret key.
    other = await Harness.start(backend, {
      config: { secretKey: 'sk_live_anotherinstance00000000000000000000000' },
    });
    victim = await newMember(h, 'forge-victim');
    await activate(victim, (await createOrganization(victim, 'Victim Org')).id);
    const stranger = await newMember(h, 'forge-other');
    const strangerOrg = await createOrganization(stranger, 'Stranger Org');
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    apiUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}${BAPI}`;
    ctx = {
      instanceKey: h.identity.deps.signingKey,
      otherInstanceToken: await mintSessionToken(
        other.identity.deps.tokens,
        bareTokenInput({
          sessionId: victim.sessionId,
          userId: victim.userId,
          azp: PUBLIC_URL,
          now: new Date(),
        }),
      ),
      other: { userId: stranger.userId, sessionId: stranger.sessionId, organizationId: strangerOrg.id },
    };
  });
  after(async () => {
    await other?.close();
    await h?.close();
  });

  /** A fresh genuine token: the harness clock stands still, and @clerk/backend checks against real time. */
  async function genuine(): Promise<string> {
    h.clock.set(new Date());
    const res = await victim.browser.post(`/client/sessions/${victim.sessionId}/tokens`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.jwt;
  }

  const verify = (token: string) =>
    verifyToken(token, { secretKey: h.identity.secretKey, apiUrl, authorizedParties: [PUBLIC_URL] });

  it('the JWKS carries only the public half of the signing key', async () => {
    const res = await h.bapi('/v1/jwks');
    assert.equal(res.statusCode, 200);
    const { keys } = res.json();
    assert.equal(keys.length, 1);
    assert.deepEqual(Object.keys(keys[0]).sort(), ['alg', 'e', 'kid', 'kty', 'n', 'use']);
    for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'])
      assert.equal(secret in keys[0], false, secret);
    assert.equal(res.body.includes(String(h.identity.deps.signingKey.publicJwk.n)), true);
  });

  it('@clerk/backend verifies the genuine token with that JWKS (the control)', async () => {
    const token = await genuine();
    const claims = await verify(token);
    assert.equal(claims.sub, victim.userId);
    assert.equal(claims.sid, victim.sessionId);
    assert.equal(parts(token).payload.org_role, 'org:admin');
  });

  for (const forgery of FORGERIES) {
    it(`refused: ${forgery.name}`, async () => {
      const token = await genuine();
      assert.equal((await verify(token)).sub, victim.userId, 'the genuine token passes');
      const forged = await forgery.forge({ ...ctx, genuine: token });
      assert.notEqual(forged, token);
      await assert.rejects(verify(forged), forgery.because, `@clerk/backend must refuse ${forgery.name}`);
      // A session token is no secret key, forged or not.
      const res = await h.bapi(`/v1/users/${victim.userId}`, forged);
      assert.equal(res.statusCode, 401);
      assert.deepEqual(res.json(), { ...KEY_INVALID, clerk_trace_id: res.headers['x-request-id'] });
    });
  }

  it('a genuine session token is not a secret key either', async () => {
    const res = await h.bapi(`/v1/users/${victim.userId}`, await genuine());
    assert.equal(res.statusCode, 401);
    assert.deepEqual(res.json(), { ...KEY_INVALID, clerk_trace_id: res.headers['x-request-id'] });
  });

  const secret = () => h.identity.secretKey;
  const badKeys: [string, () => Record<string, string>][] = [
    ['no Authorization header', () => ({})],
    ['an empty bearer', () => ({ authorization: 'Bearer ' })],
    ['the key without "Bearer "', () => ({ authorization: secret() })],
    [
      'the key as Basic credentials',
      () => ({ authorization: `Basic ${Buffer.from(`${secret()}:`).toString('base64')}` }),
    ],
    [
      'the key with its last character changed',
      () => ({ authorization: `Bearer ${secret().slice(0, -1)}x` }),
    ],
    ['the key truncated', () => ({ authorization: `Bearer ${secret().slice(0, -1)}` })],
    ['the key with a suffix', () => ({ authorization: `Bearer ${secret()}0` })],
    ['the key in upper case', () => ({ authorization: `Bearer ${secret().toUpperCase()}` })],
    [
      'the key under the other prefix',
      () => ({ authorization: `Bearer ${secret().replace('sk_live_', 'sk_test_')}` }),
    ],
    ['the bare prefix', () => ({ authorization: 'Bearer sk_live_' })],
    ['the publishable key', () => ({ authorization: `Bearer ${h.identity.publishableKey}` })],
    ['the secret key of another instance', () => ({ authorization: `Bearer ${other.identity.secretKey}` })],
    ['the key in a cookie instead', () => ({ cookie: `__session=${secret()}; secret_key=${secret()}` })],
  ];
  for (const [name, headers] of badKeys) {
    it(`the Backend API refuses ${name} (401 clerk_key_invalid) and changes nothing`, async () => {
      const before = await h.count('organizations');
      for (const [method, url, payload] of [
        ['GET', '/v1/jwks', undefined],
        ['GET', `/v1/users/${victim.userId}`, undefined],
        ['GET', `/v1/users?secret_key=${encodeURIComponent(secret())}`, undefined],
        ['POST', '/v1/organizations', { name: 'Forged', created_by: victim.userId }],
      ] as const) {
        const res = await h.app.inject({ method, url: `${BAPI}${url}`, headers: headers(), payload });
        assert.equal(res.statusCode, 401, `${method} ${url}: ${res.body}`);
        assert.deepEqual(res.json(), { ...KEY_INVALID, clerk_trace_id: res.headers['x-request-id'] });
      }
      assert.equal(await h.count('organizations'), before);
    });
  }

  it('the right key passes (the control for the refusals above)', async () => {
    const res = await h.bapi(`/v1/users/${victim.userId}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().id, victim.userId);
    assert.equal((await other.bapi('/v1/jwks')).statusCode, 200, 'each instance takes its own key');
    assert.equal((await other.bapi('/v1/jwks', h.identity.secretKey)).statusCode, 401);
  });
});
