import type { Server } from 'node:http';
import type { Page } from 'playwright-core';
import { createSatelliteApp } from '../../examples/satellite-express/src/app.ts';
import { backendClient } from './backend.ts';
import { freePort, type TestServer } from './server.ts';
import { UI_WAIT_MS } from './timeouts.ts';

// The example satellite (examples/satellite-express) as the end-to-end tests run it: in the test's
// process, on loopback under a `*.localhost` name (docs/satellites.md).

/** One instance of the example application, listening on loopback under a `*.localhost` name. */
export interface RunningSatellite {
  origin: string;
  port: number;
  close(): Promise<void>;
}

/** Starts the example on `host` with the keys of `server`'s instance (a satellite only once declared). */
export async function startSatellite(server: TestServer, host: string): Promise<RunningSatellite> {
  const identity = server.app.identity!;
  const product = { origin: server.origin, pk: identity.publishableKey, sk: identity.secretKey };
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

/**
 * Starts the example on `satellite.localhost` and declares it a satellite domain of `server`'s instance
 * through the Backend API, as an operator would, its Frontend API the example's own `/__clerk`.
 */
export async function startDeclaredSatellite(server: TestServer): Promise<RunningSatellite> {
  const satellite = await startSatellite(server, 'satellite.localhost');
  try {
    await backendClient(server).domains.add({
      name: `satellite.localhost:${satellite.port}`,
      is_satellite: true,
      proxy_url: `${satellite.origin}/__clerk`,
    });
  } catch (err) {
    await satellite.close();
    throw err;
  }
  return satellite;
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
