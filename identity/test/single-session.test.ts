import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Browser } from './support/harness.ts';

// The environment says `single_session_mode: true`: one browser (client) holds at most one signed-in session.
forEachBackend('single-session mode', (backend) => {
  let h: Harness;
  let email: string;
  before(async () => {
    h = await Harness.start(backend);
    email = uniqueEmail('single');
    await signUp(h, h.browser(), email);
  });
  after(() => h.close());
  beforeEach(() => h.clock.advance(61));

  const signedInSessions = async (browser: Browser) => {
    const res = await browser.get('/client');
    return res.body.response.sessions.length as number;
  };

  it('completing an older sign-in while signed in is 422 session_exists', async () => {
    const browser = h.browser();
    const first = await browser.post('/client/sign_ins', { identifier: email });
    const second = await browser.post('/client/sign_ins', { identifier: email });
    const done = await browser.post(`/client/sign_ins/${second.body.response.id}/attempt_first_factor`, {
      strategy: 'password',
      password: PASSWORD,
    });
    assert.equal(done.status, 200);
    const again = await browser.post(`/client/sign_ins/${first.body.response.id}/attempt_first_factor`, {
      strategy: 'password',
      password: PASSWORD,
    });
    assert.equal(again.status, 422, JSON.stringify(again.body.errors ?? again.body.response.status));
    assert.equal(again.body.errors[0].code, 'session_exists');
    assert.equal(await signedInSessions(browser), 1);
  });

  it('completing a sign-up while signed in is 422 session_exists and creates no user', async () => {
    const browser = h.browser();
    const newEmail = uniqueEmail('second-account');
    const created = await browser.post('/client/sign_ups', { email_address: newEmail, password: PASSWORD });
    const id = created.body.response.id;
    await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'email_code' });
    const signIn = await browser.post('/client/sign_ins', {
      identifier: email,
      password: PASSWORD,
      strategy: 'password',
    });
    assert.equal(signIn.status, 200);
    const res = await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
      strategy: 'email_code',
      code: await h.latestCode(newEmail),
    });
    assert.equal(res.status, 422, JSON.stringify(res.body.errors ?? res.body.response.status));
    assert.equal(res.body.errors[0].code, 'session_exists');
    assert.equal(await signedInSessions(browser), 1);
    assert.equal(await h.count('email_addresses', 'email_address = $1', [newEmail]), 0);
  });

  it('two simultaneous instant-password sign-ins from one browser open one session', async () => {
    for (let round = 0; round < 5; round++) {
      h.clock.advance(61);
      const browser = h.browser();
      assert.equal((await browser.call('PUT', '/client')).status, 200);
      const results = await Promise.all(
        [0, 1].map(() =>
          browser.post('/client/sign_ins', { identifier: email, password: PASSWORD, strategy: 'password' }),
        ),
      );
      const outcome = results.map((r) => (r.status === 200 ? 'ok' : r.body.errors[0].code)).sort();
      // The winner rotates the browser's credential; the other request, made with the old one, is refused.
      assert.deepEqual(outcome, ['authentication_invalid', 'ok'], `round ${round}`);
      assert.equal(await signedInSessions(browser), 1, `round ${round}`);
    }
  });

  it('one code entered twice at the same moment completes the sign-in once', async () => {
    for (let round = 0; round < 3; round++) {
      h.clock.advance(61);
      const browser = h.browser();
      const created = await browser.post('/client/sign_ins', { identifier: email, strategy: 'email_code' });
      const code = await h.latestCode(email);
      const id = created.body.response.id;
      const results = await Promise.all(
        [0, 1].map(() =>
          browser.post(`/client/sign_ins/${id}/attempt_first_factor`, { strategy: 'email_code', code }),
        ),
      );
      const outcome = results.map((r) => (r.status === 200 ? 'ok' : r.body.errors[0].code)).sort();
      assert.deepEqual(outcome, ['authentication_invalid', 'ok'], `round ${round}`);
      assert.equal(await signedInSessions(browser), 1);
    }
  });
});
