import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Browser, type FapiResponse, type Json } from './support/harness.ts';
import { enrolTotp, passwordUntilSecondFactor } from './support/second-factors.ts';
import {
  addVerifiedPhone,
  latestSmsCode,
  reserveForSecondFactor,
  smsTo,
  uniquePhone,
  wrongCode,
} from './support/sms.ts';

function assertError(res: FapiResponse, status: number, code: string, param?: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, code);
  if (param !== undefined) assert.equal(res.body.errors[0].meta.param_name, param);
}

const masked = (phone: string) => `+${phone.slice(1, 3)}${'*'.repeat(phone.length - 5)}${phone.slice(-2)}`;

forEachBackend('SMS code as a second factor (phone_code)', (backend) => {
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
  beforeEach(() => h.clock.advance(61));

  /** A user with a number reserved for two-step verification (and the backup codes that came with it). */
  async function smsUser() {
    const email = uniqueEmail('sms2fa');
    const browser = h.browser();
    const { userId } = await signUp(h, browser, email);
    const phone = uniquePhone();
    const added = await addVerifiedPhone(h, browser, phone);
    const reserved = await reserveForSecondFactor(browser, added.id);
    return {
      email,
      userId,
      phone,
      phoneId: added.id as string,
      backupCodes: reserved.backup_codes as string[],
      browser,
    };
  }

  const prepare = (browser: Browser, id: string, form: Record<string, string> = {}) =>
    browser.post(`/client/sign_ins/${id}/prepare_second_factor`, { strategy: 'phone_code', ...form });
  const attempt = (browser: Browser, id: string, code: string) =>
    browser.post(`/client/sign_ins/${id}/attempt_second_factor`, { strategy: 'phone_code', code });

  it('the password leads to needs_second_factor offering the number masked, then backup codes', async () => {
    const { email, phone, phoneId } = await smsUser();
    const res = await passwordUntilSecondFactor(h.browser(), email, PASSWORD);
    assert.deepEqual(res.body.response.supported_second_factors, [
      { strategy: 'phone_code', phone_number_id: phoneId, safe_identifier: masked(phone), default: true },
      { strategy: 'backup_code' },
    ]);
    assert.deepEqual(res.body.client.sessions, []);
  });

  it('prepare_second_factor texts a code; the right code opens the session', async () => {
    const { email, phone, phoneId, userId } = await smsUser();
    const browser = h.browser();
    const id = (await passwordUntilSecondFactor(browser, email, PASSWORD)).body.response.id;
    assertError(await attempt(browser, id, '123456'), 422, 'verification_missing');
    const before = (await smsTo(h, phone)).length;
    const prepared = await prepare(browser, id, { phone_number_id: phoneId });
    assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
    assert.equal(prepared.body.response.status, 'needs_second_factor');
    assert.equal(prepared.body.response.second_factor_verification.strategy, 'phone_code');
    assert.equal(prepared.body.response.second_factor_verification.status, 'unverified');
    assert.equal((await smsTo(h, phone)).length, before + 1);
    const done = await attempt(browser, id, await latestSmsCode(h, phone));
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.response.status, 'complete');
    assert.equal(done.body.response.second_factor_verification.status, 'verified');
    const session = done.body.client.sessions.find(
      (s: Json) => s.id === done.body.response.created_session_id,
    );
    assert.equal(session.user.id, userId);
    assert.equal(session.user.two_factor_enabled, true);
  });

  it('wrong, expired and exhausted codes; a failed second factor means starting over', async () => {
    const { email, phone } = await smsUser();
    const browser = h.browser();
    const id = (await passwordUntilSecondFactor(browser, email, PASSWORD)).body.response.id;
    await prepare(browser, id);
    const code = await latestSmsCode(h, phone);
    assertError(await attempt(browser, id, wrongCode(code)), 422, 'form_code_incorrect', 'code');
    h.clock.advance(h.config.codeTtlSeconds + 1);
    assertError(await attempt(browser, id, code), 422, 'verification_expired');
    await prepare(browser, id);
    const fresh = await latestSmsCode(h, phone);
    let last: FapiResponse | undefined;
    for (let i = 0; i < h.config.maxCodeAttempts; i++) last = await attempt(browser, id, wrongCode(fresh));
    assertError(last!, 422, 'verification_failed');
    assertError(await attempt(browser, id, fresh), 422, 'verification_failed');
    assertError(await prepare(browser, id), 422, 'verification_failed');
  });

  it('prepare refuses other strategies, numbers that are not second factors, and sign-ins not at that step', async () => {
    const { email, userId } = await smsUser();
    const browser = h.browser();
    const early = (await browser.post('/client/sign_ins', { identifier: email })).body.response.id;
    assertError(await prepare(browser, early), 422, 'strategy_for_user_invalid');
    const other = h.browser();
    const otherId = (await passwordUntilSecondFactor(other, email, PASSWORD)).body.response.id;
    assertError(
      await other.post(`/client/sign_ins/${otherId}/prepare_second_factor`, { strategy: 'totp' }),
      422,
      'form_param_value_invalid',
      'strategy',
    );
    const [plain] = await h.db.query<{ id: string }>(
      `INSERT INTO phone_numbers (id, user_id, phone_number, verified_at) VALUES ('idn_plainnumber', $1, $2, now()) RETURNING id`,
      [userId, uniquePhone()],
    );
    assertError(
      await prepare(other, otherId, { phone_number_id: plain!.id }),
      422,
      'form_param_value_invalid',
      'phone_number_id',
    );
  });

  it('a backup code still works instead of the SMS; with an authenticator app as well, totp comes first', async () => {
    const { email, backupCodes, browser: owner } = await smsUser();
    const browser = h.browser();
    const id = (await passwordUntilSecondFactor(browser, email, PASSWORD)).body.response.id;
    const done = await browser.post(`/client/sign_ins/${id}/attempt_second_factor`, {
      strategy: 'backup_code',
      code: backupCodes[0]!,
    });
    assert.equal(done.body.response.status, 'complete');
    await enrolTotp(h, owner);
    h.clock.advance(61);
    const both = await passwordUntilSecondFactor(h.browser(), email, PASSWORD);
    assert.deepEqual(
      both.body.response.supported_second_factors.map((f: Json) => f.strategy),
      ['totp', 'phone_code', 'backup_code'],
    );
  });

  it('the default number is offered first and texted by default', async () => {
    const { email, browser: owner } = await smsUser();
    const second = uniquePhone();
    const added = await addVerifiedPhone(h, owner, second);
    await reserveForSecondFactor(owner, added.id);
    await owner.patch(`/me/phone_numbers/${added.id}`, { default_second_factor: 'true' });
    const browser = h.browser();
    const res = await passwordUntilSecondFactor(browser, email, PASSWORD);
    const phones = res.body.response.supported_second_factors.filter(
      (f: Json) => f.strategy === 'phone_code',
    );
    assert.equal(phones.length, 2);
    assert.equal(phones[0].phone_number_id, added.id);
    assert.equal(phones[0].default, true);
    await prepare(browser, res.body.response.id);
    assert.equal((await smsTo(h, second)).length, 2, 'the verification code, then the sign-in code');
  });

  it('with the number removed, the password alone signs in again', async () => {
    const { email, phoneId, browser: owner } = await smsUser();
    const off = await owner.patch(`/me/phone_numbers/${phoneId}`, { reserved_for_second_factor: 'false' });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    const browser = h.browser();
    const created = await browser.post('/client/sign_ins', { identifier: email });
    const done = await browser.post(`/client/sign_ins/${created.body.response.id}/attempt_first_factor`, {
      strategy: 'password',
      password: PASSWORD,
    });
    assert.equal(done.body.response.status, 'complete');
  });
});
