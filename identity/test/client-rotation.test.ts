import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signInWithPassword, signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Browser, type FapiResponse, type Json } from './support/harness.ts';

// Session fixation (issue #11): whoever planted or copied a browser's client credential before it signed
// in must not hold its session afterwards. Every sign-in, sign-up completion and sign-out gives the
// client a new credential and the old one finds nothing.
forEachBackend('client credential rotation', (backend) => {
  describe('production keys: the __client cookie', () => {
    let h: Harness;
    const ada = uniqueEmail('ada');
    before(async () => {
      h = await Harness.start(backend, { config: { multiSession: true } });
      await signUp(h, h.browser(), ada);
    });
    after(() => h.close());
    beforeEach(() => h.clock.advance(61));

    /** A browser whose client exists, and the cookie it had then (what an attacker could have planted). */
    async function withClient(): Promise<{ browser: Browser; planted: string; clientId: string }> {
      const browser = h.browser();
      const created = await browser.call('PUT', '/client');
      assert.equal(created.status, 200);
      return { browser, planted: browser.jar.get('__client')!, clientId: created.body.response.id };
    }

    /** What a request carrying only `token` as its cookie finds. */
    async function clientByCookie(token: string): Promise<Json> {
      const stranger = h.browser();
      stranger.jar.set('__client', token);
      return replacedOrClient(await stranger.get('/client'));
    }

    it('a sign-in gives the client a new cookie; the planted one finds nothing', async () => {
      const { browser, planted, clientId } = await withClient();
      const signedIn = await signInWithPassword(browser, ada);
      const rotated = browser.jar.get('__client')!;
      assert.notEqual(rotated, planted);
      assert.equal(await clientByCookie(planted), null);
      const own = await clientByCookie(rotated);
      assert.equal(own.id, clientId, 'the client keeps its id and state, only its credential changes');
      assert.deepEqual(
        own.sessions.map((s: Json) => s.id),
        [signedIn.sessionId],
      );
    });

    it('a sign-up completion rotates the cookie', async () => {
      const { browser, planted } = await withClient();
      const signedUp = await signUp(h, browser, uniqueEmail('new'));
      assert.notEqual(browser.jar.get('__client'), planted);
      assert.equal(await clientByCookie(planted), null);
      assert.equal(
        (await clientByCookie(browser.jar.get('__client')!)).last_active_session_id,
        signedUp.sessionId,
      );
    });

    it('a sign-in on a browser without a client yet sets one cookie, and the next sign-in rotates it', async () => {
      const browser = h.browser();
      await signInWithPassword(browser, ada);
      const first = browser.jar.get('__client')!;
      assert.ok(first);
      const bob = uniqueEmail('bob');
      await signUp(h, h.browser(), bob);
      await signInWithPassword(browser, bob);
      assert.notEqual(browser.jar.get('__client'), first, 'adding an account opens a session: rotated');
      assert.equal(await clientByCookie(first), null);
    });

    for (const [name, signOut] of [
      ['sign-out of every session (DELETE /client/sessions)', (b: Browser) => b.delete('/client/sessions')],
      ['DELETE /client', (b: Browser) => b.delete('/client')],
      [
        'removing the session (POST /client/sessions/:id/remove)',
        (b: Browser, id: string) => b.post(`/client/sessions/${id}/remove`),
      ],
      [
        'ending the session (POST /client/sessions/:id/end)',
        (b: Browser, id: string) => b.post(`/client/sessions/${id}/end`),
      ],
    ] as const) {
      it(`${name} rotates the cookie`, async () => {
        const browser = h.browser();
        const { sessionId } = await signInWithPassword(browser, ada);
        const before = browser.jar.get('__client')!;
        const res: FapiResponse = await signOut(browser, sessionId);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const after = browser.jar.get('__client')!;
        assert.ok(after);
        assert.notEqual(after, before);
        assert.equal(await clientByCookie(before), null);
        assert.ok(await clientByCookie(after));
      });
    }

    it('requests that open or end no session keep the cookie', async () => {
      const browser = h.browser();
      const { sessionId } = await signInWithPassword(browser, ada);
      const held = browser.jar.get('__client')!;
      assert.equal((await browser.post(`/client/sessions/${sessionId}/touch`)).status, 200);
      assert.equal((await browser.post(`/client/sessions/${sessionId}/tokens`)).status, 200);
      assert.equal((await browser.get('/client')).status, 200);
      assert.equal(browser.jar.get('__client'), held);
    });

    it('a failed sign-in attempt does not rotate', async () => {
      const browser = h.browser();
      const created = await browser.post('/client/sign_ins', { identifier: ada });
      const held = browser.jar.get('__client')!;
      const wrong = await browser.post(`/client/sign_ins/${created.body.response.id}/attempt_first_factor`, {
        strategy: 'password',
        password: `${PASSWORD}!`,
      });
      assert.equal(wrong.status, 422);
      assert.equal(browser.jar.get('__client'), held);
    });
  });

  describe('development keys: the dev-browser token', () => {
    let h: Harness;
    const ada = uniqueEmail('ada');
    before(async () => {
      h = await Harness.start(backend, { config: { instanceKeys: 'development' } });
      await signUp(h, h.browser(), ada);
    });
    after(() => h.close());
    beforeEach(() => h.clock.advance(61));

    const devBrowserToken = async (browser: Browser): Promise<string> =>
      (await browser.post('/dev_browser')).body.id;
    const clientByToken = async (token: string): Promise<Json> =>
      replacedOrClient(await h.browser().get('/client', { __clerk_db_jwt: token }));
    /** clerk-js replaces its token with the `Clerk-Db-Jwt` header of any answer (core/auth/devBrowser.ts). */
    const answered = (res: FapiResponse): string | undefined =>
      res.headers['clerk-db-jwt'] as string | undefined;

    async function signIn(
      browser: Browser,
      token: string,
    ): Promise<{ res: FapiResponse; sessionId: string }> {
      const dev = { __clerk_db_jwt: token };
      const created = await browser.post('/client/sign_ins', { identifier: ada }, dev);
      assert.equal(created.status, 200, JSON.stringify(created.body));
      assert.equal(answered(created), undefined, 'starting a sign-in opens no session');
      const res = await browser.post(
        `/client/sign_ins/${created.body.response.id}/attempt_first_factor`,
        { strategy: 'password', password: PASSWORD },
        dev,
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return { res, sessionId: res.body.response.created_session_id };
    }

    it("a sign-in answers a new token in Clerk-Db-Jwt; the attacker's token finds nothing", async () => {
      const attacker = h.browser();
      const planted = await devBrowserToken(attacker);
      const victim = h.browser();
      const { res, sessionId } = await signIn(victim, planted);
      const rotated = answered(res);
      assert.ok(rotated, 'the sign-in answers a new dev-browser token');
      assert.notEqual(rotated, planted);
      assert.equal(victim.jar.has('__client'), false, 'no __client cookie: clerk-js keeps the token itself');
      assert.equal(await clientByToken(planted), null);
      assert.deepEqual(
        (await clientByToken(rotated)).sessions.map((s: Json) => s.id),
        [sessionId],
      );
    });

    it('a sign-out answers a new token too', async () => {
      const browser = h.browser();
      const { res } = await signIn(browser, await devBrowserToken(browser));
      const signedIn = answered(res)!;
      const out = await browser.call('DELETE', '/client/sessions', undefined, { __clerk_db_jwt: signedIn });
      assert.equal(out.status, 200);
      const signedOut = answered(out);
      assert.ok(signedOut);
      assert.notEqual(signedOut, signedIn);
      assert.equal(await clientByToken(signedIn), null);
      assert.equal((await clientByToken(signedOut)).sessions.length, 0);
    });

    it("the browser's own __clerk_db_jwt cookie wins over a token in the URL", async () => {
      const own = await devBrowserToken(h.browser());
      const planted = await devBrowserToken(h.browser());
      const ownId = (await clientByToken(own)).id;
      const browser = h.browser();
      browser.jar.set('__clerk_db_jwt', own);
      const res = await browser.get('/client', { __clerk_db_jwt: planted });
      assert.equal(res.body.response.id, ownId);
    });

    it('a session opened by a navigation (cookie only) rewrites the dev-browser cookies as well', async () => {
      const browser = h.browser();
      const token = await devBrowserToken(browser);
      browser.jar.set('__clerk_db_jwt', token);
      const { res } = await signIn(browser, token);
      const rotated = answered(res)!;
      assert.equal(browser.jar.get('__clerk_db_jwt'), rotated);
      assert.equal(browser.jar.get(`__clerk_db_jwt_${h.identity.deps.cookieSuffix}`), rotated);
      assert.equal(res.setCookies.get('__clerk_db_jwt')?.httpOnly ?? false, false, 'clerk-js reads it');
      assert.equal(res.setCookies.get('__clerk_db_jwt')?.path, '/');
    });
  });
});

/**
 * The client a credential finds: `null` when the credential was replaced by a rotation, which is answered
 * `401 authentication_invalid` (clerk-js then reads its client again with the credential it holds now), or
 * for a dev-browser token `401 dev_browser_unauthenticated` (clerk-js then asks for a new one).
 */
function replacedOrClient(res: FapiResponse): Json {
  if (res.status === 401) {
    assert.match(res.body.errors[0].code, /^(authentication_invalid|dev_browser_unauthenticated)$/);
    return null;
  }
  assert.equal(res.status, 200);
  return res.body.response;
}
