import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Response } from 'playwright-core';
import { backendClient, createOrganizationFor, createUser, type TestUser } from '../support/backend.ts';
import {
  signInOnCard,
  signInUntilSettled,
  signOutFromUserButton,
  waitForClerkSession,
} from '../support/flows.ts';
import {
  openSatellite,
  seenBySatellite,
  startDeclaredSatellite,
  startSatellite,
  type RunningSatellite,
} from '../support/satellite.ts';
import { chooseInOrganizationSwitcher } from '../support/organizations.ts';
import { useSuite } from '../support/suite.ts';
import { UI_WAIT_MS } from '../support/timeouts.ts';

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
// unmodified) shares sign-in with the product as a satellite of the same instance, with either kind of
// keys. With development keys @clerk/backend sends each satellite page load to the product's /sign-in with
// `__clerk_redirect_url`, which the product's server answers with its dev-browser token
// (docs/satellites.md, "Production or development keys").
for (const keys of ['production', 'development'] as const) {
  describe(`a satellite application on another origin (examples/satellite-express, ${keys} keys)`, () => {
    const suite = useSuite({ env: { IDENTITY_KEYS: keys } });
    let satellite: RunningSatellite;
    let undeclared: RunningSatellite | undefined;
    let user: TestUser;
    let orgId: string;

    before(async () => {
      assert.match(
        suite.server.app.identity!.publishableKey,
        keys === 'production' ? /^pk_live_/ : /^pk_test_/,
      );
      satellite = await startDeclaredSatellite(suite.server);
      // The same application on an origin nobody declared: its name ends with the satellite's.
      if (keys === 'production') undeclared = await startSatellite(suite.server, 'evil-satellite.localhost');
      user = await createUser(suite.server, `satellite-${keys}`);
      orgId = (await createOrganizationFor(backendClient(suite.server), user, 'Satellite team')).id;
    });
    after(async () => {
      await satellite?.close();
      await undeclared?.close();
    });

    test('signed in on the product, the satellite’s server sees the same user and active organisation; signing out there signs out the product', async () => {
      const { page } = await suite.newPage();
      await signInUntilSettled(page, suite.server.origin, user.email);
      await page.getByTestId('dashboard-org-name').filter({ hasText: 'Satellite team' }).waitFor();
      const visited: string[] = [];
      page.on('request', (r) => {
        if (r.isNavigationRequest()) visited.push(r.url());
      });

      assert.deepEqual(await openSatellite(page, satellite.origin), { userId: user.id, orgId });
      await page.getByTestId('email').filter({ hasText: user.email }).waitFor();
      if (keys === 'production') {
        // Its own credential on its own origin, not the product's cookie.
        assert.ok(
          (await sessionCookies(page.context(), `${satellite.origin}/__clerk/v1/client`)).includes(
            '__client',
          ),
        );
      } else {
        // Through the product's server, which gave back its dev-browser token.
        assert.ok(
          visited.some((u) => u.startsWith(`${suite.server.origin}/sign-in?__clerk_redirect_url=`)),
          `through the product's sign-in: ${visited.join(' ')}`,
        );
        assert.ok((await sessionCookies(page.context(), satellite.origin)).includes('__clerk_db_jwt'));
      }

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

    // With development keys, two ways the browser comes to hold its dev-browser tokens: the satellite's
    // clerk-js makes one and hands it to the product's sign-in (one token, which the sign-in replaces), or
    // the product was opened on its own before (each origin its own signed-out token; the product's
    // redirect then brings back a token the satellite's cookie does not name, docs/satellites.md).
    const sequences =
      keys === 'development' ? ['satellite first', 'product opened before'] : ['satellite first'];
    for (const sequence of sequences) {
      test(`signed out on the satellite, its sign-in link leads to the product’s <SignIn/> and back, signed in there (${sequence})`, async () => {
        const { page } = await suite.newPage();
        assert.equal(await openSatellite(page, satellite.origin), null);
        if (sequence === 'product opened before') {
          await page.goto(`${suite.server.origin}/sign-in`);
          await page.locator('.cl-signIn-root').waitFor({ timeout: UI_WAIT_MS });
          assert.equal(await openSatellite(page, satellite.origin), null);
        }

        // clerk-js (a satellite) sends the browser to the product's sign-in with this page as redirect_url.
        await page.getByTestId('sign-in').click();
        await page.waitForURL((url) => url.origin === suite.server.origin && url.pathname === '/sign-in', {
          timeout: UI_WAIT_MS,
        });
        await signInOnCard(page, user.email);

        // Back on the satellite, whose server sees the user (through the handshake and the primary's client).
        await page.waitForURL((url) => url.origin === satellite.origin, { timeout: UI_WAIT_MS });
        await page.getByTestId('user-id').waitFor({ timeout: UI_WAIT_MS });
        // No organisation is active yet: the product makes one active when its dashboard first opens.
        assert.equal((await seenBySatellite(page))?.userId, user.id);
        assert.equal((await openSatellite(page, satellite.origin))?.userId, user.id);

        // The product is signed in too (the sign-in happened there), and the organisation it makes active is
        // the one the satellite's server then sees.
        await page.goto(`${suite.server.origin}/dashboard`);
        await page.getByTestId('dashboard-org-name').filter({ hasText: 'Satellite team' }).waitFor();
        assert.deepEqual(await openSatellite(page, satellite.origin), { userId: user.id, orgId });
      });
    }

    // The refused origins of the production flow's routes (sync, handshake, link).
    if (keys === 'production') {
      test('an origin that is not a satellite domain gets no session (exact origin, not a suffix)', async () => {
        const { page, context } = await suite.newPage();
        await signInUntilSettled(page, suite.server.origin, user.email);

        // The undeclared application's handshake is refused: the browser lands on the provider's error.
        const landed = await page.goto(`${undeclared!.origin}/?lang=en`);
        assert.equal(landed?.status(), 422);
        assert.match(landed?.url() ?? '', /\/__clerk\/v1\/client\/handshake\?/);
        assert.deepEqual(await sessionCookies(context, `${undeclared!.origin}/`), []);

        // On the declared satellite's own Frontend API and on the product's, opened by the signed-in browser: a redirect_url on a look-alike origin (same port, a name that ends with the satellite's),
        // another port, the parent host or a foreign host is refused before anything is issued.
        const lookAlikes = [
          `http://evil-satellite.localhost:${satellite.port}/`,
          `http://satellite.localhost:${undeclared!.port}/`,
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
            assert.equal(
              await errorOf(await page.goto(url)),
              '422 form_param_value_invalid redirect_url',
              url,
            );
          }
        }
        assert.deepEqual(
          await sessionCookies(context, `http://evil-satellite.localhost:${satellite.port}/`),
          [],
        );
      });
    }

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
      await chooseInOrganizationSwitcher(page, /Beta audits/);
      await page.getByTestId('dashboard-org-name').filter({ hasText: 'Beta audits' }).waitFor();

      assert.deepEqual(await openSatellite(page, satellite.origin), { userId: switcher.id, orgId: beta.id });
      await page.getByTestId('organization').filter({ hasText: 'Beta audits' }).waitFor();
    });
  });
}
