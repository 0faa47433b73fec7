import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signInWithPassword, signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type FapiResponse } from './support/harness.ts';

const NEW_PASSWORD = 'a brand new passphrase';

forEachBackend('the current user (/me)', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());
  // Each test in a fresh rate-limit window: they reuse one identifier and the clock stands still.
  beforeEach(() => h.clock.advance(61));

  function assertError(res: FapiResponse, status: number, code: string, param?: string) {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].code, code);
    if (param !== undefined) assert.equal(res.body.errors[0].meta.param_name, param);
  }

  async function member() {
    const email = uniqueEmail('me');
    const browser = h.browser();
    const signedIn = await signUp(h, browser, email);
    return { email, browser, ...signedIn };
  }

  it('GET /me names the session by _clerk_session_id; an unknown one is 404', async () => {
    const { browser, sessionId, userId } = await member();
    const me = await browser.get('/me', { _clerk_session_id: sessionId });
    assert.equal(me.status, 200);
    assert.equal(me.body.response.id, userId);
    assertError(await browser.get('/me', { _clerk_session_id: 'sess_other' }), 404, 'resource_not_found');
  });

  it('change_password checks the current password and validates the new one', async () => {
    const { browser, userId } = await member();
    assertError(
      await browser.post('/me/change_password', { current_password: 'not it', new_password: NEW_PASSWORD }),
      422,
      'form_password_incorrect',
      'current_password',
    );
    assertError(
      await browser.post('/me/change_password', { current_password: PASSWORD, new_password: 'short' }),
      422,
      'form_password_length_too_short',
      'new_password',
    );
    const [row] = await h.db.query<{ password_updated_at: Date; created_at: Date }>(
      'SELECT password_updated_at, created_at FROM users WHERE id = $1',
      [userId],
    );
    assert.equal(
      row!.password_updated_at.getTime(),
      row!.created_at.getTime(),
      'the password did not change',
    );
  });

  it('change_password replaces the password; the old one stops working', async () => {
    const { browser, email, userId } = await member();
    h.clock.advance(10);
    const res = await browser.post('/me/change_password', {
      current_password: PASSWORD,
      new_password: NEW_PASSWORD,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.response.id, userId);
    assert.equal(res.body.response.password_last_updated_at, h.clock.now.getTime());

    const old = await h
      .browser()
      .post('/client/sign_ins', { identifier: email, password: PASSWORD, strategy: 'password' });
    assertError(old, 422, 'form_password_incorrect', 'password');
    await signInWithPassword(h.browser(), email, NEW_PASSWORD);
  });

  it('change_password with sign_out_of_other_sessions revokes the other browsers, not this one', async () => {
    const { browser, email, sessionId } = await member();
    const other = h.browser();
    const { sessionId: otherSession } = await signInWithPassword(other, email);
    const res = await browser.post('/me/change_password', {
      current_password: PASSWORD,
      new_password: NEW_PASSWORD,
      sign_out_of_other_sessions: 'true',
    });
    assert.equal(res.status, 200);
    assert.equal(
      (await browser.post(`/client/sessions/${sessionId}/tokens`, { organization_id: '' })).status,
      200,
    );
    assertError(
      await other.post(`/client/sessions/${otherSession}/tokens`, { organization_id: '' }),
      404,
      'resource_not_found',
    );
    assert.deepEqual((await other.get('/client')).body.response.sessions, []);
  });

  it('GET /me/sessions/active is a bare array of the user\u2019s signed-in sessions', async () => {
    const { browser, email, sessionId } = await member();
    h.clock.advance(1);
    const { sessionId: second } = await signInWithPassword(h.browser(), email);
    const res = await browser.get('/me/sessions/active');
    assert.equal(res.status, 200);
    assert.ok(Array.isArray(res.body), 'bare array');
    assert.deepEqual(
      res.body.map((s: { id: string }) => s.id),
      [second, sessionId],
      'most recently active first',
    );
    assert.equal(res.body[0].object, 'session');
    assert.equal(res.body[0].status, 'active');
    assert.equal(typeof res.body[0].latest_activity, 'object');
  });

  it('DELETE /me deletes the account and signs the browser out; the address can sign up again', async () => {
    const { browser, email, userId, sessionId } = await member();
    const res = await browser.delete('/me');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.response, { object: 'user', id: userId, deleted: true });
    assert.deepEqual(res.body.client.sessions, []);
    assert.equal(res.setCookies.get('__client_uat')?.value, '0');
    assertError(
      await browser.post(`/client/sessions/${sessionId}/tokens`, { organization_id: '' }),
      404,
      'resource_not_found',
    );
    assert.equal((await h.bapi(`/v1/users/${userId}`)).statusCode, 404);
    assertError(
      await h.browser().post('/client/sign_ins', { identifier: email }),
      422,
      'form_identifier_not_found',
      'identifier',
    );
    const again = await signUp(h, h.browser(), email);
    assert.notEqual(again.userId, userId);
  });

  it('without a session every /me route is 404', async () => {
    const stranger = h.browser();
    for (const res of [
      await stranger.get('/me'),
      await stranger.patch('/me', { first_name: 'x' }),
      await stranger.delete('/me'),
      await stranger.post('/me/change_password', { current_password: PASSWORD, new_password: NEW_PASSWORD }),
      await stranger.get('/me/sessions/active'),
    ]) {
      assertError(res, 404, 'resource_not_found');
    }
  });
});
