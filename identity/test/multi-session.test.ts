import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { decodeJwt } from 'jose';
import { forEachBackend } from './support/backends.ts';
import { latestLink, openLink } from './support/email-links.ts';
import { PASSWORD, signInWithPassword, signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Browser, type Json } from './support/harness.ts';

// IDENTITY_MULTI_SESSION=true: one browser holds several accounts, one of them active.
forEachBackend('multi-session mode', (backend) => {
  let h: Harness;
  const ada = uniqueEmail('ada');
  const bob = uniqueEmail('bob');
  const cyd = uniqueEmail('cyd');
  before(async () => {
    h = await Harness.start(backend, { config: { multiSession: true } });
    for (const email of [ada, bob, cyd]) await signUp(h, h.browser(), email);
  });
  after(() => h.close());
  beforeEach(() => h.clock.advance(61));

  const clientOf = async (browser: Browser): Promise<Json> => (await browser.get('/client')).body.response;
  const emailOfSession = (s: Json) => s.user.email_addresses[0].email_address;

  /** A browser signed in as Ada, then Bob: two sessions, Bob's the active one. */
  async function adaThenBob() {
    const browser = h.browser();
    const first = await signInWithPassword(browser, ada);
    h.clock.advance(1);
    const second = await signInWithPassword(browser, bob);
    return { browser, ada: first.sessionId, bob: second.sessionId };
  }

  it('the environment says multi-session (single-session is the default)', async () => {
    const env = await h.browser().get('/environment');
    assert.equal(env.body.auth_config.single_session_mode, false);
    const single = await Harness.start(backend);
    try {
      assert.equal((await single.browser().get('/environment')).body.auth_config.single_session_mode, true);
    } finally {
      await single.close();
    }
  });

  it('a signed-in browser signs in a second account; both sessions stay signed in, the newest active', async () => {
    const { browser, ada: adaSession, bob: bobSession } = await adaThenBob();
    const client = await clientOf(browser);
    assert.deepEqual(
      client.sessions.map((s: Json) => [s.id, s.status, emailOfSession(s)]),
      [
        [adaSession, 'active', ada],
        [bobSession, 'active', bob],
      ],
    );
    assert.equal(client.last_active_session_id, bobSession);
    for (const s of client.sessions) {
      const token = await browser.post(`/client/sessions/${s.id}/tokens`);
      assert.equal(token.status, 200);
      assert.equal(decodeJwt(token.body.jwt).sid, s.id);
    }
  });

  it('signing in an account already signed in here answers identifier_already_signed_in with its session', async () => {
    const { browser, ada: adaSession } = await adaThenBob();
    const signInsBefore = await h.count('sign_ins');
    const again = await browser.post('/client/sign_ins', { identifier: ada.toUpperCase() });
    assert.equal(again.status, 422, JSON.stringify(again.body));
    assert.equal(again.body.errors[0].code, 'identifier_already_signed_in');
    assert.equal(again.body.errors[0].meta.session_id, adaSession);
    assert.equal(await h.count('sign_ins'), signInsBefore, 'no sign-in was started');
    const instant = await browser.post('/client/sign_ins', {
      identifier: ada,
      password: PASSWORD,
      strategy: 'password',
    });
    assert.equal(instant.body.errors[0].code, 'identifier_already_signed_in');
    assert.equal((await clientOf(browser)).sessions.length, 2);
  });

  it('touch switches the active session (setActive from <UserButton/>); /me follows it', async () => {
    const { browser, ada: adaSession, bob: bobSession } = await adaThenBob();
    const touched = await browser.post(`/client/sessions/${adaSession}/touch`, {
      active_organization_id: '',
    });
    assert.equal(touched.status, 200);
    assert.equal(touched.body.client.last_active_session_id, adaSession);
    assert.equal((await browser.get('/me')).body.response.email_addresses[0].email_address, ada);
    // clerk-js names the session it acts for; that wins over the client's active one.
    const asBob = await browser.get('/me', { _clerk_session_id: bobSession });
    assert.equal(asBob.body.response.email_addresses[0].email_address, bob);
  });

  it('removing one session signs out of that account only; the other becomes the active one', async () => {
    const { browser, ada: adaSession, bob: bobSession } = await adaThenBob();
    const removed = await browser.post(`/client/sessions/${bobSession}/remove`);
    assert.equal(removed.status, 200);
    assert.equal(removed.body.response.status, 'removed');
    assert.deepEqual(
      removed.body.client.sessions.map((s: Json) => s.id),
      [adaSession],
    );
    assert.equal(removed.body.client.last_active_session_id, adaSession);
    const token = await browser.post(`/client/sessions/${bobSession}/tokens`);
    assert.equal(token.status, 404, 'a removed session gets no token');
    assert.notEqual(removed.setCookies.get('__client_uat')?.value, '0', 'still signed in');
    // Removing a session that is not the active one leaves the active one alone.
    const other = await adaThenBob();
    const removedInactive = await other.browser.post(`/client/sessions/${other.ada}/remove`);
    assert.equal(removedInactive.body.client.last_active_session_id, other.bob);
  });

  it('DELETE /client/sessions signs out of every account', async () => {
    const { browser } = await adaThenBob();
    const res = await browser.delete('/client/sessions');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.response.sessions, []);
    assert.equal(res.body.response.last_active_session_id, null);
    assert.equal(res.setCookies.get('__client_uat')?.value, '0');
  });

  it('an email link signs a second account in beside the first, on the browser that asked for it', async () => {
    const browser = h.browser();
    const first = await signInWithPassword(browser, ada);
    const created = await browser.post('/client/sign_ins', { identifier: bob });
    const emailFactor = created.body.response.supported_first_factors.find(
      (f: Json) => f.strategy === 'email_link',
    );
    const prepared = await browser.post(`/client/sign_ins/${created.body.response.id}/prepare_first_factor`, {
      strategy: 'email_link',
      email_address_id: emailFactor.email_address_id,
      redirect_url: 'http://localhost:3000/sign-in',
    });
    assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
    const landing = await openLink(browser, await latestLink(h, bob));
    assert.equal(landing.status, 'verified');
    const client = await clientOf(browser);
    assert.deepEqual(
      client.sessions.map((s: Json) => emailOfSession(s)),
      [ada, bob],
    );
    assert.ok(client.sessions.some((s: Json) => s.id === first.sessionId));
  });

  it('a third account can sign up or sign in beside the others', async () => {
    const { browser } = await adaThenBob();
    const third = await signInWithPassword(browser, cyd);
    const newcomer = await signUp(h, browser, uniqueEmail('dee'));
    const client = await clientOf(browser);
    assert.equal(client.sessions.length, 4);
    assert.equal(client.last_active_session_id, newcomer.sessionId);
    assert.ok(client.sessions.some((s: Json) => s.id === third.sessionId));
  });
});

forEachBackend('single-session mode keeps one account per browser', (backend) => {
  let h: Harness;
  const ada = uniqueEmail('ada');
  const bob = uniqueEmail('bob');
  before(async () => {
    h = await Harness.start(backend);
    for (const email of [ada, bob]) await signUp(h, h.browser(), email);
  });
  after(() => h.close());

  it('signing in another account, or the same one, on a signed-in browser is 422 session_exists', async () => {
    const browser = h.browser();
    await signInWithPassword(browser, ada);
    for (const identifier of [bob, ada]) {
      const res = await browser.post('/client/sign_ins', { identifier });
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.equal(res.body.errors[0].code, 'session_exists');
    }
    const signUpAttempt = await browser.post('/client/sign_ups', { email_address: uniqueEmail('new') });
    assert.equal(signUpAttempt.body.errors[0].code, 'session_exists');
  });
});
