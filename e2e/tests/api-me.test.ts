import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT, generateKeyPair } from 'jose';
import { useSuite } from '../support/suite.ts';
import { sessionToken, signUp, uniqueEmail } from '../support/flows.ts';
import { mintSessionToken } from '../../identity/src/instance/session-token.ts';
import type { SessionRow } from '../../identity/src/store/rows.ts';

describe('product API: GET /api/me', () => {
  const suite = useSuite();
  const me = (authorization?: string) =>
    fetch(`${suite.server.origin}/api/me`, { headers: authorization ? { authorization } : {} });

  async function assertUnauthenticated(res: Response) {
    assert.equal(res.status, 401);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await res.json()) as { errors: { code: string; message: string }[] };
    assert.equal(body.errors[0]?.code, 'unauthenticated');
    assert.ok(body.errors[0]?.message);
  }

  test('returns the user and session ids of a verified session token', async () => {
    const { page } = await suite.newPage();
    const email = uniqueEmail('apime');
    await signUp(page, suite.server.origin, email);
    const token = await sessionToken(page);
    const res = await me(`Bearer ${token}`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as {
      userId: string;
      sessionId: string;
      user: { primaryEmailAddress: string };
    };
    assert.match(body.userId, /^user_/);
    assert.match(body.sessionId, /^sess_/);
    assert.equal(body.user.primaryEmailAddress, email);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
      sub: string;
      sid: string;
    };
    assert.equal(body.userId, claims.sub);
    assert.equal(body.sessionId, claims.sid);
  });

  test('401 without a token', async () => {
    await assertUnauthenticated(await me());
    await assertUnauthenticated(await me('Bearer '));
    await assertUnauthenticated(await me('Basic dXNlcjpwYXNz'));
  });

  test('401 with a malformed or foreign token', async () => {
    await assertUnauthenticated(await me('Bearer not-a-jwt'));
    const { privateKey } = await generateKeyPair('RS256');
    const now = Math.floor(Date.now() / 1000);
    const foreign = await new SignJWT({ sid: 'sess_x' })
      .setProtectedHeader({ alg: 'RS256', kid: suite.server.app.identity!.deps.signingKey.kid })
      .setSubject('user_x')
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(privateKey);
    await assertUnauthenticated(await me(`Bearer ${foreign}`));
  });

  test('401 with an expired token signed by the instance key', async () => {
    const deps = suite.server.app.identity!.deps;
    const past = new Date(Date.now() - 5 * 60_000);
    const session = {
      id: 'sess_expired',
      user_id: 'user_expired',
      status: 'active',
      actor: null,
      first_factor_verified_at: past,
    } as unknown as SessionRow;
    const expired = await mintSessionToken(deps.tokens, session, null, past);
    await assertUnauthenticated(await me(`Bearer ${expired}`));
  });
});
