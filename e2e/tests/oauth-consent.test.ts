import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import * as oidc from 'openid-client';
import type { Page } from 'playwright-core';
import { backends, type Store } from '../../identity/test/support/backends.ts';
import { insecure, pkceAuthorizationUrl } from '../../identity/test/support/oauth-registration.ts';
import { backendClient, createUser } from '../support/backend.ts';
import { signInOnCard } from '../support/flows.ts';
import { freePort } from '../support/server.ts';
import { signedUpPage } from '../support/wire-session.ts';
import { useSuite } from '../support/suite.ts';
import { UI_WAIT_MS } from '../support/timeouts.ts';

/** A logo the registering application names (the consent page's CSP allows any https image). */
const LOGO = 'https://tools.example.com/logo.png';

/**
 * The instance as an OAuth provider through the product's consent page (docs/oauth-provider.md): a relying
 * party (openid-client) sends a signed-in browser to authorize; the product's /oauth/consent shows
 * clerk-js's consent screen; Allow comes back to the application with a code that buys an access token the
 * product API takes; Deny comes back with `access_denied`; a consent given is not asked again. In English
 * and in French (the page's own words, and clerk-js's English buttons and sentences relabelled). On PGlite,
 * and on PostgreSQL too when TEST_DATABASE_URL is set (issue #30 asks both of these tests): the server then
 * keeps its data in a database of its own on that server.
 */
for (const backend of backends) {
  describe(`OAuth consent page [${backend.name}]`, () => {
    const env: Record<string, string> = {};
    let store: Store | undefined;
    if (backend.name === 'postgres') {
      before(async () => {
        store = await backend.createStore();
        if (!('url' in store.options)) throw new Error('a PostgreSQL store has a URL');
        env.DATABASE_URL = store.options.url;
      });
    }
    const suite = useSuite({ env });
    // After useSuite's own `after`, which stops the server: the database is dropped once nothing holds it.
    after(() => store?.dispose());
    /** The application's redirect URI: a real listener that records where the browser came back to. */
    let REDIRECT = '';
    let application: Server;
    const arrivals: URL[] = [];
    before(async () => {
      const port = await freePort();
      REDIRECT = `http://127.0.0.1:${port}/callback`;
      application = createServer((req, res) => {
        // Only the redirect URI counts: the browser also asks this origin for /favicon.ico, sometimes after
        // the next flow has begun (it was then taken for that flow's callback).
        const url = new URL(req.url ?? '/', REDIRECT);
        if (url.pathname === new URL(REDIRECT).pathname) arrivals.push(url);
        res.writeHead(200, { 'content-type': 'text/plain' }).end('back at the application');
      });
      await new Promise<void>((resolve) => application.listen(port, '127.0.0.1', resolve));
    });
    after(() => new Promise<void>((resolve) => application.close(() => resolve())));

    async function relyingParty(scopes: string) {
      const clerk = backendClient(suite.server);
      const app = await clerk.oauthApplications.create({
        name: 'Partner portal',
        redirectUris: [REDIRECT],
        scopes,
        public: true,
      });
      const config = await oidc.discovery(
        new URL(`${suite.server.origin}/__clerk`),
        app.clientId,
        undefined,
        oidc.None(),
        insecure,
      );
      return { app, config };
    }

    /** The browser goes to authorize; the answer at the application's redirect URI is caught, not loaded. */
    /** The consent page's own sentence above Clerk's component (the application's name, in its language). */
    const expectIntro = async (page: Page, said: RegExp) => {
      const intro = page.getByTestId('oauth-consent-intro');
      await intro.waitFor({ timeout: UI_WAIT_MS });
      assert.match(await intro.innerText(), said);
    };

    type Flow = Awaited<ReturnType<typeof authorize>>;
    async function authorize(page: Page, config: oidc.Configuration, scope: string) {
      const { url, verifier, state } = await pkceAuthorizationUrl(config, scope, REDIRECT);
      const before = arrivals.length;
      await page.goto(url.href);
      return { verifier, state, callback: () => arrivals[before] ?? null };
    }

    const waitForCallback = async (page: Page, callback: () => URL | null) => {
      await page.waitForURL((u) => u.href.startsWith(REDIRECT), { timeout: UI_WAIT_MS });
      const url = callback();
      assert.ok(url, 'the browser came back to the application');
      return url;
    };

    /** The code the browser brought back, exchanged for tokens with the flow's verifier and state. */
    const exchange = async (page: Page, config: oidc.Configuration, flow: Flow) =>
      oidc.authorizationCodeGrant(config, await waitForCallback(page, flow.callback), {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
      });

    test('Allow: the application gets a token the product API takes; the consent is remembered', async () => {
      const { config } = await relyingParty('openid profile email');
      const { page, user } = await signedUpPage(suite, 'oauth-allow');
      const flow = await authorize(page, config, 'openid profile email');
      await page.waitForURL((u) => u.pathname === '/oauth/consent', { timeout: UI_WAIT_MS });
      await expectIntro(page, /Partner portal asks to sign you in/);
      const consent = page.getByTestId('oauth-consent-component');
      await consent.getByText('View your email address').waitFor({ timeout: UI_WAIT_MS });
      // The consent page cannot be framed (clickjacking).
      const headers = (await fetch(`${suite.server.origin}/oauth/consent?interaction=x`)).headers;
      assert.match(headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
      assert.equal(headers.get('x-frame-options'), 'DENY');
      await consent.getByRole('button', { name: 'Allow' }).click();
      const tokens = await exchange(page, config, flow);
      assert.equal(tokens.claims()!.sub, user.id);
      const res = await fetch(`${suite.server.origin}/api/authorized-user`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      assert.equal(res.status, 200);
      assert.equal(((await res.json()) as { userId: string }).userId, user.id);

      // Asked again: the consent is remembered, the page goes straight back.
      const again = await authorize(page, config, 'openid profile email');
      const back = await waitForCallback(page, again.callback);
      assert.ok(back.searchParams.get('code'));
    });

    test('signed out: <SignIn/> first, then back to the consent screen of the same request', async () => {
      const { config } = await relyingParty('openid email');
      const user = await createUser(suite.server, 'oauth-signed-out');
      const { page } = await suite.newPage();
      const flow = await authorize(page, config, 'openid email');
      await page.waitForURL((u) => u.pathname === '/sign-in', { timeout: UI_WAIT_MS });
      await signInOnCard(page, user.email);
      await page.waitForURL((u) => u.pathname === '/oauth/consent', { timeout: UI_WAIT_MS });
      const consent = page.getByTestId('oauth-consent-component');
      await consent.getByRole('button', { name: 'Allow' }).click();
      const tokens = await exchange(page, config, flow);
      assert.equal(tokens.claims()!.sub, user.id);
    });

    test('Deny, in French: the application gets access_denied', async () => {
      const { config } = await relyingParty('openid email');
      const { page } = await signedUpPage(suite, 'oauth-deny', { language: 'FR' });
      const flow = await authorize(page, config, 'openid email');
      await expectIntro(page, /Partner portal demande à vous connecter/);
      const consent = page.getByTestId('oauth-consent-component');
      await consent.getByText('Voir votre adresse e-mail').waitFor({ timeout: UI_WAIT_MS });
      // clerk-js 5.90.0 writes the screen's buttons and sentences in English whatever the localization;
      // the product's relabelling gives them French (web/src/app/clerk-words/hardcoded-fr.ts).
      await consent.getByRole('button', { name: 'Autoriser' }).waitFor({ timeout: UI_WAIT_MS });
      const text = await consent.innerText();
      assert.match(text, /souhaite accéder à .+ en votre nom/);
      assert.match(text, /Cela permettra à Partner portal d'accéder à :/);
      assert.match(text, /Si vous autorisez l'accès, cette application vous redirigera vers/);
      const english =
        /\b(Allow|Deny|wants to access|on behalf of|This will allow|Make sure|If you allow|Redirect URL|sharing)\b/;
      assert.doesNotMatch(text, english);
      assert.equal(await consent.getByLabel('View full URL').count(), 0);
      await consent.getByRole('button', { name: 'Refuser' }).click();
      const callback = await waitForCallback(page, flow.callback);
      assert.equal(callback.searchParams.get('error'), 'access_denied');
      assert.equal(callback.searchParams.get('state'), flow.state);
    });

    /** Allow in the consent screen (button named in the interface's language), then the code for tokens. */
    async function allowAndExchange(page: Page, config: oidc.Configuration, scope: string, allow: string) {
      const flow = await authorize(page, config, scope);
      await page
        .getByTestId('oauth-consent-component')
        .getByRole('button', { name: allow })
        .click({ timeout: UI_WAIT_MS });
      return exchange(page, config, flow);
    }

    const userinfoStatus = async (token: string) =>
      (
        await fetch(`${suite.server.origin}/__clerk/oauth/userinfo`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).status;
    const productApiStatus = async (token: string) =>
      (
        await fetch(`${suite.server.origin}/api/authorized-user`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).status;

    test('a confidential client: ID token against the JWKS, userinfo, refresh rotation, introspection, revocation', async () => {
      const clerk = backendClient(suite.server);
      const app = await clerk.oauthApplications.create({
        name: 'Partner portal',
        redirectUris: [REDIRECT],
        scopes: 'openid profile email offline_access',
        public: false,
      });
      const issuer = `${suite.server.origin}/__clerk`;
      const config = await oidc.discovery(
        new URL(issuer),
        app.clientId,
        undefined,
        oidc.ClientSecretBasic(app.clientSecret!),
        insecure,
      );
      // The ID token's signature is checked against the JWKS the discovery document names.
      oidc.enableNonRepudiationChecks(config);
      const { page, user } = await signedUpPage(suite, 'oauth-confidential');
      const tokens = await allowAndExchange(page, config, 'openid profile email offline_access', 'Allow');
      const claims = tokens.claims()!;
      assert.deepEqual([claims.iss, claims.aud, claims.sub], [issuer, app.clientId, user.id]);
      assert.equal((await oidc.fetchUserInfo(config, tokens.access_token, user.id)).email, user.email);
      assert.equal(await productApiStatus(tokens.access_token), 200);

      // Refresh rotates: a new refresh token, and the old one is refused.
      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
      assert.ok(refreshed.refresh_token && refreshed.refresh_token !== tokens.refresh_token);
      assert.equal(await productApiStatus(refreshed.access_token), 200);
      const introspected = await oidc.tokenIntrospection(config, refreshed.access_token);
      assert.deepEqual(
        [introspected.active, introspected.client_id, introspected.sub],
        [true, app.clientId, user.id],
      );

      // Revoked: the product API, user info and introspection refuse it at once.
      await oidc.tokenRevocation(config, refreshed.access_token);
      assert.equal(await productApiStatus(refreshed.access_token), 401);
      assert.equal(await userinfoStatus(refreshed.access_token), 401);
      assert.equal((await oidc.tokenIntrospection(config, refreshed.access_token)).active, false);
    });

    test('a public client registered by itself (RFC 7591), in French: PKCE, consent, refresh, the product API', async () => {
      const identity = suite.server.app.identity!;
      const before = identity.settings.settings;
      await identity.settings.set({
        ...before,
        oauthProvider: { ...before.oauthProvider, dynamicClientRegistration: true },
      });
      try {
        const config = await oidc.dynamicClientRegistration(
          new URL(`${suite.server.origin}/__clerk`),
          {
            client_name: 'Outils MCP',
            redirect_uris: [REDIRECT],
            token_endpoint_auth_method: 'none',
            grant_types: ['authorization_code', 'refresh_token'],
            scope: 'openid profile email',
            logo_uri: LOGO,
          },
          oidc.None(),
          insecure,
        );
        oidc.enableNonRepudiationChecks(config);
        const { page, user } = await signedUpPage(suite, 'oauth-registered', { language: 'FR' });
        const flow = await authorize(page, config, 'openid profile email');
        await expectIntro(page, /Outils MCP demande à vous connecter/);
        // The consent screen shows the logo the application registered.
        const consent = page.getByTestId('oauth-consent-component');
        await consent.getByRole('button', { name: 'Autoriser' }).waitFor({ timeout: UI_WAIT_MS });
        assert.equal(await consent.locator(`img[src="${LOGO}"]`).count(), 1);
        await consent.getByRole('button', { name: 'Autoriser' }).click();
        const tokens = await exchange(page, config, flow);
        assert.equal(tokens.claims()!.sub, user.id);
        const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
        assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
        assert.equal(await productApiStatus(refreshed.access_token), 200);
      } finally {
        await identity.settings.set(before);
      }
    });

    test('authorised applications, in French: listed, withdrawn after confirming, the token refused', async () => {
      const { config } = await relyingParty('openid profile email');
      const { page } = await signedUpPage(suite, 'oauth-withdraw', { language: 'FR' });
      const tokens = await allowAndExchange(page, config, 'openid profile email', 'Autoriser');
      assert.equal(await userinfoStatus(tokens.access_token), 200);
      assert.equal(await productApiStatus(tokens.access_token), 200);

      await page.goto(`${suite.server.origin}/dashboard`);
      await page.locator('.cl-userButtonTrigger').click({ timeout: UI_WAIT_MS });
      await page.getByRole('menuitem', { name: 'Applications autorisées' }).click();
      const list = page.getByTestId('authorized-applications-list');
      await list.waitFor({ timeout: UI_WAIT_MS });
      assert.equal(await page.locator('h1').count(), 1);
      assert.equal(await page.locator('h1').innerText(), 'Applications autorisées');
      const item = list.getByTestId('authorized-application');
      assert.equal(await item.count(), 1);
      assert.equal(await item.getByTestId('authorized-application-name').innerText(), 'Partner portal');
      // The date as French writes it ("6 déc. 2026"), the scopes in French.
      const today = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'medium' }).format(new Date());
      assert.equal(await item.getByTestId('authorized-application-date').innerText(), `Autorisée : ${today}`);
      const scopes = await item.getByTestId('authorized-application-scopes').innerText();
      assert.match(scopes, /Voir votre adresse e-mail/);
      const english =
        /\b(Allow|Withdraw|Authori[sz]ed|allowed|Confirm your|View your|email address|Cancel)\b/;
      assert.doesNotMatch(await page.getByTestId('authorized-applications-page').innerText(), english);

      // Withdraw asks first; Cancel leaves it be.
      await item.getByRole('button', { name: 'Retirer l’accès de Partner portal' }).click();
      await item.getByRole('button', { name: 'Annuler' }).click();
      assert.equal(await productApiStatus(tokens.access_token), 200);
      await item.getByRole('button', { name: 'Retirer l’accès de Partner portal' }).click();
      const confirm = item.getByRole('group', { name: /Retirer l’accès de Partner portal \?/ });
      assert.doesNotMatch(await confirm.innerText(), english);
      await confirm.getByRole('button', { name: 'Oui, retirer' }).click();
      await page.getByTestId('authorized-applications-empty').waitFor({ timeout: UI_WAIT_MS });
      assert.equal(
        await page.getByTestId('authorized-applications-empty').innerText(),
        'Vous n’avez autorisé aucune application.',
      );

      // The application's tokens stop at once: user info, the product API, and the refresh-free re-read.
      assert.equal(await userinfoStatus(tokens.access_token), 401);
      assert.equal(await productApiStatus(tokens.access_token), 401);
      await page.reload();
      await page.getByTestId('authorized-applications-empty').waitFor({ timeout: UI_WAIT_MS });
      // Its next authorization asks again.
      const again = await authorize(page, config, 'openid profile email');
      await page.getByTestId('oauth-consent-component').getByRole('button', { name: 'Autoriser' }).waitFor({
        timeout: UI_WAIT_MS,
      });
      assert.equal(again.callback(), null);
    });

    test('authorised applications, in English: reached from the account menu, the date as English writes it', async () => {
      const { config } = await relyingParty('openid email');
      const { page } = await signedUpPage(suite, 'oauth-list-en');
      await allowAndExchange(page, config, 'openid email', 'Allow');
      await page.goto(`${suite.server.origin}/dashboard`);
      // From the account menu (Clerk's <UserButton/>), with the product's entry.
      await page.locator('.cl-userButtonTrigger').click({ timeout: UI_WAIT_MS });
      await page.getByRole('menuitem', { name: 'Authorised applications' }).click();
      await page.waitForURL((u) => u.pathname === '/authorized-applications', { timeout: UI_WAIT_MS });
      const item = page.getByTestId('authorized-application');
      await item.waitFor({ timeout: UI_WAIT_MS });
      assert.equal(await page.locator('h1').innerText(), 'Authorised applications');
      const today = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(new Date());
      assert.equal(await item.getByTestId('authorized-application-date').innerText(), `Allowed on ${today}`);
      assert.match(
        await item.getByTestId('authorized-application-scopes').innerText(),
        /View your email address/,
      );
      assert.doesNotMatch(
        await page.getByTestId('authorized-applications-page').innerText(),
        /Autoris|Retirer/,
      );
    });
  });
}
