import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { useSuite } from '../support/suite.ts';
import { signInWithPassword, signUp, uniqueEmail, waitForPath } from '../support/flows.ts';

/** Every CSP violation the page reports (events, and Chromium's console lines, which workers use too). */
async function recordViolations(context: BrowserContext, page: Page): Promise<() => Promise<string[]>> {
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  const console: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Cannot create worker/i.test(m.text())) console.push(m.text());
  });
  return async () => [
    ...console,
    ...(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])),
  ];
}

describe('browser security headers with the real Clerk UI', () => {
  const suite = useSuite();
  const email = uniqueEmail('headers');

  test('sign-up, sign-in and the signed-in dashboard run with no CSP violation', async () => {
    const { context, page } = await suite.newPage();
    const violations = await recordViolations(context, page);
    await signUp(page, suite.server.origin, email);
    assert.deepEqual(await violations(), [], 'sign-up and the dashboard');

    const other = await suite.newPage();
    const otherViolations = await recordViolations(other.context, other.page);
    await signInWithPassword(other.page, suite.server.origin, email);
    await waitForPath(other.page, '/dashboard');
    await other.page.getByTestId('dashboard').waitFor();
    // The user button opens clerk-js's popover (avatar image, emotion styles).
    await other.page.locator('.cl-userButtonTrigger').click();
    await other.page.getByRole('menuitem', { name: 'Sign out' }).waitFor();
    assert.deepEqual(await otherViolations(), [], 'sign-in');
    const first = await other.page.goto(suite.server.origin + '/');
    assert.match(first!.headers()['content-security-policy'] ?? '', /frame-ancestors 'none'/);
    // Not helmet's `same-origin`: the popup sign-in's popup keeps its opener (social-sign-in.test.ts).
    assert.equal(first!.headers()['cross-origin-opener-policy'], 'same-origin-allow-popups');
  });

  test('a page of another origin (another port on this host, so the same site) that frames the dashboard shows nothing of it', async () => {
    const { page } = await suite.newPage();
    await signInWithPassword(page, suite.server.origin, email);
    await waitForPath(page, '/dashboard');
    await page.getByTestId('dashboard').waitFor();

    const framer = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(
        `<!doctype html><iframe id="victim" src="${suite.server.origin}/dashboard" width="800" height="600"></iframe>`,
      );
    });
    await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = framer.address() as AddressInfo;
      // Same site as the product (ports do not count), so its cookies go along: only the headers refuse.
      await page.goto(`http://localhost:${port}/`);
      const frame = page.frames().find((f) => f !== page.mainFrame());
      assert.ok(frame, 'the iframe exists');
      // Long enough for the SPA to have booted and shown the dashboard, were it allowed to.
      await page.waitForTimeout(5_000);
      assert.equal(await frame.locator('[data-testid=dashboard]').count(), 0);
      assert.match(frame.url(), /^chrome-error:/, 'the browser refused to show our page in the frame');
    } finally {
      await new Promise((resolve) => framer.close(resolve));
    }
  });
});
