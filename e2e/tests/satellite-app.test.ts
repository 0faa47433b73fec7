import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Page, Response } from 'playwright-core';
import { createSatelliteApp } from '../../examples/satellite-express/src/app.ts';
import { backendClient, createOrganizationFor, createUser, type TestUser } from '../support/backend.ts';
import { signInUntilSettled, signOutFromUserButton, waitForClerkSession } from '../support/flows.ts';
import { freePort } from '../support/server.ts';
import { useSuite } from '../support/suite.ts';
import { UI_WAIT_MS } from '../support/timeouts.ts';

/** One instance of the example application, listening on loopback under a `*.localhost` name. */
interface RunningSatellite {
  origin: string;
  port: number;
  close(): Promise<void>;
}

async function startSatellite(
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
async function seenBySatellite(page: Page): Promise<{ userId: string; orgId: string } | null> {
  const shown = page.getByTestId('user-id').or(page.getByTestId('signed-out'));
  await shown.first().waitFor({ timeout: UI_WAIT_MS });
  if (await page.getByTestId('signed-out').isVisible()) return null;
  return {
    userId: (await page.getByTestId('user-id').textContent()) ?? '',
    orgId: (await page.getByTestId('organization').getAttribute('data-organization-id')) ?? '',
  };
}

/** Opens the satellite and waits until its server and its clerk-js agree on who is signed in. */
async function openSatellite(page: Page, origin: string) {
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

/** The Clerk credentials and session cookies a browser holds for `url` (not the SDK's redirect counter). */
async function sessionCookies(context: BrowserContext, url: string) {
  return (await context.cookies(url))
    .filter((c) => /^(__client|__session|__clerk_db_jwt)/.test(c.name) && c.value !== '0')
    .map((c) => c.name);
}

async function errorOf(res: Response | null) {
  if (!res) return 'no answer';
  const body = (await res.json()) as { errors?: { code: string; meta?: { param_name?: string } }[] };
  return `${res.status()} ${body.errors?.[0]?.code} ${body.errors?.[0]?.meta?.param_name}`;
}

// Issue #31: a second application on another origin (examples/satellite-express, @clerk/express 1.7.26
// unmodified) shares sign-in with the product as a satellite of the same instance (production keys).
describe('a satellite application on another origin (examples/satellite-express)', () => {
  const suite = useSuite({ env: { IDENTITY_KEYS: 'production' } });
  let satellite: RunningSatellite;
  let undeclared: RunningSatellite;
  let user: TestUser;
  let orgId: string;

  before(async () => {
    const identity = suite.server.app.identity!;
    const product = { origin: suite.server.origin, pk: identity.publishableKey, sk: identity.secretKey };
    satellite = await startSatellite('satellite.localhost', product);
    // The same application on an origin nobody declared: its name ends with the satellite's.
    undeclared = await startSatellite('evil-satellite.localhost', product);
    const clerk = backendClient(suite.server);
    await clerk.domains.add({
      name: `satellite.localhost:${satellite.port}`,
      is_satellite: true,
      proxy_url: `${satellite.origin}/__clerk`,
    });
    user = await createUser(suite.server, 'satellite');
    orgId = (await createOrganizationFor(clerk, user, 'Satellite team')).id;
  });
  after(async () => {
    await satellite?.close();
    await undeclared?.close();
  });

  test('signed in on the product, the satellite’s server sees the same user and active organisation; signing out there signs out the product', async () => {
    const { page } = await suite.newPage();
    await signInUntilSettled(page, suite.server.origin, user.email);
    await page.getByTestId('dashboard-org-name').filter({ hasText: 'Satellite team' }).waitFor();

    assert.deepEqual(await openSatellite(page, satellite.origin), { userId: user.id, orgId });
    await page.getByTestId('email').filter({ hasText: user.email }).waitFor();
    // Its own credential on its own origin, not the product's cookie.
    assert.ok(
      (await sessionCookies(page.context(), `${satellite.origin}/__clerk/v1/client`)).includes('__client'),
    );

    await page.locator('#sign-out:enabled').click();
    await page.getByTestId('signed-out').waitFor({ timeout: UI_WAIT_MS });
    assert.equal(await openSatellite(page, satellite.origin), null);

    await page.goto(`${suite.server.origin}/dashboard`);
    await page.waitForURL((url) => url.pathname !== '/dashboard', { timeout: UI_WAIT_MS });
    const session = await page.evaluate(
      () => (window as unknown as { Clerk?: { session: unknown } }).Clerk?.session ?? null,
    );
    assert.equal(session, null);
  });

  test('signing out on the product signs out the satellite', async () => {
    const { page } = await suite.newPage();
    await signInUntilSettled(page, suite.server.origin, user.email);
    assert.deepEqual(await openSatellite(page, satellite.origin), { userId: user.id, orgId });

    await page.goto(`${suite.server.origin}/dashboard`);
    await waitForClerkSession(page);
    await signOutFromUserButton(page);
    await page.waitForURL((url) => url.pathname !== '/dashboard', { timeout: UI_WAIT_MS });

    // The satellite's session token may still be valid for a few seconds: its server may render the user
    // once more, then clerk-js (signed out) has the page looked at again, and the server sees no one.
    await page.goto(`${satellite.origin}/?lang=en`);
    await page.getByTestId('signed-out').waitFor({ timeout: UI_WAIT_MS });
    assert.equal(await openSatellite(page, satellite.origin), null);

    // The page's two languages: the browser's (en-US here) unless `?lang=` says otherwise.
    await page.goto(satellite.origin);
    await page.getByRole('heading', { name: 'Satellite application' }).waitFor();
    await page.goto(`${satellite.origin}/?lang=fr`);
    await page.getByRole('heading', { name: 'Application satellite' }).waitFor();
    await page.getByTestId('signed-out').filter({ hasText: 'Vous n’êtes pas connecté.' }).waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), 'fr');
  });

  test('an origin that is not a satellite domain gets no session (exact origin, not a suffix)', async () => {
    const { page, context } = await suite.newPage();
    await signInUntilSettled(page, suite.server.origin, user.email);

    // The undeclared application's handshake is refused: the browser lands on the provider's error.
    const landed = await page.goto(`${undeclared.origin}/?lang=en`);
    assert.equal(landed?.status(), 422);
    assert.match(landed?.url() ?? '', /\/__clerk\/v1\/client\/handshake\?/);
    assert.deepEqual(await sessionCookies(context, `${undeclared.origin}/`), []);

    // On the declared satellite's own Frontend API and on the product's, opened by the signed-in browser: a redirect_url on a look-alike origin (same port, a name that ends with the satellite's),
    // another port, the parent host or a foreign host is refused before anything is issued.
    const lookAlikes = [
      `http://evil-satellite.localhost:${satellite.port}/`,
      `http://satellite.localhost:${undeclared.port}/`,
      `http://localhost:${satellite.port}/`,
      `http://satellite.localhost.evil.example:${satellite.port}/`,
      'https://evil.example/',
      `http://user@satellite.localhost:${satellite.port}/`,
    ];
    const refusals = [
      `${satellite.origin}/__clerk/v1/client/sync?`,
      `${satellite.origin}/__clerk/v1/client/handshake?format=nonce&`,
      `${satellite.origin}/__clerk/v1/client/link?token=${'x'.repeat(43)}&`,
      `${suite.server.origin}/__clerk/v1/client/sync?__clerk_sync_primary=true&`,
      `${suite.server.origin}/__clerk/v1/client/handshake?format=nonce&__clerk_sync_primary=true&`,
    ];
    for (const redirectUrl of lookAlikes) {
      for (const route of refusals) {
        const url = `${route}${new URLSearchParams({ redirect_url: redirectUrl })}`;
        assert.equal(await errorOf(await page.goto(url)), '422 form_param_value_invalid redirect_url', url);
      }
    }
    assert.deepEqual(await sessionCookies(context, `http://evil-satellite.localhost:${satellite.port}/`), []);
  });

  test('another organisation made active on the product is the one the satellite’s server sees', async () => {
    const clerk = backendClient(suite.server);
    const switcher = await createUser(suite.server, 'satellite-switch');
    const alpha = await createOrganizationFor(clerk, switcher, 'Alpha audits');
    const { page } = await suite.newPage();
    await signInUntilSettled(page, suite.server.origin, switcher.email);
    await page.getByTestId('dashboard-org-name').filter({ hasText: 'Alpha audits' }).waitFor();
    assert.deepEqual(await openSatellite(page, satellite.origin), { userId: switcher.id, orgId: alpha.id });

    const beta = await createOrganizationFor(clerk, switcher, 'Beta audits');
    await page.goto(`${suite.server.origin}/dashboard`);
    await page.getByTestId('dashboard-org-name').filter({ hasText: 'Alpha audits' }).waitFor();
    await page.locator('.cl-organizationSwitcherTrigger').click();
    await page
      .getByRole('menuitem', { name: /Beta audits/ })
      .or(page.getByRole('button', { name: /Beta audits/ }))
      .first()
      .click();
    await page.getByTestId('dashboard-org-name').filter({ hasText: 'Beta audits' }).waitFor();

    assert.deepEqual(await openSatellite(page, satellite.origin), { userId: switcher.id, orgId: beta.id });
    await page.getByTestId('organization').filter({ hasText: 'Beta audits' }).waitFor();
  });
});
