import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { cookieSuffixOf } from '../src/identity.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { FAPI, Harness, uniqueEmail, type Browser } from './support/harness.ts';

/**
 * Development keys: which dev-browser token a handshake speaks for when the browser brings two, its own
 * `__clerk_db_jwt` cookie on the satellite's origin and the one `@clerk/backend` copied from the page URL,
 * and what it hands back (docs/satellites.md, "Development keys"). The case behind it: a sign-in started
 * on a satellite, done on the product, whose page comes back to the satellite with the product's
 * signed-in token and `__clerk_synced=true` while the satellite's clerk-js holds a signed-out token of its
 * own (e2e/tests/satellite-app.test.ts).
 */
forEachBackend('Handshake with development keys: the cookie’s token or the URL’s', (backend) => {
  let h: Harness;
  let suffix: string;
  const ada = uniqueEmail('hs-ada');
  const bob = uniqueEmail('hs-bob');
  const userIds = new Map<string, string>();
  const userIdOf = (email: string) => userIds.get(email);

  before(async () => {
    h = await Harness.start(backend, { config: { instanceKeys: 'development' } });
    suffix = cookieSuffixOf(h.identity.publishableKey);
    userIds.set(ada, (await signUp(h, h.browser(), ada)).userId);
    userIds.set(bob, (await signUp(h, h.browser(), bob)).userId);
  });
  after(() => h.close());
  beforeEach(() => h.clock.advance(61));

  /** A fresh, signed-out dev-browser token, as clerk-js gets one (`POST /dev_browser`). */
  const signedOutToken = async (): Promise<string> => (await h.browser().post('/dev_browser')).body.id;

  /** Signs in with `token` as clerk-js does; the sign-in replaces it: the new one, and the one it replaced. */
  async function signedInToken(email: string): Promise<{ token: string; replaced: string }> {
    const browser = h.browser();
    const replaced = await signedOutToken();
    const dev = { __clerk_db_jwt: replaced };
    const created = await browser.post('/client/sign_ins', { identifier: email }, dev);
    const res = await browser.post(
      `/client/sign_ins/${created.body.response.id}/attempt_first_factor`,
      { strategy: 'password', password: PASSWORD },
      dev,
    );
    assert.equal(res.body.response.status, 'complete', JSON.stringify(res.body));
    const token = res.headers['clerk-db-jwt'] as string;
    assert.ok(token && token !== replaced);
    return { token, replaced };
  }

  /**
   * The navigation `@clerk/backend` sends (reason `dev-browser-sync`): the page's URL token as
   * `__clerk_db_jwt`, the browser's own cookie (if any) with it. What the page gets back: the user its
   * session token names (null when signed out) and the dev-browser cookies it is given.
   */
  async function handshake(opts: { cookie?: string; url: string; synced: boolean }) {
    const browser: Browser = h.browser({ origin: null });
    if (opts.cookie) {
      browser.jar.set(`__clerk_db_jwt_${suffix}`, opts.cookie);
      browser.jar.set('__clerk_db_jwt', opts.cookie);
    }
    const page = new URL('/dashboard', h.config.publicUrl);
    if (opts.synced) page.searchParams.set('__clerk_synced', 'true');
    const query = new URLSearchParams({
      redirect_url: page.href,
      __clerk_api_version: '2025-04-10',
      suffixed_cookies: 'false',
      __clerk_hs_reason: 'dev-browser-sync',
      format: 'nonce',
      __clerk_db_jwt: opts.url,
    });
    const res = await browser.raw('GET', `${FAPI}/v1/client/handshake?${query}`);
    assert.equal(res.status, 307, JSON.stringify(res.body));
    const back = new URL(res.headers.location as string);
    const directives = decodeJwt(back.searchParams.get('__clerk_handshake')!).handshake as string[];
    const valueOf = (name: string) =>
      directives
        .find((d) => d.startsWith(`${name}=`))
        ?.split(';')[0]!
        .slice(name.length + 1);
    const session = valueOf('__session');
    return {
      userId: session ? (decodeJwt(session).sub ?? null) : null,
      devBrowser: { suffixed: valueOf(`__clerk_db_jwt_${suffix}`), plain: valueOf('__clerk_db_jwt') },
    };
  }

  it('hands the token back under both dev-browser cookie names, whatever suffixed_cookies says', async () => {
    // clerk-js reads the suffixed cookie first: one left from before would outlive this token.
    const { token } = await signedInToken(ada);
    const seen = await handshake({ cookie: await signedOutToken(), url: token, synced: true });
    assert.deepEqual(seen.devBrowser, { suffixed: token, plain: token });
  });

  describe('back from the primary (`__clerk_synced=true` in redirect_url)', () => {
    it("the URL's live, signed-in token wins over the browser's own signed-out one", async () => {
      const { token } = await signedInToken(ada);
      const own = await signedOutToken();
      const seen = await handshake({ cookie: own, url: token, synced: true });
      assert.equal(seen.userId, userIdOf(ada));
      assert.equal(seen.devBrowser.plain, token);
    });

    it("a dead own cookie: the URL's live token, as before", async () => {
      const { token, replaced } = await signedInToken(ada);
      const seen = await handshake({ cookie: replaced, url: token, synced: true });
      assert.equal(seen.userId, userIdOf(ada));
      assert.equal(seen.devBrowser.plain, token);
    });
  });

  // What holds: a token in a URL never displaces the cookie of a signed-in browser, nor any cookie without
  // `__clerk_synced=true`, nor when it is replaced (copied or planted before a sign-in) or signed out. What
  // does not: a signed-out browser that opens a crafted link with `__clerk_synced=true` and someone's live,
  // signed-in token is that someone on that page, as with hosted Clerk (whose Frontend API only ever sees
  // the URL's token) and as clerk-js itself does with a URL token; development keys only.
  describe('abuse: what a token in a URL cannot do', () => {
    it('without `__clerk_synced=true` the browser’s own live cookie wins (a link cannot switch it)', async () => {
      const { token } = await signedInToken(ada);
      const own = await signedOutToken();
      const seen = await handshake({ cookie: own, url: token, synced: false });
      assert.equal(seen.userId, null);
      assert.equal(seen.devBrowser.plain, own);
    });

    it('never over a cookie whose client is signed in: a link with another user’s token changes nothing', async () => {
      const { token: bobs } = await signedInToken(bob);
      const { token: adas } = await signedInToken(ada);
      const seen = await handshake({ cookie: adas, url: bobs, synced: true });
      assert.equal(seen.userId, userIdOf(ada));
      assert.equal(seen.devBrowser.plain, adas);
    });

    it('a signed-out token in the URL does not replace the browser’s own', async () => {
      const own = await signedOutToken();
      const seen = await handshake({ cookie: own, url: await signedOutToken(), synced: true });
      assert.deepEqual(seen, { userId: null, devBrowser: { suffixed: own, plain: own } });
    });

    it('a replaced (replayed) token in the URL signs no browser in, whatever its cookie', async () => {
      // `replaced` is what whoever planted or copied the token before the sign-in holds.
      const { replaced } = await signedInToken(ada);
      const own = await signedOutToken();
      const withOwn = await handshake({ cookie: own, url: replaced, synced: true });
      assert.equal(withOwn.userId, null);
      assert.equal(withOwn.devBrowser.plain, own);
      const withoutCookie = await handshake({ url: replaced, synced: true });
      assert.deepEqual(withoutCookie, {
        userId: null,
        devBrowser: { suffixed: undefined, plain: undefined },
      });
    });
  });
});
