import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signInWithPassword, signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Browser, type FapiResponse } from './support/harness.ts';
import {
  enrolTotp,
  passwordUntilSecondFactor,
  totpCode,
  wrongTotpCode,
  type Enrolled,
} from './support/second-factors.ts';

const LOCKOUT = { maxFailedAttempts: 4, durationSeconds: 600 };

forEachBackend('sign-in with a second factor (needs_second_factor)', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());
  // A new 30 s step (so a code from the previous test is no reuse) and a fresh rate-limit window.
  beforeEach(() => h.clock.advance(61));

  function assertError(res: FapiResponse, status: number, code: string, param?: string) {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].code, code);
    if (param !== undefined) assert.equal(res.body.errors[0].meta.param_name, param);
  }

  /** A user who has added an authenticator app; its enrolment code is spent. */
  async function mfaUser(on: Harness = h): Promise<{ email: string; userId: string } & Enrolled> {
    const email = uniqueEmail('mfa');
    const browser = on.browser();
    const { userId } = await signUp(on, browser, email);
    const enrolled = await enrolTotp(on, browser);
    on.clock.advance(61);
    return { email, userId, ...enrolled };
  }

  async function secondFactor(browser: Browser, signInId: string, strategy: string, code: string) {
    return browser.post(`/client/sign_ins/${signInId}/attempt_second_factor`, { strategy, code });
  }

  function assertSignedIn(res: FapiResponse, userId: string, strategy: string) {
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const signIn = res.body.response;
    assert.equal(signIn.status, 'complete');
    assert.match(signIn.created_session_id, /^sess_/);
    assert.equal(signIn.second_factor_verification.status, 'verified');
    assert.equal(signIn.second_factor_verification.strategy, strategy);
    const session = res.body.client.sessions.find((s: { id: string }) => s.id === signIn.created_session_id);
    assert.ok(session, 'the new session is in the piggy-backed client');
    assert.equal(session.user.id, userId);
    assert.equal(session.user.two_factor_enabled, true);
    assert.ok(session.last_active_token.jwt);
    assert.equal(res.body.client.last_active_session_id, signIn.created_session_id);
  }

  it('a correct password is not enough: needs_second_factor with totp then backup_code, and no session yet', async () => {
    const { email, userId } = await mfaUser();
    const browser = h.browser();
    const sessionsBefore = await h.count('sessions', 'user_id = $1', [userId]);
    const res = await passwordUntilSecondFactor(browser, email, PASSWORD);
    const signIn = res.body.response;
    assert.deepEqual(signIn.supported_second_factors, [{ strategy: 'totp' }, { strategy: 'backup_code' }]);
    assert.equal(signIn.created_session_id, null);
    assert.equal(signIn.first_factor_verification.status, 'verified');
    assert.equal(signIn.first_factor_verification.strategy, 'password');
    assert.equal(signIn.second_factor_verification, null);
    assert.deepEqual(res.body.client.sessions, []);
    assert.equal(res.body.client.sign_in.status, 'needs_second_factor');
    assert.equal(await h.count('sessions', 'user_id = $1', [userId]), sessionsBefore);

    // The first screen's "instant password" leads to the same step.
    const instant = await h
      .browser()
      .post('/client/sign_ins', { identifier: email, password: PASSWORD, strategy: 'password' });
    assert.equal(instant.status, 200, JSON.stringify(instant.body));
    assert.equal(instant.body.response.status, 'needs_second_factor');
    assert.deepEqual(instant.body.client.sessions, []);
  });

  it('attempt_second_factor with the authenticator code completes the sign-in', async () => {
    const { email, userId, secret } = await mfaUser();
    const browser = h.browser();
    const id = (await passwordUntilSecondFactor(browser, email, PASSWORD)).body.response.id;
    const res = await secondFactor(browser, id, 'totp', totpCode(secret, h.clock.now));
    assertSignedIn(res, userId, 'totp');
    assert.equal(res.body.response.second_factor_verification.attempts, 1);
    assert.equal(res.body.client.sign_in, null, 'the finished attempt leaves the client');
    // The finished sign-in takes no further attempt.
    assertError(
      await secondFactor(browser, id, 'totp', totpCode(secret, h.clock.now, 1)),
      422,
      'sign_in_no_longer_actionable',
    );
  });

  it('the email code as first factor also leads to the second factor', async () => {
    const { email, userId, secret } = await mfaUser();
    const browser = h.browser();
    const started = await browser.post('/client/sign_ins', { identifier: email, strategy: 'email_code' });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const id = started.body.response.id;
    const res = await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, {
      strategy: 'email_code',
      code: await h.latestCode(email),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.response.status, 'needs_second_factor');
    assert.equal(res.body.response.first_factor_verification.strategy, 'email_code');
    assertSignedIn(await secondFactor(browser, id, 'totp', totpCode(secret, h.clock.now)), userId, 'totp');
  });

  it('a code is accepted once: reusing it, or an older step, is refused; a later step is not', async () => {
    const { email, userId, secret } = await mfaUser();
    const code = totpCode(secret, h.clock.now);
    const first = h.browser();
    const firstId = (await passwordUntilSecondFactor(first, email, PASSWORD)).body.response.id;
    assertSignedIn(await secondFactor(first, firstId, 'totp', code), userId, 'totp');

    const second = h.browser();
    const id = (await passwordUntilSecondFactor(second, email, PASSWORD)).body.response.id;
    assertError(await secondFactor(second, id, 'totp', code), 422, 'form_code_incorrect', 'code');
    const older = totpCode(secret, h.clock.now, -1);
    if (older !== code) {
      assertError(await secondFactor(second, id, 'totp', older), 422, 'form_code_incorrect', 'code');
    }
    assertSignedIn(await secondFactor(second, id, 'totp', totpCode(secret, h.clock.now, 1)), userId, 'totp');
  });

  it('one step either side of now is accepted, two steps are not', async () => {
    const { email, userId, secret } = await mfaUser();
    for (const steps of [-2, 2]) {
      const browser = h.browser();
      const id = (await passwordUntilSecondFactor(browser, email, PASSWORD)).body.response.id;
      const code = totpCode(secret, h.clock.now, steps);
      if ([-1, 0, 1].some((s) => totpCode(secret, h.clock.now, s) === code)) continue;
      assertError(await secondFactor(browser, id, 'totp', code), 422, 'form_code_incorrect', 'code');
    }
    for (const steps of [-1, 1]) {
      h.clock.advance(91);
      const browser = h.browser();
      const id = (await passwordUntilSecondFactor(browser, email, PASSWORD)).body.response.id;
      assertSignedIn(
        await secondFactor(browser, id, 'totp', totpCode(secret, h.clock.now, steps)),
        userId,
        'totp',
      );
    }
  });

  it('wrong codes are counted on the verification and towards the lockout', async () => {
    const strict = await Harness.start(backend, { config: { lockout: LOCKOUT } });
    try {
      const { email, secret } = await mfaUser(strict);
      const browser = strict.browser();
      const id = (await passwordUntilSecondFactor(browser, email, PASSWORD)).body.response.id;
      const wrong = wrongTotpCode(secret, strict.clock.now);
      for (let attempt = 1; attempt <= 2; attempt++) {
        const res = await secondFactor(browser, id, 'totp', wrong);
        assertError(res, 422, 'form_code_incorrect', 'code');
        const { status, strategy, attempts } = res.body.client.sign_in.second_factor_verification;
        assert.deepEqual(
          { status, strategy, attempts },
          { status: 'unverified', strategy: 'totp', attempts: attempt },
        );
      }
      assertError(
        await secondFactor(browser, id, 'backup_code', 'notacode'),
        422,
        'form_code_incorrect',
        'code',
      );
      // The fourth failure reaches the lockout: from then on even the right code is refused.
      assertError(await secondFactor(browser, id, 'totp', wrong), 422, 'form_code_incorrect', 'code');
      assertError(
        await secondFactor(browser, id, 'totp', totpCode(secret, strict.clock.now)),
        403,
        'user_locked',
      );
      assertError(await strict.browser().post('/client/sign_ins', { identifier: email }), 403, 'user_locked');
    } finally {
      await strict.close();
    }
  });

  it('too many wrong codes fail the verification: the sign-in must start over', async () => {
    const { email, secret } = await mfaUser();
    const browser = h.browser();
    const id = (await passwordUntilSecondFactor(browser, email, PASSWORD)).body.response.id;
    const wrong = wrongTotpCode(secret, h.clock.now);
    for (let attempt = 1; attempt < h.config.maxCodeAttempts; attempt++) {
      assertError(await secondFactor(browser, id, 'totp', wrong), 422, 'form_code_incorrect', 'code');
    }
    const last = await secondFactor(browser, id, 'totp', wrong);
    assertError(last, 422, 'verification_failed');
    assert.equal(last.body.client.sign_in.second_factor_verification.status, 'failed');
    assertError(
      await secondFactor(browser, id, 'totp', totpCode(secret, h.clock.now)),
      422,
      'verification_failed',
    );
    assert.deepEqual((await browser.get('/client')).body.response.sessions, []);
  });

  it('a backup code signs in once; regenerating the set invalidates the codes not yet used', async () => {
    const { email, userId, backupCodes } = await mfaUser();
    const [firstCode, secondCode, thirdCode] = backupCodes as [string, string, string];

    const one = h.browser();
    const oneId = (await passwordUntilSecondFactor(one, email, PASSWORD)).body.response.id;
    // People type them with capitals and spaces; the code is the same.
    assertSignedIn(
      await secondFactor(
        one,
        oneId,
        'backup_code',
        ` ${firstCode.slice(0, 4).toUpperCase()} ${firstCode.slice(4)} `,
      ),
      userId,
      'backup_code',
    );

    const two = h.browser();
    const twoId = (await passwordUntilSecondFactor(two, email, PASSWORD)).body.response.id;
    assertError(await secondFactor(two, twoId, 'backup_code', firstCode), 422, 'form_code_incorrect', 'code');
    assertSignedIn(await secondFactor(two, twoId, 'backup_code', secondCode), userId, 'backup_code');
    assert.equal(await h.count('backup_codes', 'user_id = $1 AND used_at IS NULL', [userId]), 8);

    const regenerated = await two.post('/me/backup_codes');
    assert.equal(regenerated.status, 200, JSON.stringify(regenerated.body));
    const fresh: string[] = regenerated.body.response.codes;

    const three = h.browser();
    const threeId = (await passwordUntilSecondFactor(three, email, PASSWORD)).body.response.id;
    assertError(
      await secondFactor(three, threeId, 'backup_code', thirdCode),
      422,
      'form_code_incorrect',
      'code',
    );
    assertSignedIn(await secondFactor(three, threeId, 'backup_code', fresh[0]!), userId, 'backup_code');
  });

  it('only the offered strategies, and only once the first factor is verified', async () => {
    const { email, secret } = await mfaUser();
    const browser = h.browser();
    const started = await browser.post('/client/sign_ins', { identifier: email });
    const id = started.body.response.id;
    assertError(
      await secondFactor(browser, id, 'totp', totpCode(secret, h.clock.now)),
      422,
      'strategy_for_user_invalid',
    );
    await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, {
      strategy: 'password',
      password: PASSWORD,
    });
    assertError(await secondFactor(browser, id, 'phone_code', '123456'), 422, 'no_second_factors');
    assertError(
      await browser.post(`/client/sign_ins/${id}/attempt_second_factor`, { strategy: 'totp' }),
      422,
      'form_param_nil',
      'code',
    );
    assertError(
      await secondFactor(h.browser(), id, 'totp', totpCode(secret, h.clock.now)),
      404,
      'resource_not_found',
    );
  });

  it('under a changed instance secret key the app no longer verifies (no error 500); backup codes still do', async () => {
    const { email, userId, secret, backupCodes } = await mfaUser();
    const rotated = await h.twin({ secretKey: 'sk_live_anotherinstancesecretkey00000000000000' });
    try {
      const browser = rotated.browser();
      const id = (await passwordUntilSecondFactor(browser, email, PASSWORD)).body.response.id;
      assertError(
        await secondFactor(browser, id, 'totp', totpCode(secret, h.clock.now)),
        422,
        'form_code_incorrect',
      );
      assertSignedIn(await secondFactor(browser, id, 'backup_code', backupCodes[0]!), userId, 'backup_code');
    } finally {
      await rotated.close();
    }
  });

  it('after the authenticator app is removed, the password alone signs in again', async () => {
    const { email, userId, secret } = await mfaUser();
    const browser = h.browser();
    const id = (await passwordUntilSecondFactor(browser, email, PASSWORD)).body.response.id;
    assertSignedIn(await secondFactor(browser, id, 'totp', totpCode(secret, h.clock.now)), userId, 'totp');
    const removed = await browser.delete('/me/totp');
    assert.equal(removed.status, 200, JSON.stringify(removed.body));

    const signedIn = await signInWithPassword(h.browser(), email);
    assert.equal(signedIn.userId, userId);
    assert.equal(signedIn.client.sessions[0].user.two_factor_enabled, false);
  });
});
