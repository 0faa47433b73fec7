import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { createClerkClient, verifyToken, type ClerkClient } from '@clerk/backend';
import { SignJWT, generateKeyPair } from 'jose';
import { forEachBackend } from './support/backends.ts';
import { signInWithPassword, signUp } from './support/flows.ts';
import {
  BAPI,
  FRONTEND_API_HOST,
  Harness,
  PUBLIC_URL,
  uniqueEmail,
  type Browser,
} from './support/harness.ts';

interface ApiError {
  status?: number;
  errors?: { code: string }[];
  reason?: string;
}

forEachBackend('Backend API through @clerk/backend 2.10.1', (backend) => {
  let h: Harness;
  let apiUrl: string;
  let clerk: ClerkClient;
  let email: string;
  let userId: string;
  before(async () => {
    h = await Harness.start(backend);
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    apiUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}${BAPI}`;
    clerk = createClerkClient({ apiUrl, secretKey: h.identity.secretKey });
    email = uniqueEmail('backend');
    ({ userId } = await signUp(h, h.browser(), email, { firstName: 'Ada', lastName: 'Lovelace' }));
  });
  after(() => h.close());

  /** A fresh token minted by the FAPI at the real time (the SDK checks against the wall clock). */
  async function freshToken(browser?: Browser): Promise<{ jwt: string; sessionId: string }> {
    h.clock.set(new Date());
    const b = browser ?? h.browser();
    const { sessionId } = await signInWithPassword(b, email);
    const res = await b.post(`/client/sessions/${sessionId}/tokens`, { organization_id: '' });
    assert.equal(res.status, 200);
    return { jwt: res.body.jwt, sessionId };
  }

  it('users.getUser returns the user with the primary email address', async () => {
    const user = await clerk.users.getUser(userId);
    assert.equal(user.id, userId);
    assert.equal(user.firstName, 'Ada');
    assert.equal(user.lastName, 'Lovelace');
    assert.equal(user.passwordEnabled, true);
    assert.equal(user.primaryEmailAddress?.emailAddress, email);
    assert.equal(user.emailAddresses.length, 1);
    assert.equal(user.emailAddresses[0]!.verification?.status, 'verified');
    assert.deepEqual(user.privateMetadata, {});
    assert.deepEqual(user.publicMetadata, {});
    assert.equal(typeof user.createdAt, 'number');
    assert.ok(user.createdAt > 1_600_000_000_000, 'milliseconds');
  });

  it('an unknown user is an error with status 404 resource_not_found', async () => {
    await assert.rejects(clerk.users.getUser('user_doesnotexist'), (err: ApiError) => {
      assert.equal(err.status, 404);
      assert.equal(err.errors?.[0]?.code, 'resource_not_found');
      return true;
    });
  });

  it('a wrong secret key is 401 clerk_key_invalid', async () => {
    const intruder = createClerkClient({ apiUrl, secretKey: 'sk_live_wrongwrongwrongwrongwrongwrongwrong' });
    await assert.rejects(intruder.users.getUser(userId), (err: ApiError) => {
      assert.equal(err.status, 401);
      assert.equal(err.errors?.[0]?.code, 'clerk_key_invalid');
      return true;
    });
    const bare = await h.bapi(`/v1/users/${userId}`, null);
    assert.equal(bare.statusCode, 401);
    assert.equal(bare.json().errors[0].code, 'clerk_key_invalid');
  });

  it('every Backend API answer has Content-Type exactly application/json', async () => {
    const key = h.identity.secretKey;
    for (const [path, auth, status] of [
      ['/v1/jwks', key, 200],
      [`/v1/users/${userId}`, key, 200],
      ['/v1/users/user_nope', key, 404],
      ['/v1/nothing/here', key, 404],
      ['/v1/jwks', 'sk_live_wrong', 401],
    ] as const) {
      const res = await fetch(`${apiUrl}${path}`, { headers: { authorization: `Bearer ${auth}` } });
      assert.equal(res.status, status, path);
      assert.equal(res.headers.get('content-type'), 'application/json', path);
      await res.json();
    }
  });

  it('jwks.getJwks returns the signing key', async () => {
    const jwks = await clerk.jwks.getJwks();
    assert.equal(jwks.keys?.length, 1);
    assert.match(String(jwks.keys?.[0]?.kid), /^ins_/);
  });

  it('verifyToken accepts a fresh session token', async () => {
    const { jwt, sessionId } = await freshToken();
    const payload = await verifyToken(jwt, {
      secretKey: h.identity.secretKey,
      apiUrl,
      authorizedParties: [PUBLIC_URL],
    });
    assert.equal(payload.sub, userId);
    assert.equal(payload.sid, sessionId);
    assert.equal(payload.iss, `https://${FRONTEND_API_HOST}`);
  });

  it('verifyToken rejects a token for another authorised party', async () => {
    const { jwt } = await freshToken();
    await assert.rejects(
      verifyToken(jwt, {
        secretKey: h.identity.secretKey,
        apiUrl,
        authorizedParties: ['https://elsewhere.example'],
      }),
      {
        reason: 'token-invalid-authorized-parties',
      },
    );
  });

  it('verifyToken rejects an expired token', async () => {
    const browser = h.browser();
    h.clock.set(new Date());
    const { sessionId } = await signInWithPassword(browser, email);
    h.clock.set(new Date(Date.now() - 2 * 60 * 1000));
    const res = await browser.post(`/client/sessions/${sessionId}/tokens`, { organization_id: '' });
    h.clock.set(new Date());
    assert.equal(res.status, 200);
    await assert.rejects(verifyToken(res.body.jwt, { secretKey: h.identity.secretKey, apiUrl }), {
      reason: 'token-expired',
    });
  });

  it('verifyToken rejects a tampered token', async () => {
    const { jwt } = await freshToken();
    const [head, body, sig] = jwt.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'user_attacker' })).toString('base64url');
    await assert.rejects(
      verifyToken(`${head}.${forged}.${sig}`, { secretKey: h.identity.secretKey, apiUrl }),
      {
        reason: 'token-invalid-signature',
      },
    );
  });

  it('verifyToken rejects a token signed by a key this instance does not publish', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const now = Math.floor(Date.now() / 1000);
    const foreign = await new SignJWT({ sid: 'sess_x', v: 2, sts: 'active' })
      .setProtectedHeader({ alg: 'RS256', kid: 'ins_foreign', typ: 'JWT' })
      .setSubject(userId)
      .setIssuer(`https://${FRONTEND_API_HOST}`)
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(privateKey);
    await assert.rejects(verifyToken(foreign, { secretKey: h.identity.secretKey, apiUrl }), {
      reason: 'jwk-kid-mismatch',
    });
  });
});
