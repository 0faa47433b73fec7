import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { cookieSuffixOf } from '../src/identity.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signInWithPassword, signUp, type SignedIn } from './support/flows.ts';
import { Harness, uniqueEmail, type Browser, type FapiResponse } from './support/harness.ts';

forEachBackend('sessions', (backend) => {
  let h: Harness;
  let email: string;
  let userId: string;
  before(async () => {
    h = await Harness.start(backend);
    email = uniqueEmail('sessions');
    ({ userId } = await signUp(h, h.browser(), email, { firstName: 'Ada' }));
  });
  after(() => h.close());
  // Each test in a fresh rate-limit window: they reuse one identifier and the clock stands still.
  beforeEach(() => h.clock.advance(61));

  async function signedIn(): Promise<{ browser: Browser } & SignedIn> {
    const browser = h.browser();
    return { browser, ...(await signInWithPassword(browser, email)) };
  }

  function assertSignedOutCookies(res: FapiResponse) {
    const suffix = cookieSuffixOf(h.identity.publishableKey);
    assert.equal(res.setCookies.get('__client_uat')?.value, '0');
    assert.equal(res.setCookies.get(`__client_uat_${suffix}`)?.value, '0');
  }

  function assertNotFound(res: FapiResponse) {
    assert.equal(res.status, 404, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].code, 'resource_not_found');
  }

  it('GET /v1/client while signed in returns the client with its session as the response', async () => {
    const { browser, sessionId } = await signedIn();
    const res = await browser.get('/client');
    assert.equal(res.status, 200);
    assert.equal(res.body.client, null);
    const client = res.body.response;
    assert.equal(client.object, 'client');
    assert.equal(client.last_active_session_id, sessionId);
    assert.equal(client.sessions.length, 1);
    assert.equal(client.sessions[0].user.id, userId);
    assert.equal(client.sessions[0].last_active_token.object, 'token');
    assert.equal(typeof client.cookie_expires_at, 'number');
    assert.ok(client.cookie_expires_at > h.clock.now.getTime(), 'milliseconds in the future');
    const session = client.sessions[0];
    const lifetimeMs = h.config.sessionLifetimeSeconds * 1000;
    assert.equal(session.expire_at, session.created_at + lifetimeMs, 'milliseconds');
    assert.equal(session.abandon_at, session.created_at + lifetimeMs);
    assert.equal(session.created_at, h.clock.now.getTime());
  });

  it("cookie_expires_at never promises more than the __client cookie's real lifetime", async () => {
    const browser = h.browser();
    const created = await browser.call('PUT', '/client');
    const maxAge = created.setCookies.get('__client')!.maxAge!;
    const cookieExpiresAt = h.clock.now.getTime() + maxAge * 1000;
    h.clock.advance(200 * 24 * 3600);
    const res = await browser.post('/client/sign_ins', {
      identifier: email,
      password: PASSWORD,
      strategy: 'password',
    });
    assert.equal(res.status, 200);
    const refreshed = res.setCookies.get('__client');
    const actualExpiry = refreshed?.maxAge
      ? h.clock.now.getTime() + refreshed.maxAge * 1000
      : cookieExpiresAt;
    assert.ok(
      res.body.client.cookie_expires_at <= actualExpiry,
      `${res.body.client.cookie_expires_at} > ${actualExpiry}`,
    );
  });

  it('touch (active_organization_id=) returns the wrapped session and records activity', async () => {
    const { browser, sessionId } = await signedIn();
    h.clock.advance(30);
    const res = await browser.post(`/client/sessions/${sessionId}/touch`, { active_organization_id: '' });
    assert.equal(res.status, 200);
    const session = res.body.response;
    assert.equal(session.object, 'session');
    assert.equal(session.id, sessionId);
    assert.equal(session.status, 'active');
    assert.equal(session.last_active_at, h.clock.now.getTime());
    assert.equal(session.last_active_organization_id, null);
    assert.equal(session.user.id, userId);
    assert.equal(session.public_user_data.user_id, userId);
    assert.equal(session.last_active_token.jwt.split('.').length, 3);
    assert.equal(res.body.client.object, 'client');
    assert.equal(res.body.client.sessions[0].id, sessionId);
    assert.equal(res.body.client.last_active_session_id, sessionId);
  });

  it('touch with an organisation is 404 (no organisations yet); an unknown session is 404', async () => {
    const { browser, sessionId } = await signedIn();
    assertNotFound(
      await browser.post(`/client/sessions/${sessionId}/touch`, { active_organization_id: 'org_123' }),
    );
    assertNotFound(await browser.post('/client/sessions/sess_unknown/touch', { active_organization_id: '' }));
  });

  it("another browser cannot touch, mint tokens for or end this browser's session", async () => {
    const { sessionId } = await signedIn();
    const stranger = h.browser();
    assertNotFound(
      await stranger.post(`/client/sessions/${sessionId}/touch`, { active_organization_id: '' }),
    );
    assertNotFound(await stranger.post(`/client/sessions/${sessionId}/tokens`, { organization_id: '' }));
    assertNotFound(await stranger.post(`/client/sessions/${sessionId}/end`));
    const [row] = await h.db.query<{ status: string }>('SELECT status FROM sessions WHERE id = $1', [
      sessionId,
    ]);
    assert.equal(row!.status, 'active');
  });

  it('end: the session is ended, leaves the client, __client_uat=0, and its tokens are 404', async () => {
    const { browser, sessionId } = await signedIn();
    const res = await browser.post(`/client/sessions/${sessionId}/end`);
    assert.equal(res.status, 200);
    assert.equal(res.body.response.object, 'session');
    assert.equal(res.body.response.id, sessionId);
    assert.equal(res.body.response.status, 'ended');
    assert.equal(res.body.response.last_active_token, null);
    assert.deepEqual(res.body.client.sessions, []);
    assert.equal(res.body.client.last_active_session_id, null);
    assertSignedOutCookies(res);

    assertNotFound(await browser.post(`/client/sessions/${sessionId}/tokens`, { organization_id: '' }));
    assertNotFound(await browser.post(`/client/sessions/${sessionId}/touch`, { active_organization_id: '' }));
    assert.deepEqual((await browser.get('/client')).body.response.sessions, []);
  });

  it('remove: the session is removed and leaves the client', async () => {
    const { browser, sessionId } = await signedIn();
    const res = await browser.post(`/client/sessions/${sessionId}/remove`);
    assert.equal(res.status, 200);
    assert.equal(res.body.response.status, 'removed');
    assert.deepEqual(res.body.client.sessions, []);
    assertSignedOutCookies(res);
    assertNotFound(await browser.post(`/client/sessions/${sessionId}/tokens`, { organization_id: '' }));
  });

  it('DELETE /client/sessions signs out: no sessions, __client_uat=0, and the browser may sign in again', async () => {
    const { browser, sessionId } = await signedIn();
    const res = await browser.delete('/client/sessions');
    assert.equal(res.status, 200);
    assert.equal(res.body.client, null);
    assert.equal(res.body.response.object, 'client');
    assert.deepEqual(res.body.response.sessions, []);
    assert.equal(res.body.response.last_active_session_id, null);
    assertSignedOutCookies(res);
    const [row] = await h.db.query<{ status: string }>('SELECT status FROM sessions WHERE id = $1', [
      sessionId,
    ]);
    assert.equal(row!.status, 'ended');

    assert.deepEqual((await browser.get('/client')).body.response.sessions, []);
    assertNotFound(await browser.post(`/client/sessions/${sessionId}/tokens`, { organization_id: '' }));
    const again = await browser.post('/client/sign_ins', {
      identifier: email,
      password: PASSWORD,
      strategy: 'password',
    });
    assert.equal(again.status, 200);
    assert.equal(again.body.response.status, 'complete');
    assert.notEqual(again.body.response.created_session_id, sessionId);
  });

  it('DELETE /client signs out and forgets the in-progress attempts', async () => {
    const browser = h.browser();
    await browser.post('/client/sign_ins', { identifier: email });
    const res = await browser.delete('/client');
    assert.equal(res.status, 200);
    assert.equal(res.body.response.sign_in, null);
    assert.equal(res.body.response.sign_up, null);
    assert.deepEqual(res.body.response.sessions, []);
  });

  it('DELETE /client/sessions without a client is a harmless {response: null}', async () => {
    const res = await h.browser().delete('/client/sessions');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { response: null, client: null });
  });

  it('GET /v1/me returns the wrapped user; PATCH /v1/me validates what it changes', async () => {
    const { browser } = await signedIn();
    const me = await browser.get('/me');
    assert.equal(me.status, 200);
    assert.equal(me.body.response.object, 'user');
    assert.equal(me.body.response.id, userId);
    const patched = await browser.patch('/me', { first_name: 'Augusta', last_name: '' });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.response.first_name, 'Augusta');
    assert.equal(patched.body.response.last_name, null);
    const refused = await browser.patch('/me', { first_name: 'x'.repeat(257) });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.errors[0].code, 'form_param_max_length_exceeded');
    const other = await browser.patch('/me', { primary_phone_number_id: 'idn_phone' });
    assert.equal(other.status, 422);
    assert.equal(other.body.errors[0].meta.param_name, 'primary_phone_number_id');
    assertNotFound(await h.browser().get('/me'));
  });

  it('a session expires after its lifetime: it leaves the client and its tokens are 404', async () => {
    const { browser, sessionId } = await signedIn();
    h.clock.advance(h.config.sessionLifetimeSeconds + 1);
    const client = await browser.get('/client');
    assert.equal(client.status, 200);
    assert.deepEqual(client.body.response.sessions, []);
    assertNotFound(await browser.post(`/client/sessions/${sessionId}/tokens`, { organization_id: '' }));
    const [row] = await h.db.query<{ status: string }>('SELECT status FROM sessions WHERE id = $1', [
      sessionId,
    ]);
    assert.equal(row!.status, 'expired');
  });
});
