import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { decodeJwt } from 'jose';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Browser, type FapiResponse, type Json } from './support/harness.ts';
import { enrolTotp, totpCode, wrongTotpCode, type Enrolled } from './support/second-factors.ts';

const ELEVEN_MINUTES = 11 * 60;
const LOCKOUT = { maxFailedAttempts: 3, durationSeconds: 600 };

forEachBackend('re-verification (<UserVerification/>, session_reverification_required)', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend, { config: { lockout: LOCKOUT } });
  });
  after(() => h.close());
  beforeEach(() => h.clock.advance(61));

  interface Account {
    browser: Browser;
    email: string;
    userId: string;
    sessionId: string;
  }

  async function account(label = 'reverify'): Promise<Account> {
    const browser = h.browser();
    const email = uniqueEmail(label);
    const { userId, sessionId } = await signUp(h, browser, email);
    return { browser, email, userId, sessionId };
  }

  async function sessionOf(a: Account): Promise<Json> {
    const client = (await a.browser.get('/client')).body.response;
    return client.sessions.find((s: Json) => s.id === a.sessionId);
  }

  async function fva(a: Account): Promise<[number, number]> {
    const token = await a.browser.post(`/client/sessions/${a.sessionId}/tokens`);
    assert.equal(token.status, 200, JSON.stringify(token.body));
    return decodeJwt(token.body.jwt).fva as [number, number];
  }

  function assertReverificationRequired(res: FapiResponse) {
    assert.equal(res.status, 403, JSON.stringify(res.body));
    const [error] = res.body.errors;
    assert.equal(error.code, 'session_reverification_required');
    assert.deepEqual(error.meta, { reverification: { level: 'second_factor', afterMinutes: 10 } });
  }

  const verify = (a: Account, step: string, form: Record<string, string> = {}) =>
    a.browser.post(`/client/sessions/${a.sessionId}/verify${step}`, form);

  it('a new session reports its factor ages in minutes, in the session JSON and the token (fva)', async () => {
    const a = await account();
    assert.deepEqual((await sessionOf(a)).factor_verification_age, [0, -1]);
    assert.deepEqual(await fva(a), [0, -1]);
    h.clock.advance(185);
    assert.deepEqual((await sessionOf(a)).factor_verification_age, [3, -1]);
    assert.deepEqual(await fva(a), [3, -1]);
  });

  it('within 10 minutes of signing in, the account can be deleted at once', async () => {
    const a = await account();
    h.clock.advance(9 * 60);
    assert.equal((await a.browser.delete('/me')).status, 200);
  });

  it('a session older than 10 minutes gets 403 session_reverification_required for DELETE /me and change_password, and nothing changes', async () => {
    const a = await account();
    h.clock.advance(ELEVEN_MINUTES);
    assertReverificationRequired(await a.browser.delete('/me'));
    assertReverificationRequired(
      await a.browser.post('/me/change_password', {
        current_password: PASSWORD,
        new_password: 'another long passphrase',
      }),
    );
    assert.equal(await h.count('users', 'id = $1', [a.userId]), 1);
    const signIn = await h.browser().post('/client/sign_ins', {
      identifier: a.email,
      password: PASSWORD,
      strategy: 'password',
    });
    assert.equal(signIn.body.response.status, 'complete', 'the password is unchanged');
  });

  it('the environment turns re-verification on, and change_password then needs no current password (clerk-js sends none)', async () => {
    const env = await h.browser().get('/environment');
    assert.equal(env.body.auth_config.reverification, true);
    const a = await account();
    const changed = await a.browser.post('/me/change_password', { new_password: 'another long passphrase' });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    const wrong = await a.browser.post('/me/change_password', {
      current_password: 'not it',
      new_password: 'yet another long passphrase',
    });
    assert.equal(
      wrong.body.errors[0].code,
      'form_password_incorrect',
      'a current password sent must be right',
    );
    h.clock.advance(ELEVEN_MINUTES);
    assertReverificationRequired(
      await a.browser.post('/me/change_password', { new_password: 'yet another long passphrase' }),
    );
  });

  it('the password re-verifies: needs_first_factor → complete, the ages restart, and the action then passes', async () => {
    const a = await account();
    h.clock.advance(ELEVEN_MINUTES);
    assertReverificationRequired(await a.browser.delete('/me'));

    // clerk-js's modal asks for `second_factor`: with no second factor that means the first.
    const started = await verify(a, '', { level: 'second_factor' });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const sv = started.body.response;
    assert.equal(sv.object, 'session_verification');
    assert.match(sv.id, /^sessver_/);
    assert.equal(sv.status, 'needs_first_factor');
    assert.equal(sv.level, 'second_factor');
    assert.equal(sv.session.id, a.sessionId);
    assert.deepEqual(sv.session.factor_verification_age, [11, -1]);
    assert.deepEqual(
      sv.supported_first_factors.map((f: Json) => f.strategy),
      ['password', 'email_code'],
    );
    assert.equal(sv.supported_first_factors[1].safe_identifier, a.email);
    assert.equal(sv.supported_second_factors, null);
    assert.equal(sv.first_factor_verification, null);

    const wrong = await verify(a, '/attempt_first_factor', {
      strategy: 'password',
      password: 'nope nope nope',
    });
    assert.equal(wrong.status, 422);
    assert.equal(wrong.body.errors[0].code, 'form_password_incorrect');
    assert.equal(wrong.body.errors[0].meta.param_name, 'password');

    const done = await verify(a, '/attempt_first_factor', { strategy: 'password', password: PASSWORD });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.response.status, 'complete');
    assert.equal(done.body.response.first_factor_verification.status, 'verified');
    assert.equal(done.body.response.first_factor_verification.strategy, 'password');
    assert.deepEqual(done.body.response.session.factor_verification_age, [0, -1]);
    const piggyBacked = done.body.client.sessions.find((s: Json) => s.id === a.sessionId);
    assert.deepEqual(decodeJwt(piggyBacked.last_active_token.jwt).fva, [0, -1]);
    assert.deepEqual(await fva(a), [0, -1]);
    const [row] = await h.db.query<{ failed_verification_attempts: number }>(
      'SELECT failed_verification_attempts FROM users WHERE id = $1',
      [a.userId],
    );
    assert.equal(row!.failed_verification_attempts, 0, 'the right password clears the failures');

    assert.equal((await a.browser.delete('/me')).status, 200);
  });

  it('an emailed code re-verifies too; a wrong one is form_code_incorrect', async () => {
    const a = await account();
    h.clock.advance(ELEVEN_MINUTES);
    const started = (await verify(a, '', { level: 'first_factor' })).body.response;
    const emailFactor = started.supported_first_factors.find((f: Json) => f.strategy === 'email_code');
    const prepared = await verify(a, '/prepare_first_factor', {
      strategy: 'email_code',
      email_address_id: emailFactor.email_address_id,
    });
    assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
    assert.equal(prepared.body.response.first_factor_verification.status, 'unverified');
    assert.equal(prepared.body.response.first_factor_verification.strategy, 'email_code');
    const code = await h.latestCode(a.email);
    const bad = await verify(a, '/attempt_first_factor', {
      strategy: 'email_code',
      code: code === '000000' ? '111111' : '000000',
    });
    assert.equal(bad.body.errors[0].code, 'form_code_incorrect');
    const ok = await verify(a, '/attempt_first_factor', { strategy: 'email_code', code });
    assert.equal(ok.body.response.status, 'complete');
    const again = await verify(a, '/attempt_first_factor', { strategy: 'email_code', code });
    assert.equal(again.status, 422, 'a complete verification takes no more attempts');
    assert.equal(
      (
        await a.browser.post('/me/change_password', {
          current_password: PASSWORD,
          new_password: 'another long passphrase',
        })
      ).status,
      200,
    );
  });

  it('with an authenticator app: the second factor re-verifies (needs_second_factor), and removing the app needs it', async () => {
    const a = await account('reverify-mfa');
    const app: Enrolled = await enrolTotp(h, a.browser);
    assert.deepEqual((await sessionOf(a)).factor_verification_age, [0, 0]);
    h.clock.advance(ELEVEN_MINUTES);
    assert.deepEqual(await fva(a), [11, 11]);
    assertReverificationRequired(await a.browser.delete('/me/totp'));

    const started = (await verify(a, '', { level: 'second_factor' })).body.response;
    assert.equal(started.status, 'needs_second_factor');
    assert.deepEqual(
      started.supported_second_factors.map((f: Json) => f.strategy),
      ['totp', 'backup_code'],
    );
    const password = await verify(a, '/attempt_first_factor', { strategy: 'password', password: PASSWORD });
    assert.equal(password.status, 422, 'the second factor is what is asked');
    const wrong = await verify(a, '/attempt_second_factor', {
      strategy: 'totp',
      code: wrongTotpCode(app.secret, h.clock.now),
    });
    assert.equal(wrong.body.errors[0].code, 'form_code_incorrect');
    const done = await verify(a, '/attempt_second_factor', {
      strategy: 'totp',
      code: totpCode(app.secret, h.clock.now),
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.response.status, 'complete');
    assert.deepEqual(done.body.response.session.factor_verification_age, [11, 0]);
    assert.deepEqual(await fva(a), [11, 0]);
    assert.equal((await a.browser.delete('/me/totp')).status, 200);
  });

  it('multi_factor asks for both, first then second; a backup code serves as the second', async () => {
    const a = await account('reverify-multi');
    const app = await enrolTotp(h, a.browser);
    h.clock.advance(ELEVEN_MINUTES);
    const started = (await verify(a, '', { level: 'multi_factor' })).body.response;
    assert.equal(started.status, 'needs_first_factor');
    const first = await verify(a, '/attempt_first_factor', { strategy: 'password', password: PASSWORD });
    assert.equal(first.body.response.status, 'needs_second_factor');
    const second = await verify(a, '/attempt_second_factor', {
      strategy: 'backup_code',
      code: app.backupCodes[0]!,
    });
    assert.equal(second.body.response.status, 'complete');
    assert.deepEqual(second.body.response.session.factor_verification_age, [0, 0]);
  });

  it('attempts without a verification, on another browser, or on an unknown level are refused', async () => {
    const a = await account();
    const none = await verify(a, '/attempt_first_factor', { strategy: 'password', password: PASSWORD });
    assert.equal(none.status, 404);
    const level = await verify(a, '', { level: 'everything' });
    assert.equal(level.status, 422);
    assert.equal(level.body.errors[0].meta.param_name, 'level');
    const stranger = h.browser();
    const theirs = await stranger.post(`/client/sessions/${a.sessionId}/verify`, { level: 'first_factor' });
    assert.equal(theirs.status, 404, 'another browser cannot re-verify this session');
  });

  it('wrong passwords while re-verifying count towards the lockout; a locked account cannot re-verify', async () => {
    const a = await account();
    h.clock.advance(ELEVEN_MINUTES);
    await verify(a, '', { level: 'first_factor' });
    for (let i = 0; i < LOCKOUT.maxFailedAttempts; i++) {
      const res = await verify(a, '/attempt_first_factor', { strategy: 'password', password: `wrong ${i}` });
      assert.equal(res.body.errors[0].code, 'form_password_incorrect');
    }
    const locked = await verify(a, '/attempt_first_factor', { strategy: 'password', password: PASSWORD });
    assert.equal(locked.status, 403);
    assert.equal(locked.body.errors[0].code, 'user_locked');
    assert.equal(locked.body.errors[0].meta.lockout_expires_in_seconds, LOCKOUT.durationSeconds);
    assertReverificationRequired(await a.browser.delete('/me'));
  });
});
