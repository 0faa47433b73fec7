import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { backendApiClient } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import {
  Harness,
  RAISED_SEND_LIMITS,
  uniqueEmail,
  type Browser,
  type FapiResponse,
} from './support/harness.ts';
import { enrolTotp, passwordUntilSecondFactor, totpCode, wrongTotpCode } from './support/second-factors.ts';

// The attack of issue #11: guesses for one address spread over many IP addresses.
const IPS = Array.from({ length: 9 }, (_, i) => `203.0.113.${i + 1}`);

forEachBackend('lockout per identifier', (backend) => {
  let h: Harness;
  before(async () => {
    // The default delays (5 free failures, then 1 s doubling up to 10 min) and lockout (100, one hour).
    // The code tests mail one address more often than the per-recipient limit allows: it is raised here.
    h = await Harness.start(backend, {
      config: {
        sendLimits: RAISED_SEND_LIMITS,
      },
    });
  });
  after(() => h.close());

  /** A user signed up on `owner` (which thereby knows the account) and signed out again. */
  async function newUser(on: Harness, owner: Browser = on.browser()): Promise<string> {
    const email = uniqueEmail('per-id');
    await signUp(on, owner, email);
    const out = await owner.delete('/client/sessions');
    assert.equal(out.status, 200, JSON.stringify(out.body));
    return email;
  }

  /** Identifier then one password, as the sign-in card sends them, from a browser at the i-th address. */
  async function guess(
    on: Harness,
    browser: Browser,
    email: string,
    password: string,
  ): Promise<FapiResponse> {
    const created = await browser.post('/client/sign_ins', { identifier: email });
    if (created.status !== 200) return created;
    return browser.post(`/client/sign_ins/${created.body.response.id}/attempt_first_factor`, {
      strategy: 'password',
      password,
    });
  }

  function assertError(res: FapiResponse, status: number, code: string) {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].code, code, JSON.stringify(res.body));
  }

  function assertDelayed(res: FapiResponse, seconds: number) {
    assertError(res, 429, 'too_many_requests');
    assert.equal(res.headers['retry-after'], String(seconds));
  }

  it('wrong passwords from many addresses are delayed per account: after 5, each waits 1 s, 2 s, 4 s…; a refused guess is not counted', async () => {
    const email = await newUser(h);
    const browsers = IPS.map((ip) => h.browser({ ip }));
    for (let i = 0; i < 5; i++) {
      assertError(await guess(h, browsers[i]!, email, `wrong ${i}`), 422, 'form_password_incorrect');
    }
    // Another address, at once: the account waits, whoever asks, and the right password is no exception.
    assertDelayed(await guess(h, browsers[5]!, email, 'wrong 5'), 1);
    assertDelayed(await guess(h, h.browser(), email, PASSWORD), 1);
    h.clock.advance(1);
    assertError(await guess(h, browsers[6]!, email, 'wrong 6'), 422, 'form_password_incorrect');
    // The refused guesses above counted nothing: the 6th failure asks for 2 s, not more.
    assertDelayed(await guess(h, browsers[7]!, email, 'wrong 7'), 2);
    h.clock.advance(2);
    assertError(await guess(h, browsers[8]!, email, 'wrong 8'), 422, 'form_password_incorrect');
    assertDelayed(await guess(h, browsers[0]!, email, 'wrong 9'), 4);
    // The delay runs out by itself for the owner too.
    h.clock.advance(4);
    const ok = await guess(h, h.browser(), email, PASSWORD);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.response.status, 'complete');
  });

  it('reaching the 100-failure lockout takes many hours of waiting, not seconds', async () => {
    const email = await newUser(h);
    const started = h.clock.now.getTime();
    let failures = 0;
    let refused = 0;
    for (let n = 0; failures < 100; n++) {
      const res = await guess(h, h.browser({ ip: IPS[n % IPS.length]! }), email, `wrong ${n}`);
      if (res.status === 429) {
        refused++;
        h.clock.advance(Number(res.headers['retry-after']));
        continue;
      }
      assertError(res, 422, 'form_password_incorrect');
      failures++;
    }
    assert.ok(refused >= 95, `${refused} guesses refused`);
    const hours = (h.clock.now.getTime() - started) / 3_600_000;
    assert.ok(hours > 12, `the lockout was reached after ${hours.toFixed(2)} hours`);
    assertError(await guess(h, h.browser(), email, PASSWORD), 403, 'user_locked');
  });

  it("the owner's browser signs in with the right password during a lock and a delay others caused; an unknown browser cannot", async () => {
    const strict = await Harness.start(backend, {
      config: { lockout: { maxFailedAttempts: 8, durationSeconds: 600 } },
    });
    try {
      const owner = strict.browser();
      const email = await newUser(strict, owner);
      for (let i = 0; i < 5; i++) {
        assertError(
          await guess(strict, strict.browser({ ip: IPS[i]! }), email, `wrong ${i}`),
          422,
          'form_password_incorrect',
        );
      }
      // During the delay: others wait, the owner's browser does not.
      assertDelayed(await guess(strict, strict.browser(), email, PASSWORD), 1);
      const during = await guess(strict, owner, email, PASSWORD);
      assert.equal(during.status, 200, JSON.stringify(during.body));
      assert.equal(during.body.response.status, 'complete');
      assert.equal((await owner.delete('/client/sessions')).status, 200);

      // The attack goes on until the account is locked (the owner's sign-in did not lift the delay for it).
      let failures = 5;
      while (failures < 8) {
        const res = await guess(strict, strict.browser({ ip: IPS[failures]! }), email, `wrong ${failures}`);
        if (res.status === 429) {
          strict.clock.advance(Number(res.headers['retry-after']));
          continue;
        }
        assertError(res, 422, 'form_password_incorrect');
        failures++;
      }
      const stranger = strict.browser();
      assertError(await stranger.post('/client/sign_ins', { identifier: email }), 403, 'user_locked');
      assertError(
        await stranger.post('/client/sign_ins', {
          identifier: email,
          password: PASSWORD,
          strategy: 'password',
        }),
        403,
        'user_locked',
      );

      // The owner's browser: a wrong password still counts (its own), the right one opens the session.
      assertError(await guess(strict, owner, email, 'my old password'), 422, 'form_password_incorrect');
      const locked = await guess(strict, owner, email, PASSWORD);
      assert.equal(locked.status, 200, JSON.stringify(locked.body));
      assert.equal(locked.body.response.status, 'complete');
      // …and the lock others caused holds for everyone else.
      assertError(await strict.browser().post('/client/sign_ins', { identifier: email }), 403, 'user_locked');
      assert.equal((await owner.delete('/client/sessions')).status, 200);

      // A known browser that guesses itself (its 5th wrong password since its last sign-in) loses the exception.
      for (let i = 0; i < 5; i++) {
        assertError(await guess(strict, owner, email, `owner guess ${i}`), 422, 'form_password_incorrect');
      }
      assertError(await guess(strict, owner, email, PASSWORD), 403, 'user_locked');
    } finally {
      await strict.close();
    }
  });

  it("an operator's lock holds for the owner's browser too", async () => {
    const owner = h.browser();
    const email = await newUser(h, owner);
    const api = await backendApiClient(h);
    const [user] = (await api.users.getUserList({ emailAddress: [email] })).data;
    await api.users.lockUser(user!.id);
    assertError(await owner.post('/client/sign_ins', { identifier: email }), 403, 'user_locked');
    await api.users.unlockUser(user!.id);
  });

  it('wrong email codes and second-factor codes count per account too, and wait out the same delays', async () => {
    // Email codes: five sign-ins from five addresses, one wrong code each; the sixth waits.
    const email = await newUser(h);
    const codeSignIn = async (browser: Browser) => {
      const res = await browser.post('/client/sign_ins', { identifier: email, strategy: 'email_code' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.response.id as string;
    };
    const wrongCode = (browser: Browser, id: string) =>
      browser.post(`/client/sign_ins/${id}/attempt_first_factor`, { strategy: 'email_code', code: '000000' });
    for (let i = 0; i < 5; i++) {
      const browser = h.browser({ ip: IPS[i]! });
      const res = await wrongCode(browser, await codeSignIn(browser));
      // 000000 may, once in a million, be the code; then the count is off by one and this fails loudly.
      assertError(res, 422, 'form_code_incorrect');
    }
    const late = h.browser({ ip: IPS[5]! });
    assertDelayed(await wrongCode(late, await codeSignIn(late)), 1);

    // Authenticator codes after the password, from several addresses.
    const owner = h.browser();
    const mfaEmail = uniqueEmail('per-id-mfa');
    await signUp(h, owner, mfaEmail);
    const { secret } = await enrolTotp(h, owner);
    assert.equal((await owner.delete('/client/sessions')).status, 200);
    const secondFactor = (browser: Browser, id: string, code: string) =>
      browser.post(`/client/sign_ins/${id}/attempt_second_factor`, { strategy: 'totp', code });
    for (let i = 0; i < 5; i++) {
      const browser = h.browser({ ip: IPS[i]! });
      const id = (await passwordUntilSecondFactor(browser, mfaEmail, PASSWORD)).body.response.id;
      assertError(
        await secondFactor(browser, id, wrongTotpCode(secret, h.clock.now)),
        422,
        'form_code_incorrect',
      );
    }
    const next = h.browser({ ip: IPS[5]! });
    const first = await next.post('/client/sign_ins', { identifier: mfaEmail });
    assertDelayed(
      await next.post(`/client/sign_ins/${first.body.response.id}/attempt_first_factor`, {
        strategy: 'password',
        password: PASSWORD,
      }),
      1,
    );
    // The owner's browser passes both factors meanwhile.
    const id = (await passwordUntilSecondFactor(owner, mfaEmail, PASSWORD)).body.response.id;
    // The next step's code: the enrolment spent this one.
    const done = await secondFactor(owner, id, totpCode(secret, h.clock.now, 1));
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.response.status, 'complete');
  });
});
