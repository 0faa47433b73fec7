import type { Server } from 'node:http';
import type { Page } from 'playwright-core';
import { createSatelliteApp } from '../../examples/satellite-express/src/app.ts';
import { freePort } from './server.ts';
import { UI_WAIT_MS } from './timeouts.ts';

// The example satellite (examples/satellite-express) as the end-to-end tests run it: in the test's
// process, on loopback under a `*.localhost` name (docs/satellites.md).

/** One instance of the example application, listening on loopback under a `*.localhost` name. */
export interface RunningSatellite {
  origin: string;
  port: number;
  close(): Promise<void>;
}

export async function startSatellite(
  host: string,
  product: { origin: string; pk: string; sk: string },
): Promise<RunningSatellite> {
  // The origin names the port, so it is picked before listening; another test file may take it in
  // between, and then another is picked (as startServer does).
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const origin = `http://${host}:${port}`;
    const app = createSatelliteApp({
      productUrl: product.origin,
      ownUrl: origin,
      publishableKey: product.pk,
      secretKey: product.sk,
    });
    try {
      const server = await new Promise<Server>((resolve, reject) => {
        const s = app.listen(port, '127.0.0.1', (err?: Error) => (err ? reject(err) : resolve(s)));
      });
      const close = () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        });
      return { origin, port, close };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 3) throw err;
    }
  }
}

/** What the satellite's server rendered: the user id and active organisation it saw, or signed out. */
export async function seenBySatellite(page: Page): Promise<{ userId: string; orgId: string } | null> {
  const shown = page.getByTestId('user-id').or(page.getByTestId('signed-out'));
  await shown.first().waitFor({ timeout: UI_WAIT_MS });
  if (await page.getByTestId('signed-out').isVisible()) return null;
  return {
    userId: (await page.getByTestId('user-id').textContent()) ?? '',
    orgId: (await page.getByTestId('organization').getAttribute('data-organization-id')) ?? '',
  };
}

/**
 * `@clerk/backend` hand-shakes every page load of a production satellite and, at the fourth within 2 s
 * (its `__clerk_redirect_count` cookie, `Max-Age=2`), answers signed out to stop a loop, as against hosted
 * Clerk. A person does not open pages that fast; a test on a quiet machine does (a redirect back, the
 * example page's reload, then this): wait for the guard's cookie to lapse first.
 */
async function afterHandshakeLoopGuard(page: Page, origin: string) {
  const deadline = Date.now() + 5_000;
  const counting = async () =>
    (await page.context().cookies(origin)).some((c) => c.name === '__clerk_redirect_count');
  while (Date.now() < deadline && (await counting())) await page.waitForTimeout(200);
}

/** Opens the satellite and waits until its server and its clerk-js agree on who is signed in. */
export async function openSatellite(page: Page, origin: string) {
  await afterHandshakeLoopGuard(page, origin);
  await page.goto(`${origin}/?lang=en`);
  await page.waitForFunction(
    () => {
      const clerk = (
        window as unknown as {
          Clerk?: {
            loaded: boolean;
            user: { id: string } | null;
            organization: { id: string } | null;
          };
        }
      ).Clerk;
      return (
        document.body?.dataset.clerkLoaded === 'true' &&
        !!clerk?.loaded &&
        (clerk.user?.id ?? '') === (document.body.dataset.userId ?? '') &&
        (clerk.organization?.id ?? '') === (document.body.dataset.orgId ?? '')
      );
    },
    null,
    { timeout: UI_WAIT_MS },
  );
  return seenBySatellite(page);
}
