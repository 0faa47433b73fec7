import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signInWithPassword, signUp } from './support/flows.ts';
import { BAPI, Harness, uniqueEmail, type Browser, type FapiResponse, type Json } from './support/harness.ts';

const NEW_PASSWORD = 'purple elephants dance quietly';
const RESET = 'reset_password_email_code';
const wrong = (code: string) => code.replace(/^./, (d) => String((Number(d) + 1) % 10));

function assertError(res: FapiResponse, status: number, code: string, param?: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, code);
  if (param !== undefined) assert.equal(res.body.errors[0].meta.param_name, param);
}

forEachBackend('password reset', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend, {
      // Only the lock at 8 here; the delays before it are lockout-per-identifier.test.ts's.
      config: {
        lockout: { maxFailedAttempts: 8, durationSeconds: 600 },
        attemptDelay: { freeAttempts: 8, maxDelaySeconds: 600 },
      },
    });
  });
  after(() => h.close());
  // A fresh rate-limit window per test (the clock stands still otherwise).
  beforeEach(() => h.clock.advance(61));

  async function newUser(label = 'reset'): Promise<{ email: string; userId: string; emailId: string }> {
    const email = uniqueEmail(label);
    const { userId, client } = await signUp(h, h.browser(), email);
    return { email, userId, emailId: client.sessions[0].user.email_addresses[0].id };
  }

  /** Identifier, "Forgot password?" → "Reset your password": the sign-in id and the mailed code. */
  async function forgot(
    browser: Browser,
    email: string,
  ): Promise<{ id: string; code: string; res: FapiResponse }> {
    const created = await browser.post('/client/sign_ins', { identifier: email });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.response.id;
    const factor = created.body.response.supported_first_factors.at(-1);
    assert.equal(factor.strategy, RESET, 'the reset factor is listed last');
    const before = (await h.mail(email)).length;
    const res = await browser.post(`/client/sign_ins/${id}/prepare_first_factor`, {
      strategy: RESET,
      email_address_id: factor.email_address_id,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((await h.mail(email)).length, before + 1);
    return { id, code: await h.latestCode(email), res };
  }

  const attempt = (browser: Browser, id: string, code: string, extra: Record<string, string> = {}) =>
    browser.post(`/client/sign_ins/${id}/attempt_first_factor`, { strategy: RESET, code, ...extra });
  const reset = (browser: Browser, id: string, password: string, signOutOthers?: boolean) =>
    browser.post(`/client/sign_ins/${id}/reset_password`, {
      password,
      ...(signOutOthers === undefined ? {} : { sign_out_of_other_sessions: String(signOutOthers) }),
    });

  async function passwordWorks(email: string, password: string): Promise<boolean> {
    h.clock.advance(61);
    const browser = h.browser();
    const created = await browser.post('/client/sign_ins', { identifier: email });
    const res = await browser.post(`/client/sign_ins/${created.body.response.id}/attempt_first_factor`, {
      strategy: 'password',
      password,
    });
    if (res.status === 422 && res.body.errors[0].code === 'form_password_incorrect') return false;
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.response.status === 'complete';
  }

  const failures = async (userId: string) =>
    (await h.db.query<Json>('SELECT failed_verification_attempts AS n FROM users WHERE id = $1', [userId]))[0]
      .n;

  describe('forgot password: a code, then the new password', () => {
    it('prepare mails a reset code; the right code → needs_new_password without a session', async () => {
      const { email } = await newUser();
      const browser = h.browser({ headers: { 'accept-language': 'en' } });
      const { id, code, res } = await forgot(browser, email);
      assert.equal(res.body.response.status, 'needs_first_factor');
      assert.deepEqual(res.body.response.first_factor_verification, {
        object: 'verification',
        status: 'unverified',
        strategy: RESET,
        attempts: 0,
        expire_at: h.clock.now.getTime() + 600_000,
      });
      const [mail] = await h.mail(email);
      assert.match(mail!.subject, /password reset code/);
      assert.match(mail!.text, /reset your password/);

      const verified = await attempt(browser, id, code);
      assert.equal(verified.status, 200, JSON.stringify(verified.body));
      assert.equal(verified.body.response.status, 'needs_new_password');
      assert.equal(verified.body.response.first_factor_verification.status, 'verified');
      assert.equal(verified.body.response.first_factor_verification.strategy, RESET);
      assert.equal(verified.body.response.created_session_id, null);
      assert.deepEqual(verified.body.client.sessions, []);
      assert.equal(verified.body.client.sign_in.status, 'needs_new_password');
    });

    it('reset_password sets the new password and completes: the old one fails, the new one works', async () => {
      const { email, userId } = await newUser();
      const browser = h.browser();
      const { id, code } = await forgot(browser, email);
      await attempt(browser, id, code);
      const done = await reset(browser, id, NEW_PASSWORD, false);
      assert.equal(done.status, 200, JSON.stringify(done.body));
      assert.equal(done.body.response.status, 'complete');
      assert.match(done.body.response.created_session_id, /^sess_/);
      assert.equal(done.body.client.sessions[0].id, done.body.response.created_session_id);
      assert.equal(done.body.client.sessions[0].user.id, userId);
      assert.ok(Number(done.setCookies.get('__client_uat')?.value) >= 1);
      assert.equal(await passwordWorks(email, PASSWORD), false);
      assert.equal(await passwordWorks(email, NEW_PASSWORD), true);
    });

    it('sign_out_of_other_sessions=true revokes the other sessions; false leaves them', async () => {
      const { email, userId } = await newUser();
      const elsewhere = await signInWithPassword(h.browser(), email);
      const browser = h.browser();
      const first = await forgot(browser, email);
      await attempt(browser, first.id, first.code);
      const kept = await reset(browser, first.id, NEW_PASSWORD, false);
      assert.equal(kept.body.response.status, 'complete');
      const status = async (sessionId: string) =>
        (await h.db.query<Json>('SELECT status FROM sessions WHERE id = $1', [sessionId]))[0].status;
      assert.equal(await status(elsewhere.sessionId), 'active');

      h.clock.advance(61);
      const again = h.browser();
      const second = await forgot(again, email);
      await attempt(again, second.id, second.code);
      const done = await reset(again, second.id, 'another quiet purple evening', true);
      assert.equal(done.body.response.status, 'complete');
      assert.equal(await status(elsewhere.sessionId), 'revoked');
      assert.equal(await status(kept.body.response.created_session_id), 'revoked');
      assert.equal(await status(done.body.response.created_session_id), 'active');
      assert.equal(await h.count('sessions', "user_id = $1 AND status = 'active'", [userId]), 1);
    });

    it('the new password is checked against the policy; a refused one leaves the sign-in waiting', async () => {
      const { email } = await newUser();
      const browser = h.browser();
      const { id, code } = await forgot(browser, email);
      await attempt(browser, id, code);
      assertError(await reset(browser, id, 'short'), 422, 'form_password_length_too_short', 'password');
      assertError(await reset(browser, id, 'password123'), 422, 'form_password_pwned', 'password');
      assertError(
        await reset(browser, id, 'x'.repeat(73)),
        422,
        'form_password_size_in_bytes_exceeded',
        'password',
      );
      assertError(
        await browser.post(`/client/sign_ins/${id}/reset_password`, {}),
        422,
        'form_param_nil',
        'password',
      );
      const waiting = await browser.get(`/client/sign_ins/${id}`);
      assert.equal(waiting.body.response.status, 'needs_new_password');
      assert.equal((await reset(browser, id, NEW_PASSWORD)).body.response.status, 'complete');
    });

    it('reset_password before a verified reset code is 422 verification_missing', async () => {
      const { email } = await newUser();
      const browser = h.browser();
      const created = await browser.post('/client/sign_ins', { identifier: email });
      assertError(await reset(browser, created.body.response.id, NEW_PASSWORD), 422, 'verification_missing');
      const { id } = await forgot(browser, email);
      assertError(await reset(browser, id, NEW_PASSWORD), 422, 'verification_missing');
      assert.equal(await passwordWorks(email, PASSWORD), true);
    });

    it('a wrong code is 422 form_code_incorrect and counts towards the lockout', async () => {
      const { email, userId } = await newUser();
      const browser = h.browser();
      const { id, code } = await forgot(browser, email);
      const before = await failures(userId);
      const res = await attempt(browser, id, wrong(code));
      assertError(res, 422, 'form_code_incorrect', 'code');
      assert.equal(res.body.client.sign_in.first_factor_verification.attempts, 1);
      assert.equal(await failures(userId), before + 1);
      assert.equal((await attempt(browser, id, code)).body.response.status, 'needs_new_password');
    });

    it('five wrong codes → verification_failed; the right code is refused afterwards', async () => {
      const { email } = await newUser();
      const browser = h.browser();
      const { id, code } = await forgot(browser, email);
      for (let i = 1; i <= 4; i++)
        assertError(await attempt(browser, id, wrong(code)), 422, 'form_code_incorrect');
      const fifth = await attempt(browser, id, wrong(code));
      assertError(fifth, 422, 'verification_failed');
      assert.equal(fifth.body.client.sign_in.first_factor_verification.status, 'failed');
      assertError(await attempt(browser, id, code), 422, 'verification_failed');
      assertError(await reset(browser, id, NEW_PASSWORD), 422, 'verification_missing');
    });

    it('a code attempted after 10 minutes is 422 verification_expired', async () => {
      const { email } = await newUser();
      const browser = h.browser();
      const { id, code } = await forgot(browser, email);
      h.clock.advance(10 * 60 + 1);
      const res = await attempt(browser, id, code);
      assertError(res, 422, 'verification_expired');
      assert.equal(res.body.client.sign_in.first_factor_verification.status, 'expired');
    });

    it('a code is single use: a resend replaces it, a spent one is refused', async () => {
      const { email } = await newUser();
      const browser = h.browser();
      const { id, code: first } = await forgot(browser, email);
      await browser.post(`/client/sign_ins/${id}/prepare_first_factor`, { strategy: RESET });
      const second = await h.latestCode(email);
      if (second !== first) assertError(await attempt(browser, id, first), 422, 'form_code_incorrect');
      assert.equal((await attempt(browser, id, second)).body.response.status, 'needs_new_password');
      assertError(await attempt(browser, id, second), 422, 'verification_missing');
    });

    it('attempting before preparing is 422 verification_missing; a missing code 422 form_param_nil', async () => {
      const { email } = await newUser();
      const browser = h.browser();
      const created = await browser.post('/client/sign_ins', { identifier: email });
      const id = created.body.response.id;
      assertError(await attempt(browser, id, '123456'), 422, 'verification_missing');
      assertError(
        await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, { strategy: RESET }),
        422,
        'form_param_nil',
        'code',
      );
    });

    it('the code and the new password at once (custom flows) complete the sign-in', async () => {
      const { email } = await newUser();
      const browser = h.browser();
      const created = await browser.post('/client/sign_ins', { identifier: email, strategy: RESET });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      assert.equal(created.body.response.first_factor_verification.strategy, RESET);
      const id = created.body.response.id;
      const code = await h.latestCode(email);
      // A refused password leaves the code unspent.
      assertError(
        await attempt(browser, id, code, { password: 'short' }),
        422,
        'form_password_length_too_short',
      );
      const done = await attempt(browser, id, code, { password: NEW_PASSWORD });
      assert.equal(done.status, 200, JSON.stringify(done.body));
      assert.equal(done.body.response.status, 'complete');
      assert.equal(await passwordWorks(email, NEW_PASSWORD), true);
    });

    it('repeated wrong reset codes lock the account like other codes', async () => {
      const { email, userId } = await newUser();
      await h.db.query('UPDATE users SET failed_verification_attempts = 6 WHERE id = $1', [userId]);
      const browser = h.browser();
      const { id, code } = await forgot(browser, email);
      assertError(await attempt(browser, id, wrong(code)), 422, 'form_code_incorrect');
      assertError(await attempt(browser, id, wrong(code)), 422, 'form_code_incorrect');
      const locked = await attempt(browser, id, code);
      assertError(locked, 403, 'user_locked');
      assert.equal(locked.body.errors[0].meta.lockout_expires_in_seconds, 600);
    });
  });

  describe('an operator requires a new password', () => {
    const bapi = (method: 'POST' | 'DELETE', userId: string, key: string | null = h.identity.secretKey) =>
      h.app.inject({
        method,
        url: `${BAPI}/v1/users/${userId}/require_password_reset`,
        headers: key === null ? {} : { authorization: `Bearer ${key}` },
      });

    it('after POST require_password_reset a correct password → needs_new_password, then reset_password → complete', async () => {
      const { email, userId } = await newUser('forced');
      const marked = await bapi('POST', userId);
      assert.equal(marked.statusCode, 200, marked.body);
      assert.equal(marked.headers['content-type'], 'application/json');
      assert.equal(marked.json().id, userId);

      const browser = h.browser();
      const created = await browser.post('/client/sign_ins', { identifier: email });
      const id = created.body.response.id;
      assertError(
        await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, {
          strategy: 'password',
          password: 'not the password',
        }),
        422,
        'form_password_incorrect',
        'password',
      );
      const waiting = await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, {
        strategy: 'password',
        password: PASSWORD,
      });
      assert.equal(waiting.status, 200, JSON.stringify(waiting.body));
      assert.equal(waiting.body.response.status, 'needs_new_password');
      assert.equal(waiting.body.response.first_factor_verification.strategy, 'password');
      assert.equal(waiting.body.response.created_session_id, null);
      assert.deepEqual(waiting.body.client.sessions, []);

      const done = await reset(browser, id, NEW_PASSWORD, true);
      assert.equal(done.status, 200, JSON.stringify(done.body));
      assert.equal(done.body.response.status, 'complete');
      // The demand is met: the next password sign-in completes.
      assert.equal(await passwordWorks(email, NEW_PASSWORD), true);
      assert.equal(await passwordWorks(email, PASSWORD), false);
    });

    it('the instant password (identifier and password at once) also leads to needs_new_password', async () => {
      const { email, userId } = await newUser('forced');
      await bapi('POST', userId);
      const res = await h.browser().post('/client/sign_ins', { identifier: email, password: PASSWORD });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.response.status, 'needs_new_password');
      assert.deepEqual(res.body.client.sessions, []);
    });

    it('an email code still signs in (the demand is about the password), and DELETE withdraws the demand', async () => {
      const { email, userId } = await newUser('forced');
      await bapi('POST', userId);
      const browser = h.browser();
      const created = await browser.post('/client/sign_ins', { identifier: email, strategy: 'email_code' });
      const done = await browser.post(`/client/sign_ins/${created.body.response.id}/attempt_first_factor`, {
        strategy: 'email_code',
        code: await h.latestCode(email),
      });
      assert.equal(done.body.response.status, 'complete');
      assert.equal(await passwordWorks(email, PASSWORD), false, 'the password still needs replacing');
      const withdrawn = await bapi('DELETE', userId);
      assert.equal(withdrawn.statusCode, 200);
      assert.equal(await passwordWorks(email, PASSWORD), true);
    });

    it('an unknown user is 404; without the secret key 401', async () => {
      const missing = await bapi('POST', 'user_missing');
      assert.equal(missing.statusCode, 404);
      assert.equal(missing.json().errors[0].code, 'resource_not_found');
      const { userId } = await newUser('forced');
      const anonymous = await bapi('POST', userId, null);
      assert.equal(anonymous.statusCode, 401);
      assert.equal(anonymous.json().errors[0].code, 'clerk_key_invalid');
      assert.equal(await passwordWorks((await userEmail(userId))!, PASSWORD), true, 'nothing changed');
    });
  });

  async function userEmail(userId: string): Promise<string | undefined> {
    const [row] = await h.db.query<Json>('SELECT email_address FROM email_addresses WHERE user_id = $1', [
      userId,
    ]);
    return row?.email_address;
  }
});
