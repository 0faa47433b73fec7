import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSuite } from '../support/suite.ts';
import { sessionToken, signUp, uniqueEmail } from '../support/flows.ts';
import { openDiagnostics } from '../support/diagnostics.ts';

// Clerk's tokens live 60 s; this server's 20 s (a test-only setting, honoured only with NODE_ENV=test),
// so the wait past it is 35 s and not 75 s. clerk-js refreshes ahead of the expiry it reads in the token,
// whatever the lifetime.
const TOKEN_LIFETIME_MS = 20_000;

describe('session token refresh', () => {
  const suite = useSuite({
    env: { IDENTITY_TEST_SESSION_TOKEN_TTL_SECONDS: String(TOKEN_LIFETIME_MS / 1000) },
  });

  test(
    'past the token lifetime the token refreshes unseen and the new one is accepted by /api/me',
    { timeout: 120_000 },
    async () => {
      const { page } = await suite.newPage();
      const tokenCalls: number[] = [];
      page.on('response', (r) => {
        if (/\/__clerk\/v1\/client\/sessions\/[^/]+\/tokens$/.test(new URL(r.url()).pathname))
          tokenCalls.push(r.status());
      });
      const email = uniqueEmail('refresh');
      await signUp(page, suite.server.origin, email);
      await openDiagnostics(page);
      const firstToken = await sessionToken(page);
      const me = (token: string) =>
        fetch(`${suite.server.origin}/api/me`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal((await me(firstToken)).status, 200);

      // Leave the tab open past the token's lifetime.
      await page.waitForTimeout(TOKEN_LIFETIME_MS + 15_000);

      assert.ok(tokenCalls.length >= 1, 'clerk-js asked for a fresh token');
      assert.ok(
        tokenCalls.every((s) => s === 200),
        `token calls: ${tokenCalls.join(',')}`,
      );
      // No visible effect: still on the diagnostics page, still signed in.
      assert.equal(new URL(page.url()).pathname, '/diagnostics');
      await page.getByTestId('diagnostics-page').waitFor();

      const expired = await me(firstToken);
      assert.equal(expired.status, 401, 'the first token has expired');
      const refreshed = await sessionToken(page);
      assert.notEqual(refreshed, firstToken);
      const ok = await me(refreshed);
      assert.equal(ok.status, 200);

      // The product's own call from the page uses the refreshed token too.
      const userId = ((await ok.json()) as { userId: string }).userId;
      await page.getByTestId('api-me-refresh').click();
      await page.getByTestId('api-me-status').waitFor();
      assert.equal(await page.getByTestId('api-me-user-id').textContent(), userId);
    },
  );
});
