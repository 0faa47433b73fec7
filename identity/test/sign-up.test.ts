import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { decodeJwt } from 'jose';
import { cookieSuffixOf } from '../src/identity.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { FAPI, Harness, uniqueEmail, type Browser, type Json } from './support/harness.ts';

/** A code that is certainly not `code`. */
const wrong = (code: string) => code.replace(/^./, (d) => String((Number(d) + 1) % 10));

forEachBackend('sign-up', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());

  async function start(
    browser: Browser,
    email: string,
    form: Record<string, string> = { password: PASSWORD },
  ): Promise<string> {
    const res = await browser.post('/client/sign_ups', { email_address: email, ...form });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.response.id;
  }

  async function prepare(browser: Browser, id: string): Promise<Json> {
    const res = await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'email_code' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  }

  const attempt = (browser: Browser, id: string, code: string) =>
    browser.post(`/client/sign_ups/${id}/attempt_verification`, { strategy: 'email_code', code });

  it('create with email, password and names → missing_requirements, email unverified, client cookie set', async () => {
    const browser = h.browser();
    const email = uniqueEmail('ada');
    const res = await browser.post('/client/sign_ups', {
      email_address: email.toUpperCase(),
      password: PASSWORD,
      first_name: 'Ada',
      last_name: 'Lovelace',
    });
    assert.equal(res.status, 200);
    const signUp = res.body.response;
    assert.equal(signUp.object, 'sign_up');
    assert.match(signUp.id, /^sua_/);
    assert.equal(signUp.status, 'missing_requirements');
    assert.deepEqual(signUp.missing_fields, []);
    assert.deepEqual(signUp.unverified_fields, ['email_address']);
    assert.deepEqual(signUp.required_fields, ['email_address', 'password']);
    assert.equal(signUp.email_address, email, 'stored lower-cased');
    assert.equal(signUp.first_name, 'Ada');
    assert.equal(signUp.last_name, 'Lovelace');
    assert.equal(signUp.has_password, true);
    assert.equal(signUp.created_session_id, null);
    assert.equal(signUp.created_user_id, null);
    assert.deepEqual(signUp.verifications.email_address, {
      object: 'verification',
      status: 'unverified',
      strategy: null,
      attempts: null,
      expire_at: null,
      next_action: 'needs_prepare',
      supported_strategies: ['email_code'],
    });
    assert.equal(JSON.stringify(res.body).includes('argon2'), false, 'no password hash leaks');

    const cookie = res.setCookies.get('__client');
    assert.ok(cookie, 'a __client cookie is set');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.path, FAPI);
    assert.equal(res.setCookies.has('__client_uat'), false, 'sign-in state did not change');

    const client = res.body.client;
    assert.equal(client.object, 'client');
    assert.deepEqual(client.sign_up, signUp, 'the piggy-backed client carries the same sign-up');
    assert.deepEqual(client.sessions, []);
    assert.equal(client.sign_in, null);
    assert.equal(client.last_active_session_id, null);
  });

  it('create with only an email → missing_fields [password]; PATCH supplies it', async () => {
    const browser = h.browser();
    const email = uniqueEmail();
    const created = await browser.post('/client/sign_ups', { email_address: email });
    assert.equal(created.status, 200);
    assert.deepEqual(created.body.response.missing_fields, ['password']);
    assert.deepEqual(created.body.response.unverified_fields, ['email_address']);
    assert.equal(created.body.response.has_password, false);

    const patched = await browser.patch(`/client/sign_ups/${created.body.response.id}`, {
      password: PASSWORD,
    });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.response.id, created.body.response.id);
    assert.equal(patched.body.response.status, 'missing_requirements');
    assert.deepEqual(patched.body.response.missing_fields, []);
    assert.deepEqual(patched.body.response.unverified_fields, ['email_address']);
    assert.equal(patched.body.response.has_password, true);
    assert.deepEqual(patched.body.client.sign_up, patched.body.response);
  });

  it('prepare_verification mails a 6-digit code; the verification then needs an attempt', async () => {
    const browser = h.browser();
    const email = uniqueEmail();
    const id = await start(browser, email);
    assert.deepEqual(await h.mail(email), []);
    const body = await prepare(browser, id);
    const verification = body.response.verifications.email_address;
    assert.equal(verification.status, 'unverified');
    assert.equal(verification.strategy, 'email_code');
    assert.equal(verification.attempts, 0);
    assert.equal(verification.next_action, 'needs_attempt');
    assert.equal(verification.expire_at, h.clock.now.getTime() + 10 * 60 * 1000);
    assert.deepEqual(body.client.sign_up, body.response);

    const mails = await h.mail(email);
    assert.equal(mails.length, 1);
    assert.equal(mails[0]!.to, email);
    const code = mails[0]!.text.match(/\b(\d{6})\b/)?.[1];
    assert.ok(code, 'the mail carries a 6-digit code');
    assert.ok(mails[0]!.subject.includes(code));
    assert.ok(mails[0]!.html.includes(code));
  });

  it('resending issues a new code and the previous one stops working', async () => {
    const browser = h.browser();
    const email = uniqueEmail();
    const id = await start(browser, email);
    await prepare(browser, id);
    const first = await h.latestCode(email);
    await prepare(browser, id);
    assert.equal((await h.mail(email)).length, 2);
    const second = await h.latestCode(email);
    if (first !== second) {
      const stale = await attempt(browser, id, first);
      assert.equal(stale.status, 422);
      assert.equal(stale.body.errors[0].code, 'form_code_incorrect');
    }
    const ok = await attempt(browser, id, second);
    assert.equal(ok.status, 200);
    assert.equal(ok.body.response.status, 'complete');
  });

  it('a wrong code is 422 form_code_incorrect (param code) and the attempt is counted', async () => {
    const browser = h.browser();
    const email = uniqueEmail();
    const id = await start(browser, email);
    await prepare(browser, id);
    const code = await h.latestCode(email);
    const res = await attempt(browser, id, wrong(code));
    assert.equal(res.status, 422);
    assert.equal(res.body.errors.length, 1);
    assert.equal(res.body.errors[0].code, 'form_code_incorrect');
    assert.equal(res.body.errors[0].meta.param_name, 'code');
    assert.equal(typeof res.body.errors[0].long_message, 'string');
    assert.equal(
      res.body.client.sign_up.verifications.email_address.attempts,
      1,
      'piggy-backed on the error',
    );

    const reloaded = await browser.get(`/client/sign_ups/${id}`);
    assert.equal(reloaded.status, 200);
    assert.equal(reloaded.body.response.status, 'missing_requirements');
    assert.equal(reloaded.body.response.verifications.email_address.status, 'unverified');
    assert.equal(reloaded.body.response.verifications.email_address.attempts, 1);

    const ok = await attempt(browser, id, code);
    assert.equal(ok.status, 200);
    assert.equal(ok.body.response.status, 'complete');
  });

  it('an attempt once the clock passes 10 minutes is 422 verification_expired; a new code then works', async () => {
    const browser = h.browser();
    const email = uniqueEmail();
    const id = await start(browser, email);
    await prepare(browser, id);
    const code = await h.latestCode(email);

    h.clock.advance(599);
    const early = await attempt(browser, id, wrong(code));
    assert.equal(early.status, 422);
    assert.equal(early.body.errors[0].code, 'form_code_incorrect', 'still valid at 9:59');

    h.clock.advance(2);
    const late = await attempt(browser, id, code);
    assert.equal(late.status, 422);
    assert.equal(late.body.errors[0].code, 'verification_expired');
    assert.equal(late.body.client.sign_up.verifications.email_address.status, 'expired');
    assert.equal(late.body.client.sign_up.status, 'missing_requirements');

    await prepare(browser, id);
    const fresh = await h.latestCode(email);
    const ok = await attempt(browser, id, fresh);
    assert.equal(ok.status, 200);
    assert.equal(ok.body.response.status, 'complete');
  });

  it('five wrong codes → verification_failed, and then even the right code is refused until a resend', async () => {
    const browser = h.browser();
    const email = uniqueEmail();
    const id = await start(browser, email);
    await prepare(browser, id);
    const code = await h.latestCode(email);
    for (let i = 1; i <= 4; i++) {
      const res = await attempt(browser, id, wrong(code));
      assert.equal(res.status, 422);
      assert.equal(res.body.errors[0].code, 'form_code_incorrect', `attempt ${i}`);
      assert.equal(res.body.client.sign_up.verifications.email_address.attempts, i);
    }
    const fifth = await attempt(browser, id, wrong(code));
    assert.equal(fifth.status, 422);
    assert.equal(fifth.body.errors[0].code, 'verification_failed');
    assert.equal(fifth.body.client.sign_up.verifications.email_address.status, 'failed');
    assert.equal(fifth.body.client.sign_up.verifications.email_address.attempts, 5);

    const right = await attempt(browser, id, code);
    assert.equal(right.status, 422);
    assert.equal(right.body.errors[0].code, 'verification_failed');

    await prepare(browser, id);
    const ok = await attempt(browser, id, await h.latestCode(email));
    assert.equal(ok.status, 200);
    assert.equal(ok.body.response.status, 'complete');
  });

  it('the right code completes the sign-up: user, active session with token, __client_uat', async () => {
    const browser = h.browser();
    const email = uniqueEmail('grace');
    const id = await start(browser, email, { password: PASSWORD, first_name: 'Grace' });
    await prepare(browser, id);
    const res = await attempt(browser, id, await h.latestCode(email));
    assert.equal(res.status, 200);

    const signUp = res.body.response;
    assert.equal(signUp.status, 'complete');
    assert.match(signUp.created_user_id, /^user_/);
    assert.match(signUp.created_session_id, /^sess_/);
    assert.deepEqual(signUp.missing_fields, []);
    assert.deepEqual(signUp.unverified_fields, []);
    assert.equal(signUp.verifications.email_address.status, 'verified');

    const client = res.body.client;
    assert.equal(client.sign_up, null, 'the finished attempt leaves the client');
    assert.equal(client.last_active_session_id, signUp.created_session_id);
    assert.equal(client.sessions.length, 1);
    const session = client.sessions[0];
    assert.equal(session.object, 'session');
    assert.equal(session.id, signUp.created_session_id);
    assert.equal(session.status, 'active');
    assert.equal(session.user.object, 'user');
    assert.equal(session.user.id, signUp.created_user_id);
    assert.equal(session.user.first_name, 'Grace');
    assert.equal(session.user.password_enabled, true);
    assert.equal(session.user.email_addresses.length, 1);
    assert.equal(session.user.email_addresses[0].email_address, email);
    assert.equal(session.user.email_addresses[0].verification.status, 'verified');
    assert.deepEqual(session.user.email_addresses[0].linked_to, []);
    assert.equal(session.user.primary_email_address_id, session.user.email_addresses[0].id);
    assert.equal(session.public_user_data.identifier, email);
    assert.equal(session.public_user_data.user_id, signUp.created_user_id);
    assert.equal(session.last_active_token.object, 'token');
    assert.equal(session.last_active_token.jwt.split('.').length, 3);
    assert.deepEqual(session.factor_verification_age, [0, -1]);

    const suffix = cookieSuffixOf(h.identity.publishableKey);
    for (const name of ['__client_uat', `__client_uat_${suffix}`]) {
      const cookie = res.setCookies.get(name);
      assert.ok(cookie, `${name} is set`);
      assert.match(cookie.value, /^\d+$/);
      assert.ok(Number(cookie.value) >= 1, `${name} is signed-in`);
      assert.equal(cookie.path, '/');
      assert.notEqual(cookie.httpOnly, true, `${name} is readable by clerk-js`);
    }
    const uat = Number(res.setCookies.get('__client_uat')!.value);
    assert.equal(uat, Math.floor(h.clock.now.getTime() / 1000), 'seconds, not milliseconds');
    const claims = decodeJwt(session.last_active_token.jwt);
    assert.ok(claims.iat! >= uat, 'the token is not older than __client_uat');
    assert.equal(claims.sub, signUp.created_user_id);
    assert.equal(claims.sid, signUp.created_session_id);

    const reloaded = await browser.get('/client');
    assert.equal(reloaded.body.response.sessions[0].id, signUp.created_session_id);
    assert.equal(
      await h.count('users u JOIN email_addresses e ON e.user_id = u.id', 'e.email_address = $1', [email]),
      1,
    );
  });

  it('a completed sign-up can no longer be acted on, and a signed-in browser cannot start another', async () => {
    const browser = h.browser();
    const email = uniqueEmail();
    const id = await start(browser, email);
    await prepare(browser, id);
    assert.equal((await attempt(browser, id, await h.latestCode(email))).status, 200);

    const again = await browser.post(`/client/sign_ups/${id}/prepare_verification`, {
      strategy: 'email_code',
    });
    assert.equal(again.status, 422);
    assert.equal(again.body.errors[0].code, 'sign_up_no_longer_actionable');

    const reloaded = await browser.get(`/client/sign_ups/${id}`);
    assert.equal(reloaded.status, 200);
    assert.equal(reloaded.body.response.status, 'complete');

    const second = await browser.post('/client/sign_ups', {
      email_address: uniqueEmail(),
      password: PASSWORD,
    });
    assert.equal(second.status, 422);
    assert.equal(second.body.errors[0].code, 'session_exists');
  });

  it('another browser cannot see or act on a sign-up (404 resource_not_found)', async () => {
    const owner = h.browser();
    const email = uniqueEmail();
    const id = await start(owner, email);
    const stranger = h.browser();
    for (const res of [
      await stranger.get(`/client/sign_ups/${id}`),
      await stranger.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'email_code' }),
      await stranger.patch(`/client/sign_ups/${id}`, { first_name: 'Mallory' }),
    ]) {
      assert.equal(res.status, 404);
      assert.equal(res.body.errors[0].code, 'resource_not_found');
    }
    assert.deepEqual(await h.mail(email), [], 'no code was sent for the stranger');
  });

  it('two browsers racing for one address: the second completion is 422 form_identifier_exists', async () => {
    const email = uniqueEmail('race');
    const first = h.browser();
    const second = h.browser();
    const firstId = await start(first, email);
    const secondId = await start(second, email);
    await prepare(first, firstId);
    const firstCode = await h.latestCode(email);
    await prepare(second, secondId);
    const secondCode = await h.latestCode(email);

    assert.equal((await attempt(first, firstId, firstCode)).status, 200);
    const lost = await attempt(second, secondId, secondCode);
    assert.equal(lost.status, 422);
    assert.equal(lost.body.errors[0].code, 'form_identifier_exists');
    assert.equal(lost.body.errors[0].meta.param_name, 'email_address');
    assert.equal(await h.count('email_addresses', 'email_address = $1', [email]), 1);
  });

  it('two browsers completing sign-ups for one address at the same moment: one wins, the other gets 422 form_identifier_exists', async () => {
    const email = uniqueEmail('simultaneous');
    const browsers = [h.browser(), h.browser()];
    const ids: string[] = [];
    const codes: string[] = [];
    for (const browser of browsers) {
      const id = await start(browser, email);
      await prepare(browser, id);
      ids.push(id);
      codes.push(await h.latestCode(email));
    }
    const results = await Promise.all(browsers.map((browser, i) => attempt(browser, ids[i]!, codes[i]!)));
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(
      statuses,
      [200, 422],
      JSON.stringify(results.map((r) => r.body.errors ?? r.body.response.status)),
    );
    const loser = results.find((r) => r.status !== 200)!;
    assert.equal(loser.body.errors[0].code, 'form_identifier_exists');
    assert.equal(loser.body.errors[0].meta.param_name, 'email_address');
    assert.equal(await h.count('email_addresses', 'email_address = $1', [email]), 1);
  });

  it('verifying the email first and supplying the password afterwards (the /continue route) completes the sign-up', async () => {
    const browser = h.browser();
    const email = uniqueEmail('continue');
    const created = await browser.post('/client/sign_ups', { email_address: email });
    const id = created.body.response.id;
    await prepare(browser, id);
    const verified = await attempt(browser, id, await h.latestCode(email));
    assert.equal(verified.status, 200);
    assert.equal(verified.body.response.status, 'missing_requirements');
    assert.deepEqual(verified.body.response.missing_fields, ['password']);
    assert.deepEqual(verified.body.response.unverified_fields, []);
    assert.equal(verified.body.response.verifications.email_address.status, 'verified');
    assert.deepEqual(verified.body.client.sessions, []);

    const done = await browser.patch(`/client/sign_ups/${id}`, { password: PASSWORD });
    assert.equal(done.status, 200);
    assert.equal(done.body.response.status, 'complete');
    assert.equal(done.body.client.sessions[0].id, done.body.response.created_session_id);
    assert.ok(Number(done.setCookies.get('__client_uat')?.value) >= 1);
  });

  it('changing the email address after verifying it needs a new verification', async () => {
    const browser = h.browser();
    const first = uniqueEmail('first');
    const id = await start(browser, first, {});
    await prepare(browser, id);
    await attempt(browser, id, await h.latestCode(first));
    const second = uniqueEmail('changed');
    const changed = await browser.patch(`/client/sign_ups/${id}`, { email_address: second });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.response.email_address, second);
    assert.deepEqual(changed.body.response.unverified_fields, ['email_address']);
    assert.equal(changed.body.response.verifications.email_address.next_action, 'needs_prepare');
  });

  it('an unfinished sign-up is abandoned after 24 hours: gone from the client and 404', async () => {
    const browser = h.browser();
    const id = await start(browser, uniqueEmail('abandoned'));
    h.clock.advance(24 * 3600 + 1);
    const client = await browser.get('/client');
    assert.equal(client.body.response.sign_up, null);
    const res = await browser.get(`/client/sign_ups/${id}`);
    assert.equal(res.status, 404);
    assert.equal(res.body.errors[0].code, 'resource_not_found');
  });

  it('the signUp helper flow yields a usable session', async () => {
    const browser = h.browser();
    const result = await signUp(h, browser, uniqueEmail());
    assert.match(result.userId, /^user_/);
    assert.match(result.sessionId, /^sess_/);
  });
});
