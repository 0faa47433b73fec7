import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Browser, type FapiResponse, type Json } from './support/harness.ts';
import {
  addVerifiedPhone,
  latestSmsCode,
  reserveForSecondFactor,
  smsTo,
  uniquePhone,
  wrongCode,
} from './support/sms.ts';

const NEW_PASSWORD = 'purple elephants dance quietly';

function assertError(res: FapiResponse, status: number, code: string, param?: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, code);
  if (param !== undefined) assert.equal(res.body.errors[0].meta.param_name, param);
}

forEachBackend('sign-in with a phone number (phone_code first factor)', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend, { config: { lockout: { maxFailedAttempts: 4, durationSeconds: 600 } } });
  });
  after(() => h.close());
  // A fresh rate-limit window per test (the clock stands still otherwise).
  beforeEach(() => h.clock.advance(61));

  async function phoneUser(): Promise<{
    email: string;
    phone: string;
    userId: string;
    phoneId: string;
    emailId: string;
  }> {
    const email = uniqueEmail('phone-in');
    const browser = h.browser();
    const { userId, client } = await signUp(h, browser, email);
    const phone = uniquePhone();
    const added = await addVerifiedPhone(h, browser, phone);
    return {
      email,
      phone,
      userId,
      phoneId: added.id,
      emailId: client.sessions[0].user.email_addresses[0].id,
    };
  }

  async function identify(browser: Browser, identifier: string): Promise<Json> {
    const res = await browser.post('/client/sign_ins', { identifier });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.response;
  }

  const attempt = (browser: Browser, id: string, code: string) =>
    browser.post(`/client/sign_ins/${id}/attempt_first_factor`, { strategy: 'phone_code', code });

  it('the number in any formatting identifies the account: phone_code shown whole, the email masked, the phone reset first', async () => {
    const { phone, phoneId, email, emailId } = await phoneUser();
    const formatted = `+33 (0)${phone.slice(3, 4)} ${phone.slice(4, 6)}-${phone.slice(6, 8)}.${phone.slice(8)}`;
    const signIn = await identify(h.browser(), formatted.replace('(0)', ''));
    assert.equal(signIn.status, 'needs_first_factor');
    assert.equal(signIn.identifier, phone);
    assert.ok(signIn.supported_identifiers.includes('phone_number'));
    const masked = `${email[0]}***${email.slice(email.indexOf('@'))}`;
    assert.deepEqual(
      signIn.supported_first_factors.map((f: Json) => [f.strategy, f.safe_identifier ?? null]),
      [
        ['password', null],
        ['email_code', masked],
        ['email_link', masked],
        ['phone_code', phone],
        ['reset_password_phone_code', phone],
        ['reset_password_email_code', masked],
      ],
    );
    const factor = signIn.supported_first_factors.find((f: Json) => f.strategy === 'phone_code');
    assert.equal(factor.phone_number_id, phoneId);
    assert.equal(factor.primary, true);
    const emailFactor = signIn.supported_first_factors.find((f: Json) => f.strategy === 'email_code');
    assert.equal(emailFactor.email_address_id, emailId);
  });

  it('identified by email, the phone factor is offered masked as Clerk masks it', async () => {
    const { phone, email } = await phoneUser();
    const signIn = await identify(h.browser(), email);
    const factor = signIn.supported_first_factors.find((f: Json) => f.strategy === 'phone_code');
    assert.equal(
      factor.safe_identifier,
      `+${phone.slice(1, 3)}${'*'.repeat(phone.length - 5)}${phone.slice(-2)}`,
    );
    assert.equal(
      signIn.supported_first_factors.some((f: Json) => f.strategy === 'reset_password_phone_code'),
      false,
    );
  });

  it('prepare texts a code to the number; the right code completes the sign-in', async () => {
    const { phone, phoneId, userId } = await phoneUser();
    const browser = h.browser();
    const { id } = await identify(browser, phone);
    const before = (await smsTo(h, phone)).length;
    const prepared = await browser.post(`/client/sign_ins/${id}/prepare_first_factor`, {
      strategy: 'phone_code',
      phone_number_id: phoneId,
    });
    assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
    assert.equal(prepared.body.response.first_factor_verification.strategy, 'phone_code');
    assert.equal(prepared.body.response.first_factor_verification.status, 'unverified');
    assert.equal((await smsTo(h, phone)).length, before + 1);
    const done = await attempt(browser, id, await latestSmsCode(h, phone));
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.response.status, 'complete');
    assert.equal(done.body.response.first_factor_verification.status, 'verified');
    const session = done.body.client.sessions.find(
      (s: Json) => s.id === done.body.response.created_session_id,
    );
    assert.equal(session.user.id, userId);
  });

  it('strategy=phone_code at creation texts the code at once (custom flows)', async () => {
    const { phone } = await phoneUser();
    const browser = h.browser();
    const res = await browser.post('/client/sign_ins', { identifier: phone, strategy: 'phone_code' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.response.first_factor_verification.strategy, 'phone_code');
    const done = await attempt(browser, res.body.response.id, await latestSmsCode(h, phone));
    assert.equal(done.body.response.status, 'complete');
  });

  it('wrong codes are form_code_incorrect and count towards the lockout; expired codes verification_expired', async () => {
    const { phone, email } = await phoneUser();
    const browser = h.browser();
    const { id } = await identify(browser, phone);
    assertError(await attempt(browser, id, '123456'), 422, 'verification_missing');
    await browser.post(`/client/sign_ins/${id}/prepare_first_factor`, { strategy: 'phone_code' });
    const code = await latestSmsCode(h, phone);
    const wrong = await attempt(browser, id, wrongCode(code));
    assertError(wrong, 422, 'form_code_incorrect', 'code');
    assert.equal(wrong.body.client.sign_in.first_factor_verification.attempts, 1);
    h.clock.advance(h.config.codeTtlSeconds + 1);
    assertError(await attempt(browser, id, code), 422, 'verification_expired');

    // Three more wrong codes (four with the first) lock the account, whatever the identifier.
    await browser.post(`/client/sign_ins/${id}/prepare_first_factor`, { strategy: 'phone_code' });
    const fresh = await latestSmsCode(h, phone);
    for (let i = 0; i < 3; i++)
      assertError(await attempt(browser, id, wrongCode(fresh)), 422, 'form_code_incorrect');
    assertError(await attempt(browser, id, fresh), 403, 'user_locked');
    assertError(await h.browser().post('/client/sign_ins', { identifier: email }), 403, 'user_locked');
  });

  it("a user without a phone number, or another account's number id, cannot use phone_code", async () => {
    const email = uniqueEmail('nophone');
    await signUp(h, h.browser(), email);
    const browser = h.browser();
    const { id } = await identify(browser, email);
    assertError(
      await browser.post(`/client/sign_ins/${id}/prepare_first_factor`, { strategy: 'phone_code' }),
      422,
      'strategy_for_user_invalid',
    );
    assertError(await attempt(browser, id, '123456'), 422, 'strategy_for_user_invalid');
    const other = await phoneUser();
    const mine = await phoneUser();
    const b2 = h.browser();
    const { id: id2 } = await identify(b2, mine.phone);
    assertError(
      await b2.post(`/client/sign_ins/${id2}/prepare_first_factor`, {
        strategy: 'phone_code',
        phone_number_id: other.phoneId,
      }),
      422,
      'form_param_value_invalid',
      'phone_number_id',
    );
  });

  it('unknown, invalid and unverified numbers find no account', async () => {
    assertError(
      await h.browser().post('/client/sign_ins', { identifier: uniquePhone() }),
      422,
      'form_identifier_not_found',
      'identifier',
    );
    assertError(
      await h.browser().post('/client/sign_ins', { identifier: '+1 23' }),
      422,
      'form_identifier_not_found',
      'identifier',
    );
    const browser = h.browser();
    await signUp(h, browser, uniqueEmail('unverified'));
    const phone = uniquePhone();
    assert.equal((await browser.post('/me/phone_numbers', { phone_number: phone })).status, 200);
    assertError(
      await h.browser().post('/client/sign_ins', { identifier: phone }),
      422,
      'form_identifier_not_found',
      'identifier',
    );
  });

  it('a number reserved for two-step verification is no longer an identifier nor a first factor', async () => {
    const email = uniqueEmail('reserved');
    const owner = h.browser();
    await signUp(h, owner, email);
    const phone = uniquePhone();
    const added = await addVerifiedPhone(h, owner, phone);
    await reserveForSecondFactor(owner, added.id);
    assertError(
      await h.browser().post('/client/sign_ins', { identifier: phone }),
      422,
      'form_identifier_not_found',
      'identifier',
    );
    const signIn = await identify(h.browser(), email);
    assert.equal(
      signIn.supported_first_factors.some((f: Json) => f.strategy === 'phone_code'),
      false,
    );
  });

  it('"Forgot password?" by SMS: reset_password_phone_code → needs_new_password → a new password signs in', async () => {
    const { phone, phoneId, email } = await phoneUser();
    const browser = h.browser({ headers: { 'accept-language': 'en' } });
    const { id } = await identify(browser, phone);
    const prepared = await browser.post(`/client/sign_ins/${id}/prepare_first_factor`, {
      strategy: 'reset_password_phone_code',
      phone_number_id: phoneId,
    });
    assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
    assert.equal(prepared.body.response.first_factor_verification.strategy, 'reset_password_phone_code');
    const [sms] = await smsTo(h, phone);
    assert.match(sms!.text, /password reset code/);
    const code = await latestSmsCode(h, phone);
    assertError(
      await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, {
        strategy: 'reset_password_phone_code',
        code: wrongCode(code),
      }),
      422,
      'form_code_incorrect',
    );
    const verified = await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, {
      strategy: 'reset_password_phone_code',
      code,
    });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    assert.equal(verified.body.response.status, 'needs_new_password');
    const reset = await browser.post(`/client/sign_ins/${id}/reset_password`, { password: NEW_PASSWORD });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    assert.equal(reset.body.response.status, 'complete');
    // The new password works, the old one no longer.
    const again = h.browser();
    const { id: id2 } = await identify(again, email);
    assertError(
      await again.post(`/client/sign_ins/${id2}/attempt_first_factor`, {
        strategy: 'password',
        password: PASSWORD,
      }),
      422,
      'form_password_incorrect',
    );
    const ok = await again.post(`/client/sign_ins/${id2}/attempt_first_factor`, {
      strategy: 'password',
      password: NEW_PASSWORD,
    });
    assert.equal(ok.body.response.status, 'complete');
  });
});
