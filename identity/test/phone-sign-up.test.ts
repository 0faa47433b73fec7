import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Browser, type FapiResponse } from './support/harness.ts';
import { latestSmsCode, smsTo, uniquePhone, wrongCode } from './support/sms.ts';

function assertError(res: FapiResponse, status: number, code: string, param?: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, code);
  if (param !== undefined) assert.equal(res.body.errors[0].meta.param_name, param);
}

forEachBackend('sign-up with a phone number (phone_code)', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());
  beforeEach(() => h.clock.advance(61));

  /** Email, password and phone at once, as <SignUp/> sends them; the email code verified already. */
  async function startWithPhone(browser: Browser, phone: string, email = uniqueEmail('phone')) {
    const created = await browser.post('/client/sign_ups', {
      email_address: email,
      password: PASSWORD,
      phone_number: phone,
      first_name: '',
      last_name: '',
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id: string = created.body.response.id;
    await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'email_code' });
    const emailed = await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
      strategy: 'email_code',
      code: await h.latestCode(email),
    });
    assert.equal(emailed.status, 200, JSON.stringify(emailed.body));
    return { id, email, created: created.body.response, afterEmail: emailed.body.response };
  }

  it('the number is optional, normalised to E.164, and left to verify after the email address', async () => {
    const browser = h.browser();
    const phone = uniquePhone();
    const spaced = `+33 ${phone.slice(3, 4)} ${phone.slice(4, 6)} ${phone.slice(6, 8)} ${phone.slice(8, 10)} ${phone.slice(10)}`;
    const { created, afterEmail } = await startWithPhone(browser, spaced);
    assert.equal(created.phone_number, phone);
    assert.ok(created.optional_fields.includes('phone_number'));
    assert.deepEqual(created.unverified_fields, ['email_address', 'phone_number']);
    assert.equal(created.verifications.phone_number.status, 'unverified');
    assert.equal(created.verifications.phone_number.next_action, 'needs_prepare');
    assert.deepEqual(created.verifications.phone_number.supported_strategies, ['phone_code']);
    // The email code alone does not finish: the number waits (clerk-js goes to #/verify-phone-number).
    assert.equal(afterEmail.status, 'missing_requirements');
    assert.deepEqual(afterEmail.unverified_fields, ['phone_number']);
    assert.equal(afterEmail.created_user_id, null);
    // Without a number nothing changes for the email-only sign-up.
    const plain = await browser.post('/client/sign_ups', {
      email_address: uniqueEmail(),
      password: PASSWORD,
      phone_number: '',
    });
    assert.equal(plain.body.response.phone_number, null);
    assert.equal(plain.body.response.verifications.phone_number, null);
    assert.deepEqual(plain.body.response.unverified_fields, ['email_address']);
  });

  it('an invalid number is form_param_format_invalid; one owned by an account is form_identifier_exists', async () => {
    const browser = h.browser();
    for (const bad of ['0612345678', '+33 6 12', '+1 555', 'phone', '+999123456789']) {
      assertError(
        await browser.post('/client/sign_ups', {
          email_address: uniqueEmail(),
          password: PASSWORD,
          phone_number: bad,
        }),
        422,
        'form_param_format_invalid',
        'phone_number',
      );
    }
    // Owned: verified by a completed sign-up.
    const phone = uniquePhone();
    const owner = h.browser();
    const { id } = await startWithPhone(owner, phone);
    await owner.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'phone_code' });
    const done = await owner.post(`/client/sign_ups/${id}/attempt_verification`, {
      strategy: 'phone_code',
      code: await latestSmsCode(h, phone),
    });
    assert.equal(done.body.response.status, 'complete');
    assertError(
      await h
        .browser()
        .post('/client/sign_ups', { email_address: uniqueEmail(), password: PASSWORD, phone_number: phone }),
      422,
      'form_identifier_exists',
      'phone_number',
    );
  });

  it('prepare texts a code (hashed in the store), the right one completes with a verified primary number', async () => {
    const browser = h.browser({ headers: { 'accept-language': 'en' } });
    const phone = uniquePhone();
    const { id } = await startWithPhone(browser, phone);
    const prepared = await browser.post(`/client/sign_ups/${id}/prepare_verification`, {
      strategy: 'phone_code',
    });
    assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
    const v = prepared.body.response.verifications.phone_number;
    assert.equal(v.status, 'unverified');
    assert.equal(v.strategy, 'phone_code');
    assert.equal(v.next_action, 'needs_attempt');
    assert.ok(v.expire_at > h.clock.now.getTime());

    const [sms] = await smsTo(h, phone);
    assert.equal(sms!.to, phone);
    assert.match(sms!.text, /^\d{6} is your Qoala verification code\. It expires in 10 minutes\./);
    const code = await latestSmsCode(h, phone);
    const [stored] = await h.db.query<{ code_hash: string }>(
      'SELECT code_hash FROM verification_codes WHERE subject = $1',
      [`sign_up:${id}:${phone}`],
    );
    assert.notEqual(stored!.code_hash, code, 'only a keyed hash is stored');

    const done = await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
      strategy: 'phone_code',
      code,
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.response.status, 'complete');
    assert.equal(done.body.response.verifications.phone_number.status, 'verified');
    const user = done.body.client.sessions[0].user;
    assert.equal(user.phone_numbers.length, 1);
    const number = user.phone_numbers[0];
    assert.equal(number.object, 'phone_number');
    assert.match(number.id, /^idn_/);
    assert.equal(number.phone_number, phone);
    assert.equal(number.verification.status, 'verified');
    assert.equal(number.reserved_for_second_factor, false);
    assert.deepEqual(number.linked_to, []);
    assert.equal(user.primary_phone_number_id, number.id);
    assert.equal(user.two_factor_enabled, false);
    // The code is single use.
    assertError(
      await browser.post(`/client/sign_ups/${id}/attempt_verification`, { strategy: 'phone_code', code }),
      422,
      'sign_up_no_longer_actionable',
    );
  });

  it('wrong, expired and exhausted codes: form_code_incorrect, verification_expired, verification_failed', async () => {
    const browser = h.browser();
    const phone = uniquePhone();
    const { id } = await startWithPhone(browser, phone);
    assertError(
      await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
        strategy: 'phone_code',
        code: '123456',
      }),
      422,
      'verification_missing',
    );
    await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'phone_code' });
    const code = await latestSmsCode(h, phone);
    const wrong = await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
      strategy: 'phone_code',
      code: wrongCode(code),
    });
    assertError(wrong, 422, 'form_code_incorrect', 'code');
    assert.equal(wrong.body.client.sign_up.verifications.phone_number.attempts, 1);

    h.clock.advance(h.config.codeTtlSeconds + 1);
    const expired = await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
      strategy: 'phone_code',
      code,
    });
    assertError(expired, 422, 'verification_expired');
    assert.equal(expired.body.client.sign_up.verifications.phone_number.status, 'expired');

    // "Resend": a new code; the old one no longer works.
    await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'phone_code' });
    const fresh = await latestSmsCode(h, phone);
    let last: FapiResponse | undefined;
    for (let i = 0; i < h.config.maxCodeAttempts; i++) {
      last = await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
        strategy: 'phone_code',
        code: wrongCode(fresh),
      });
    }
    assertError(last!, 422, 'verification_failed');
    assert.equal(last!.body.client.sign_up.verifications.phone_number.status, 'failed');
    assertError(
      await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
        strategy: 'phone_code',
        code: fresh,
      }),
      422,
      'verification_failed',
    );
  });

  it('changing the number asks for a new verification; the old code is useless', async () => {
    const browser = h.browser();
    const first = uniquePhone();
    const { id } = await startWithPhone(browser, first);
    await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'phone_code' });
    const oldCode = await latestSmsCode(h, first);
    const second = uniquePhone();
    const patched = await browser.patch(`/client/sign_ups/${id}`, { phone_number: second });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.response.phone_number, second);
    assert.equal(patched.body.response.verifications.phone_number.next_action, 'needs_prepare');
    assertError(
      await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
        strategy: 'phone_code',
        code: oldCode,
      }),
      422,
      'verification_missing',
    );
  });

  it("Clerk's test numbers (+1 XXX 555-0100…0199) receive nothing and accept 424242", async () => {
    const browser = h.browser();
    const phone = `+1201555${String(100 + Math.floor(Math.random() * 100)).padStart(4, '0')}`;
    const { id } = await startWithPhone(browser, phone);
    await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'phone_code' });
    assert.deepEqual(await smsTo(h, phone), []);
    const done = await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
      strategy: 'phone_code',
      code: '424242',
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.response.status, 'complete');
    assert.equal(done.body.client.sessions[0].user.phone_numbers[0].phone_number, phone);
  });

  it('an unverified copy of the number on another account blocks nobody and goes at sign-up', async () => {
    const phone = uniquePhone();
    const squatter = h.browser();
    const squatterUser = await signUp(h, squatter, uniqueEmail('squatter'));
    assert.equal((await squatter.post('/me/phone_numbers', { phone_number: phone })).status, 200);
    const browser = h.browser();
    const { id } = await startWithPhone(browser, phone);
    await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'phone_code' });
    const done = await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
      strategy: 'phone_code',
      code: await latestSmsCode(h, phone),
    });
    assert.equal(done.body.response.status, 'complete');
    assert.equal(await h.count('phone_numbers', 'user_id = $1', [squatterUser.userId]), 0);
  });
});
