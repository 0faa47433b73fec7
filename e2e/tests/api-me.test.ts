import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT, generateKeyPair } from 'jose';
import { useSuite } from '../support/suite.ts';
import { sessionToken, waitForPath } from '../support/flows.ts';
import { signedUpPage } from '../support/wire-session.ts';
import { openDiagnostics } from '../support/diagnostics.ts';
import { mintSessionToken } from '../../identity/src/instance/session-token.ts';
import { bareTokenInput } from '../../identity/test/support/token-input.ts';

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
    // Signed up with a first organisation over the wire: signing up is not what this test is about.
    const {
      page,
      user: { email },
    } = await signedUpPage(suite, 'apime');
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

  test('the diagnostics page, opened from the account menu, shows the ids the product API verified', async () => {
    const { page } = await signedUpPage(suite, 'diagnostics');
    // The dashboard is for users: the token check is not on it.
    assert.equal(await page.getByTestId('api-me-card').count(), 0);
    assert.equal(await page.getByTestId('coming-next').count(), 0);

    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/me');
    await openDiagnostics(page);
    const answer = (await (await answered).json()) as { userId: string; sessionId: string };
    const claims = JSON.parse(
      Buffer.from((await sessionToken(page)).split('.')[1]!, 'base64url').toString(),
    ) as { sub: string; sid: string };
    assert.equal(await page.getByTestId('api-me-status').textContent(), 'Verified by the product API');
    assert.equal(await page.getByTestId('api-me-user-id').textContent(), claims.sub);
    assert.equal(await page.getByTestId('api-me-session-id').textContent(), claims.sid);
    assert.deepEqual([answer.userId, answer.sessionId], [claims.sub, claims.sid]);

    // "Check again" asks the server again rather than showing the cached answer.
    const again = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/me');
    await page.getByTestId('api-me-refresh').click();
    assert.equal((await again).status(), 200);
    await page.getByTestId('api-me-status').waitFor();
  });

  test('the diagnostics page is not shown signed out', async () => {
    const { page } = await suite.newPage();
    let asked = false;
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/me') asked = true;
    });
    await page.goto(`${suite.server.origin}/diagnostics`);
    await waitForPath(page, '/sign-in');
    assert.equal(asked, false, 'no product API call without a session');
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
    const expired = await mintSessionToken(
      deps.tokens,
      bareTokenInput({ sessionId: 'sess_expired', userId: 'user_expired', azp: null, now: past }),
    );
    await assertUnauthenticated(await me(`Bearer ${expired}`));
  });
});
