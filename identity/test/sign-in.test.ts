import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { decodeJwt } from 'jose';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signInWithPassword, signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Browser, type FapiResponse } from './support/harness.ts';

forEachBackend('sign-in with a password', (backend) => {
  let h: Harness;
  let email: string;
  let userId: string;
  let emailId: string;
  before(async () => {
    h = await Harness.start(backend);
    email = uniqueEmail('ada');
    const result = await signUp(h, h.browser(), email, { firstName: 'Ada', lastName: 'Lovelace' });
    userId = result.userId;
    emailId = result.client.sessions[0].user.email_addresses[0].id;
  });
  after(() => h.close());
  // Each test in a fresh rate-limit window: they reuse one identifier and the clock stands still.
  beforeEach(() => h.clock.advance(61));

  function assertError(res: FapiResponse, status: number, code: string, param?: string) {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].code, code);
    if (param !== undefined) assert.equal(res.body.errors[0].meta.param_name, param);
  }

  async function identify(browser: Browser, identifier = email) {
    const res = await browser.post('/client/sign_ins', { identifier });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res;
  }

  it('an unknown identifier is 422 form_identifier_not_found (param identifier) and starts no sign-in', async () => {
    const before = await h.count('sign_ins');
    const res = await h.browser().post('/client/sign_ins', { identifier: uniqueEmail('nobody') });
    assertError(res, 422, 'form_identifier_not_found', 'identifier');
    assert.equal(await h.count('sign_ins'), before);
    assert.equal(res.body.client.sign_in, null);
    assert.deepEqual(res.body.client.sessions, []);
  });

  it('an identifier (any case) → needs_first_factor with password, email code and link, and the reset code last', async () => {
    const browser = h.browser();
    const res = await identify(browser, `  ${email.toUpperCase()} `);
    const signIn = res.body.response;
    assert.equal(signIn.object, 'sign_in');
    assert.match(signIn.id, /^sia_/);
    assert.equal(signIn.status, 'needs_first_factor');
    assert.equal(signIn.identifier, email);
    assert.deepEqual(signIn.supported_identifiers, ['email_address', 'phone_number', 'username']);
    assert.deepEqual(signIn.supported_first_factors, [
      { strategy: 'password' },
      { strategy: 'email_code', safe_identifier: email, email_address_id: emailId, primary: true },
      { strategy: 'email_link', safe_identifier: email, email_address_id: emailId, primary: true },
      {
        strategy: 'reset_password_email_code',
        safe_identifier: email,
        email_address_id: emailId,
        primary: true,
      },
    ]);
    assert.equal(signIn.user_data.first_name, 'Ada');
    assert.equal(signIn.user_data.last_name, 'Lovelace');
    assert.equal(signIn.first_factor_verification, null);
    assert.equal(signIn.created_session_id, null);
    assert.ok(res.setCookies.get('__client')?.httpOnly, 'the browser gets its client cookie');
    assert.deepEqual(res.body.client.sign_in, signIn, 'the piggy-backed client carries the same sign-in');
    assert.deepEqual(res.body.client.sessions, []);
  });

  it('a wrong password is 422 form_password_incorrect (param password) and opens no session', async () => {
    const browser = h.browser();
    const id = (await identify(browser)).body.response.id;
    const sessionsBefore = await h.count('sessions', 'user_id = $1', [userId]);
    const res = await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, {
      strategy: 'password',
      password: 'wrong password',
    });
    assertError(res, 422, 'form_password_incorrect', 'password');
    assert.equal(res.body.client.sign_in.status, 'needs_first_factor');
    assert.deepEqual(res.body.client.sessions, []);
    assert.equal(res.setCookies.has('__client_uat'), false);
    assert.equal(await h.count('sessions', 'user_id = $1', [userId]), sessionsBefore);
  });

  it('the right password → complete with an active session in the client and __client_uat', async () => {
    const browser = h.browser();
    const id = (await identify(browser)).body.response.id;
    h.clock.advance(5);
    const res = await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, {
      strategy: 'password',
      password: PASSWORD,
    });
    assert.equal(res.status, 200);
    const signIn = res.body.response;
    assert.equal(signIn.id, id);
    assert.equal(signIn.status, 'complete');
    assert.match(signIn.created_session_id, /^sess_/);
    assert.equal(signIn.first_factor_verification.status, 'verified');
    assert.equal(signIn.first_factor_verification.strategy, 'password');

    const client = res.body.client;
    assert.equal(client.sign_in, null);
    assert.equal(client.last_active_session_id, signIn.created_session_id);
    assert.equal(client.sessions.length, 1);
    const session = client.sessions[0];
    assert.equal(session.id, signIn.created_session_id);
    assert.equal(session.status, 'active');
    assert.equal(session.user.id, userId);
    assert.equal(session.user.email_addresses[0].email_address, email);

    const uat = Number(res.setCookies.get('__client_uat')?.value);
    assert.ok(uat >= 1);
    assert.ok(decodeJwt(session.last_active_token.jwt).iat! >= uat);
    const [user] = await h.db.query<{ last_sign_in_at: Date }>(
      'SELECT last_sign_in_at FROM users WHERE id = $1',
      [userId],
    );
    assert.equal(user!.last_sign_in_at.getTime(), h.clock.now.getTime());
  });

  it('instant password: a wrong one is 422 form_password_incorrect and leaves the sign-in at the first factor', async () => {
    const browser = h.browser();
    const res = await browser.post('/client/sign_ins', {
      identifier: email,
      password: 'wrong password',
      strategy: 'password',
    });
    assertError(res, 422, 'form_password_incorrect', 'password');
    assert.equal(res.body.client.sign_in.status, 'needs_first_factor');
    assert.equal(res.body.client.sign_in.identifier, email);
    assert.deepEqual(res.body.client.sessions, []);
  });

  it('instant password: the right one completes at once', async () => {
    const browser = h.browser();
    const res = await browser.post('/client/sign_ins', {
      identifier: email,
      password: PASSWORD,
      strategy: 'password',
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.response.status, 'complete');
    assert.equal(res.body.client.sessions[0].id, res.body.response.created_session_id);
    assert.equal(res.body.client.sessions[0].status, 'active');
    assert.equal(res.body.client.sign_in, null, 'a complete sign-in is no longer on the client');
    assert.equal(res.body.client.last_active_session_id, res.body.response.created_session_id);
  });

  it('strategy=password without a password is 422 form_param_nil; an unknown strategy 422 form_param_value_invalid', async () => {
    const browser = h.browser();
    assertError(
      await browser.post('/client/sign_ins', { identifier: email, strategy: 'password' }),
      422,
      'form_param_nil',
      'password',
    );
    assertError(
      await browser.post('/client/sign_ins', { identifier: email, strategy: 'web3_metamask_signature' }),
      422,
      'form_param_value_invalid',
      'strategy',
    );
    const id = (await identify(browser)).body.response.id;
    assertError(
      await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, {
        strategy: 'phone_code',
        code: '123456',
      }),
      422,
      'strategy_for_user_invalid',
      'strategy',
    );
    assertError(
      await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, { strategy: 'password' }),
      422,
      'form_param_nil',
      'password',
    );
  });

  it('a redirect_url off the allowed origins is 422 form_param_value_invalid and starts nothing', async () => {
    const signInsBefore = await h.count('sign_ins');
    const browser = h.browser();
    for (const name of ['redirect_url', 'action_complete_redirect_url']) {
      for (const target of ['https://evil.example/x', 'javascript:alert(1)', '//evil.example/']) {
        assertError(
          await browser.post('/client/sign_ins', { identifier: email, [name]: target }),
          422,
          'form_param_value_invalid',
          name,
        );
      }
    }
    assert.equal(await h.count('sign_ins'), signInsBefore);
    const ok = await browser.post('/client/sign_ins', {
      identifier: email,
      redirect_url: 'http://localhost:3000/dashboard',
    });
    assert.equal(ok.status, 200);
  });

  it('an empty body starts over at needs_identifier', async () => {
    const browser = h.browser();
    await identify(browser);
    const res = await browser.post('/client/sign_ins', {});
    assert.equal(res.status, 200);
    assert.equal(res.body.response.status, 'needs_identifier');
    assert.equal(res.body.response.identifier, null);
    assert.deepEqual(res.body.response.supported_first_factors, []);
    assert.equal(res.body.client.sign_in.id, res.body.response.id);
  });

  it('creating a sign-in or sign-up while signed in is 422 session_exists', async () => {
    const browser = h.browser();
    await signInWithPassword(browser, email);
    assertError(await browser.post('/client/sign_ins', { identifier: email }), 422, 'session_exists');
    assertError(
      await browser.post('/client/sign_ins', { identifier: email, password: PASSWORD, strategy: 'password' }),
      422,
      'session_exists',
    );
    assertError(
      await browser.post('/client/sign_ups', { email_address: uniqueEmail(), password: PASSWORD }),
      422,
      'session_exists',
    );
  });

  it('a completed sign-in is 422 sign_in_no_longer_actionable but can still be reloaded', async () => {
    const browser = h.browser();
    const id = (await identify(browser)).body.response.id;
    assert.equal(
      (
        await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, {
          strategy: 'password',
          password: PASSWORD,
        })
      ).status,
      200,
    );
    assertError(
      await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, {
        strategy: 'password',
        password: PASSWORD,
      }),
      422,
      'sign_in_no_longer_actionable',
    );
    const reloaded = await browser.get(`/client/sign_ins/${id}`);
    assert.equal(reloaded.status, 200);
    assert.equal(reloaded.body.response.status, 'complete');
  });

  it('passwords are taken verbatim, including leading and trailing spaces', async () => {
    const spaced = uniqueEmail('spaced');
    await signUp(h, h.browser(), spaced, { password: '  padded password  ' });
    const trimmed = await h
      .browser()
      .post('/client/sign_ins', { identifier: spaced, password: 'padded password', strategy: 'password' });
    assertError(trimmed, 422, 'form_password_incorrect', 'password');
    const exact = await h.browser().post('/client/sign_ins', {
      identifier: spaced,
      password: '  padded password  ',
      strategy: 'password',
    });
    assert.equal(exact.status, 200);
    assert.equal(exact.body.response.status, 'complete');
  });

  it('an unfinished sign-in is abandoned after 24 hours: gone from the client and 404', async () => {
    const browser = h.browser();
    const id = (await identify(browser)).body.response.id;
    h.clock.advance(24 * 3600 + 1);
    assert.equal((await browser.get('/client')).body.response.sign_in, null);
    assertError(
      await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, {
        strategy: 'password',
        password: PASSWORD,
      }),
      404,
      'resource_not_found',
    );
  });

  it("another browser's sign-in is 404 resource_not_found", async () => {
    const id = (await identify(h.browser())).body.response.id;
    const stranger = h.browser();
    assertError(await stranger.get(`/client/sign_ins/${id}`), 404, 'resource_not_found');
    assertError(
      await stranger.post(`/client/sign_ins/${id}/attempt_first_factor`, {
        strategy: 'password',
        password: PASSWORD,
      }),
      404,
      'resource_not_found',
    );
  });
});
