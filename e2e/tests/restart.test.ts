import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, newContext } from '../support/browser.ts';
import { startServer, removeDataDir, type TestServer } from '../support/server.ts';
import { sessionToken, signUp, uniqueEmail, waitForPath } from '../support/flows.ts';
import { openDiagnostics } from '../support/diagnostics.ts';

describe('restart', () => {
  const servers: TestServer[] = [];
  after(async () => {
    for (const s of servers) await s.stop().catch(() => {});
    if (servers[0]) removeDataDir(servers[0].dataDir);
  });

  test(
    'after a server restart the user and their session are still valid',
    { timeout: 120_000 },
    async () => {
      const browser = await launchBrowser();
      try {
        const first = await startServer();
        servers.push(first);
        const context = await newContext(browser);
        const page = await context.newPage();
        const email = uniqueEmail('restart');
        await signUp(page, first.origin, email);
        await openDiagnostics(page);
        const userId = await page.getByTestId('api-me-user-id').textContent();
        await first.stop();

        const second = await startServer({ dataDir: first.dataDir, port: first.port });
        servers.push(second);
        await page.reload();
        await waitForPath(page, '/diagnostics');
        await page.getByTestId('api-me-status').waitFor();
        assert.equal(await page.getByTestId('api-me-user-id').textContent(), userId);
        await page.getByTestId('nav-dashboard').click();
        assert.equal(await page.getByTestId('user-email').textContent(), email);
        const res = await fetch(`${second.origin}/api/me`, {
          headers: { authorization: `Bearer ${await sessionToken(page)}` },
        });
        assert.equal(res.status, 200);
      } finally {
        await browser.close();
      }
    },
  );
});
