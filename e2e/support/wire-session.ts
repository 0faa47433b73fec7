import type { BrowserContext, Page } from 'playwright-core';
import { cookieSuffixOf } from '../../identity/src/identity.ts';
import type { TestUser } from './backend.ts';
import { FapiClient, testModeEmail } from './fapi-client.ts';
import { PASSWORD } from './flows.ts';
import type { Suite } from './suite.ts';
import type { TestServer } from './server.ts';
import { UI_WAIT_MS } from './timeouts.ts';
import { assertOk, signInWithPassword, testModeSignUp, type WireSession } from './wire-flows.ts';

/**
 * A signed-in browser without driving the Clerk UI: what a test needs but is not about. The sign-up (or
 * sign-in) and the first organisation are made over the wire as clerk-js makes them, then the wire
 * client's credential is handed to a fresh browser profile, so its first page load is already signed in.
 * Signing up and in through the UI is what sign-up, sign-in and their neighbours prove; a first page
 * load with clerk-js costs ≈ 2.4 core-seconds and each Clerk step ≈ 0.7 (docs/testing.md).
 */

const DEV_BROWSER_COOKIE = '__clerk_db_jwt';

/**
 * A wire client as clerk-js starts one on this server: with development keys it first gets a dev-browser
 * token (`POST /v1/dev_browser`) and from then on sends it; with production keys the `__client` cookie
 * the provider sets identifies it.
 */
export async function wireBrowser(server: TestServer): Promise<FapiClient> {
  const browser = new FapiClient(server.origin);
  const publishableKey = server.app.identity!.publishableKey;
  if (publishableKey.startsWith('pk_test_')) {
    const res = await browser.post('/dev_browser');
    assertOk(res, 'create a dev browser');
    const names = [`${DEV_BROWSER_COOKIE}_${cookieSuffixOf(publishableKey)}`, DEV_BROWSER_COOKIE];
    browser.useDevBrowser(res.body.id as string, names);
  }
  return browser;
}

/**
 * `clerk.createOrganization({ name })` then `setActive({ organization })`, as <CreateOrganization/> does:
 * the user becomes its admin and it is the session's active organisation.
 */
export async function createActiveOrganization(browser: FapiClient, session: WireSession, name: string) {
  const created = await browser.post('/organizations', { name });
  assertOk(created, 'create the organisation');
  const organizationId = created.body.response.id as string;
  const touched = await browser.post(`/client/sessions/${session.sessionId}/touch`, {
    active_organization_id: organizationId,
  });
  assertOk(touched, 'make the organisation active');
  return organizationId;
}

/** Gives the profile the wire client's cookies, with the paths and HttpOnly flags the provider set. */
export async function handOver(context: BrowserContext, browser: FapiClient) {
  const { hostname, protocol } = new URL(browser.origin);
  const expires = Math.floor(Date.now() / 1000) + 365 * 24 * 3600;
  await context.addCookies(
    browser.cookies().map((c) => ({
      ...c,
      domain: hostname,
      sameSite: 'Lax' as const,
      secure: protocol === 'https:',
      expires,
    })),
  );
}

export interface WireUser {
  user: TestUser;
  session: WireSession;
  /** The organisation made and made active for a new user, or null. */
  organizationId: string | null;
  /** The wire client (what it changes, a page it was handed to sees: they are one client). */
  browser: FapiClient;
}

export interface WireSignedIn extends WireUser {
  context: BrowserContext;
  page: Page;
}

export interface OpenOptions {
  /** Where the page opens (/dashboard, where it settles as after a sign-in), or null to open nothing. */
  path?: string | null;
  language?: 'EN' | 'FR' | null;
  locale?: string;
  /** Runs on the new profile and page before the first load (permissions, routes, listeners). */
  beforeLoad?: (context: BrowserContext, page: Page) => Promise<unknown> | void;
}

/**
 * A NEW user signed up over the wire (a `+clerk_test` address, code 424242, nothing mailed) who has
 * created a first organisation and made it active; `organization: null` leaves them without one.
 */
export async function wireSignUp(
  server: TestServer,
  label: string,
  opts: { organization?: string | null; password?: string } = {},
): Promise<WireUser> {
  const browser = await wireBrowser(server);
  const email = testModeEmail(label);
  const session = await testModeSignUp(browser, email, opts.password ?? PASSWORD);
  const name = opts.organization === undefined ? `${label} team` : opts.organization;
  const organizationId = name === null ? null : await createActiveOrganization(browser, session, name);
  return { user: { id: session.userId, email }, session, organizationId, browser };
}

/** An existing user signed in over the wire (identifier then password, as <SignIn/> sends them). */
export async function wireSignIn(server: TestServer, user: TestUser, password = PASSWORD): Promise<WireUser> {
  const browser = await wireBrowser(server);
  const { session } = await signInWithPassword(browser, user.email, password);
  return { user, session, organizationId: null, browser };
}

/** {@link wireSignUp}, then a fresh profile holding its credential, opened (see {@link openSignedIn}). */
export async function signedUpPage(
  suite: Suite,
  label: string,
  opts: { organization?: string | null; password?: string } & OpenOptions = {},
): Promise<WireSignedIn> {
  const signedUp = await wireSignUp(suite.server, label, opts);
  return { ...signedUp, ...(await openSignedIn(suite, signedUp.browser, opts)) };
}

/** {@link wireSignIn}, then a fresh profile holding its credential, opened (see {@link openSignedIn}). */
export async function signedInPage(
  suite: Suite,
  user: TestUser,
  opts: { password?: string } & OpenOptions = {},
): Promise<WireSignedIn> {
  const signedIn = await wireSignIn(suite.server, user, opts.password);
  return { ...signedIn, ...(await openSignedIn(suite, signedIn.browser, opts)) };
}

/**
 * A fresh browser profile (as `suite.newPage`) holding the wire client's credential. On /dashboard (the
 * default) it waits until the app has settled as after a sign-in through the UI: on the dashboard with
 * an active organisation, or on /create-organization for a user without one.
 */
export async function openSignedIn(suite: Suite, browser: FapiClient, opts: OpenOptions = {}) {
  const { context, page } = await suite.newPage({ language: opts.language, locale: opts.locale });
  await handOver(context, browser);
  await opts.beforeLoad?.(context, page);
  const path = opts.path === undefined ? '/dashboard' : opts.path;
  if (path !== null) await page.goto(`${suite.server.origin}${path}`);
  if (path === '/dashboard') {
    try {
      await page
        .getByTestId('dashboard-org-name')
        .or(page.getByTestId('create-organization-page'))
        .first()
        .waitFor({ timeout: UI_WAIT_MS });
    } catch (error) {
      // Where it stopped instead, to find out why next time (it once did, under load, in CI).
      const where = await page
        .evaluate(() => `${location.pathname}${location.search}${location.hash}: ${document.body.innerText}`)
        .catch(() => 'the page did not answer');
      throw new Error(`the signed-in page did not settle: ${where.replace(/\s+/g, ' ').slice(0, 400)}`, {
        cause: error,
      });
    }
  }
  return { context, page };
}
