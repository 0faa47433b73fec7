import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { useSuite } from '../support/suite.ts';
import { FapiClient } from '../support/fapi-client.ts';
import { waitForClerkSession, waitForPath, PASSWORD } from '../support/flows.ts';
import { wireSignUp } from '../support/wire-session.ts';
import { UI_WAIT_MS } from '../support/timeouts.ts';

/**
 * What a request carrying only the planted credential finds: the client, or null when the credential was
 * replaced by a rotation (`401 authentication_invalid`, `dev_browser_unauthenticated` for a dev-browser
 * token) or finds nothing.
 */
async function clientWith(origin: string, credential: { cookie?: string; devBrowser?: string }) {
  const attacker = new FapiClient(origin);
  if (credential.cookie) attacker.jar.set('__client', credential.cookie);
  const res = await attacker.get(
    '/client',
    credential.devBrowser ? { __clerk_db_jwt: credential.devBrowser } : {},
  );
  if (res.status === 401) {
    const code = credential.devBrowser ? 'dev_browser_unauthenticated' : 'authentication_invalid';
    assert.equal(res.body.errors[0].code, code);
    return null;
  }
  assert.equal(res.status, 200);
  return res.body.response as { sessions: unknown[] } | null;
}

/** The factor-one password step of <SignIn/>, on a page already showing it. */
async function signInOnPage(page: Page, email: string) {
  await page.locator('input[name=identifier]').fill(email);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.locator('input[name=password]').fill(PASSWORD);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await waitForPath(page, '/dashboard');
  await waitForClerkSession(page);
}

// Issue #11: a client credential planted before the victim signs in must not hold the victim's session.
describe('session fixation with production keys: a planted __client cookie', () => {
  const suite = useSuite({ env: { IDENTITY_KEYS: 'production' } });
  let email: string;

  before(async () => {
    // The victim's account, signed up over the wire: what is under test is the sign-in that follows.
    email = (await wireSignUp(suite.server, 'fixation')).user.email;
  });

  test("the victim signs in through <SignIn/>; the attacker's copy of the cookie finds no session", async () => {
    const origin = suite.server.origin;
    const attacker = new FapiClient(origin);
    const created = await attacker.raw('POST', '/__clerk/v1/client?_method=PUT');
    assert.equal(created.status, 200);
    const planted = attacker.jar.get('__client')!;
    assert.ok(planted);

    const { page, context } = await suite.newPage();
    await context.addCookies([
      {
        name: '__client',
        value: planted,
        domain: 'localhost',
        path: '/__clerk',
        httpOnly: true,
        sameSite: 'Lax',
      },
    ]);
    await page.goto(`${origin}/sign-in`);
    await signInOnPage(page, email);

    const held = (await context.cookies(`${origin}/__clerk/v1/client`)).find(
      (c) => c.name === '__client',
    )?.value;
    assert.ok(held);
    assert.notEqual(held, planted, 'the browser was given a new cookie');
    assert.equal(await clientWith(origin, { cookie: planted }), null);
    assert.equal((await clientWith(origin, { cookie: held }))?.sessions.length, 1);
  });
});

describe('session fixation with development keys: a __clerk_db_jwt in a link', () => {
  const suite = useSuite({ env: { IDENTITY_KEYS: 'development' } });
  let email: string;

  before(async () => {
    // The victim's account, signed up over the wire: what is under test is the sign-in that follows.
    email = (await wireSignUp(suite.server, 'fixation-dev')).user.email;
  });

  const attackerToken = async (origin: string): Promise<string> => {
    const res = await new FapiClient(origin).post('/dev_browser');
    assert.equal(res.status, 200);
    return res.body.id as string;
  };
  const devBrowserCookie = async (page: Page, origin: string) =>
    (await page.context().cookies(origin)).find((c) => c.name === '__clerk_db_jwt')?.value;

  test("a fresh browser opening /sign-in?__clerk_db_jwt=<attacker's> and signing in: the attacker's token holds no session", async () => {
    const origin = suite.server.origin;
    const planted = await attackerToken(origin);
    const { page } = await suite.newPage();
    await page.goto(`${origin}/sign-in?__clerk_db_jwt=${planted}`);
    await signInOnPage(page, email);

    const held = await devBrowserCookie(page, origin);
    assert.ok(held);
    assert.notEqual(held, planted, 'clerk-js took the new token the sign-in answered');
    assert.equal(await clientWith(origin, { devBrowser: planted }), null);
    assert.equal((await clientWith(origin, { devBrowser: held }))?.sessions.length, 1);
    // And the browser goes on with its new token: reloading keeps it signed in.
    await page.reload();
    await waitForClerkSession(page);
  });

  test('a browser that already has a token keeps it when a link carries another', async () => {
    const origin = suite.server.origin;
    const { page } = await suite.newPage();
    await page.goto(`${origin}/sign-in`);
    await page.waitForFunction(() => document.cookie.includes('__clerk_db_jwt='), null, {
      timeout: UI_WAIT_MS,
    });
    const own = await devBrowserCookie(page, origin);
    assert.ok(own);

    const planted = await attackerToken(origin);
    await page.goto(`${origin}/sign-in?__clerk_db_jwt=${planted}`);
    await page.locator('input[name=identifier]').waitFor({ timeout: UI_WAIT_MS });
    assert.equal(new URL(page.url()).searchParams.has('__clerk_db_jwt'), false);
    assert.equal(await devBrowserCookie(page, origin), own);
    await signInOnPage(page, email);
    assert.equal((await clientWith(origin, { devBrowser: planted }))?.sessions.length, 0);
  });
});
