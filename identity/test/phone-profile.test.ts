import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { backendApiClient } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type FapiResponse, type Json } from './support/harness.ts';
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

const userOf = (res: FapiResponse): Json => res.body.client.sessions[0].user;

forEachBackend('phone numbers in <UserProfile/>', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());
  beforeEach(() => h.clock.advance(61));

  async function member() {
    const email = uniqueEmail('phones');
    const browser = h.browser();
    const signedIn = await signUp(h, browser, email);
    return { email, browser, ...signedIn };
  }

  it('a new number (POST /me/phone_numbers/, as clerk-js sends it) starts unverified and is normalised', async () => {
    const { browser } = await member();
    const phone = uniquePhone();
    const res = await browser.post('/me/phone_numbers/', {
      phone_number: `${phone.slice(0, 3)} ${phone.slice(3)}`,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const created = res.body.response;
    assert.equal(created.object, 'phone_number');
    assert.match(created.id, /^idn_/);
    assert.equal(created.phone_number, phone);
    assert.equal(created.verification, null);
    assert.equal(created.reserved_for_second_factor, false);
    assert.equal(created.default_second_factor, false);
    assert.equal(created.backup_codes, null);
    assert.equal(userOf(res).phone_numbers.length, 1);
    assert.equal(userOf(res).primary_phone_number_id, null, 'an unverified number is not primary');
    assertError(
      await browser.post('/me/phone_numbers', { phone_number: '12345' }),
      422,
      'form_param_format_invalid',
      'phone_number',
    );
    assertError(await browser.post('/me/phone_numbers', {}), 422, 'form_param_nil', 'phone_number');
    assertError(
      await browser.post('/me/phone_numbers', { phone_number: phone }),
      422,
      'form_identifier_exists',
      'phone_number',
    );
    const get = await browser.get(`/me/phone_numbers/${created.id}`);
    assert.equal(get.body.response.phone_number, phone);
  });

  it('the texted code verifies it: the first verified number becomes primary; codes expire and count', async () => {
    const { browser, sessionId } = await member();
    const phone = uniquePhone();
    const id = (await browser.post('/me/phone_numbers', { phone_number: phone })).body.response.id;
    assertError(
      await browser.post(`/me/phone_numbers/${id}/attempt_verification`, { code: '123456' }),
      422,
      'verification_missing',
    );
    assertError(
      await browser.post(`/me/phone_numbers/${id}/prepare_verification`, { strategy: 'email_code' }),
      422,
      'form_param_value_invalid',
      'strategy',
    );
    const prepared = await browser.post(`/me/phone_numbers/${id}/prepare_verification`, {
      strategy: 'phone_code',
    });
    assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
    assert.equal(prepared.body.response.verification.status, 'unverified');
    assert.equal(prepared.body.response.verification.strategy, 'phone_code');
    const code = await latestSmsCode(h, phone);
    const [stored] = await h.db.query<{ code_hash: string }>(
      'SELECT code_hash FROM verification_codes WHERE subject = $1',
      [`phone_number:${id}:${phone}`],
    );
    assert.notEqual(stored!.code_hash, code, 'only a keyed hash is stored');
    const failed = await browser.post(`/me/phone_numbers/${id}/attempt_verification`, {
      code: wrongCode(code),
    });
    assertError(failed, 422, 'form_code_incorrect', 'code');
    assert.equal(userOf(failed).phone_numbers[0].verification.attempts, 1);
    h.clock.advance(h.config.codeTtlSeconds + 1);
    assertError(
      await browser.post(`/me/phone_numbers/${id}/attempt_verification`, { code }),
      422,
      'verification_expired',
    );

    await browser.post(`/me/phone_numbers/${id}/prepare_verification`, { strategy: 'phone_code' });
    const verified = await browser.post(`/me/phone_numbers/${id}/attempt_verification`, {
      code: await latestSmsCode(h, phone),
    });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    assert.equal(verified.body.response.verification.status, 'verified');
    assert.equal(userOf(verified).primary_phone_number_id, id);

    // Ten minutes have passed since signing in: adding a number and choosing the primary one (gated by
    // clerk-js's useReverification) ask for the password again first.
    assertError(
      await browser.post('/me/phone_numbers/', { phone_number: uniquePhone() }),
      403,
      'session_reverification_required',
    );
    await browser.post(`/client/sessions/${sessionId}/verify`, { level: 'first_factor' });
    const reverified = await browser.post(`/client/sessions/${sessionId}/verify/attempt_first_factor`, {
      strategy: 'password',
      password: PASSWORD,
    });
    assert.equal(reverified.body.response.status, 'complete', JSON.stringify(reverified.body));

    // A second verified number does not take the primary role; PATCH /me makes it primary.
    const second = await addVerifiedPhone(h, browser, uniquePhone());
    const me = await browser.get('/me');
    assert.equal(me.body.response.primary_phone_number_id, id);
    const patched = await browser.patch('/me', { primary_phone_number_id: second.id });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.response.primary_phone_number_id, second.id);
  });

  it('five wrong codes fail the verification', async () => {
    const { browser } = await member();
    const phone = uniquePhone();
    const id = (await browser.post('/me/phone_numbers', { phone_number: phone })).body.response.id;
    await browser.post(`/me/phone_numbers/${id}/prepare_verification`, { strategy: 'phone_code' });
    const code = await latestSmsCode(h, phone);
    let last: FapiResponse | undefined;
    for (let i = 0; i < h.config.maxCodeAttempts; i++) {
      last = await browser.post(`/me/phone_numbers/${id}/attempt_verification`, { code: wrongCode(code) });
    }
    assertError(last!, 422, 'verification_failed');
    assertError(
      await browser.post(`/me/phone_numbers/${id}/attempt_verification`, { code }),
      422,
      'verification_failed',
    );
  });

  it('primary_phone_number_id must name a verified number of this account that signs in', async () => {
    const { browser } = await member();
    const other = await member();
    const theirs = await addVerifiedPhone(h, other.browser, uniquePhone());
    assertError(
      await browser.patch('/me', { primary_phone_number_id: theirs.id }),
      422,
      'form_param_value_invalid',
      'primary_phone_number_id',
    );
    const pending = (await browser.post('/me/phone_numbers', { phone_number: uniquePhone() })).body.response;
    assertError(
      await browser.patch('/me', { primary_phone_number_id: pending.id }),
      422,
      'form_param_value_invalid',
      'primary_phone_number_id',
    );
    const mfa = await addVerifiedPhone(h, browser, uniquePhone());
    await reserveForSecondFactor(browser, mfa.id);
    assertError(
      await browser.patch('/me', { primary_phone_number_id: mfa.id }),
      422,
      'form_param_value_invalid',
      'primary_phone_number_id',
    );
  });

  it('a number verified by one account is theirs; unverified copies elsewhere go', async () => {
    const phone = uniquePhone();
    const squatter = await member();
    const owner = await member();
    const squatted = (await squatter.browser.post('/me/phone_numbers', { phone_number: phone })).body
      .response;
    await addVerifiedPhone(h, owner.browser, phone);
    assertError(await squatter.browser.get(`/me/phone_numbers/${squatted.id}`), 404, 'resource_not_found');
    assertError(
      await squatter.browser.post('/me/phone_numbers', { phone_number: phone }),
      422,
      'form_identifier_exists',
      'phone_number',
    );
    // Another user's number is as good as missing.
    const ownerNumber = (await owner.browser.get('/me')).body.response.phone_numbers[0];
    assertError(
      await squatter.browser.delete(`/me/phone_numbers/${ownerNumber.id}`),
      404,
      'resource_not_found',
    );
  });

  it('reserving a number for two-step verification: default, backup codes once, two_factor_enabled; removing undoes it', async () => {
    const { browser } = await member();
    const first = await addVerifiedPhone(h, browser, uniquePhone());
    const pending = (await browser.post('/me/phone_numbers', { phone_number: uniquePhone() })).body.response;
    assertError(
      await browser.patch(`/me/phone_numbers/${pending.id}`, { reserved_for_second_factor: 'true' }),
      422,
      'form_param_value_invalid',
      'reserved_for_second_factor',
    );
    assertError(
      await browser.patch(`/me/phone_numbers/${first.id}`, { default_second_factor: 'true' }),
      422,
      'form_param_value_invalid',
      'default_second_factor',
    );

    const reserved = await browser.patch(`/me/phone_numbers/${first.id}`, {
      reserved_for_second_factor: 'true',
    });
    assert.equal(reserved.status, 200, JSON.stringify(reserved.body));
    assert.equal(reserved.body.response.reserved_for_second_factor, true);
    assert.equal(reserved.body.response.default_second_factor, true);
    assert.equal(
      reserved.body.response.backup_codes.length,
      10,
      'the first second factor brings backup codes, shown once',
    );
    let user = userOf(reserved);
    assert.equal(user.two_factor_enabled, true);
    assert.equal(user.backup_code_enabled, true);
    assert.equal(user.totp_enabled, false);
    assert.equal(
      user.primary_phone_number_id,
      null,
      'a reserved number signs in no more, so it is not primary',
    );
    assert.equal(user.phone_numbers.find((p: Json) => p.id === first.id).backup_codes, null);

    const second = await addVerifiedPhone(h, browser, uniquePhone());
    const again = await reserveForSecondFactor(browser, second.id);
    assert.equal(again.default_second_factor, false);
    assert.equal(again.backup_codes, null, 'backup codes exist already');
    const made = await browser.patch(`/me/phone_numbers/${second.id}`, { default_second_factor: 'true' });
    assert.equal(made.body.response.default_second_factor, true);
    user = userOf(made);
    assert.equal(user.phone_numbers.find((p: Json) => p.id === first.id).default_second_factor, false);

    // Removing the default: the other becomes the default.
    const unreserved = await browser.patch(`/me/phone_numbers/${second.id}`, {
      reserved_for_second_factor: 'false',
    });
    assert.equal(unreserved.body.response.reserved_for_second_factor, false);
    user = userOf(unreserved);
    assert.equal(user.phone_numbers.find((p: Json) => p.id === first.id).default_second_factor, true);
    assert.equal(user.two_factor_enabled, true);
    // Removing the last one: two-step verification is off and the backup codes go.
    const off = await browser.patch(`/me/phone_numbers/${first.id}`, { reserved_for_second_factor: 'false' });
    user = userOf(off);
    assert.equal(user.two_factor_enabled, false);
    assert.equal(user.backup_code_enabled, false);
    assertError(
      await browser.patch(`/me/phone_numbers/${first.id}`, { phone_number: '+15555550100' }),
      422,
      'form_param_value_invalid',
      'phone_number',
    );
  });

  it('removing numbers: the primary role passes on, the last second factor takes the backup codes', async () => {
    const { browser, userId } = await member();
    const a = await addVerifiedPhone(h, browser, uniquePhone());
    const b = await addVerifiedPhone(h, browser, uniquePhone());
    const removed = await browser.delete(`/me/phone_numbers/${a.id}`);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual(removed.body.response, { object: 'phone_number', id: a.id, deleted: true });
    assert.equal(userOf(removed).primary_phone_number_id, b.id);
    await reserveForSecondFactor(browser, b.id);
    assert.ok((await h.count('backup_codes', 'user_id = $1', [userId])) > 0);
    const gone = await browser.delete(`/me/phone_numbers/${b.id}`);
    assert.equal(userOf(gone).two_factor_enabled, false);
    assert.equal(userOf(gone).phone_numbers.length, 0);
    assert.equal(await h.count('backup_codes', 'user_id = $1', [userId]), 0);
  });

  it('never the last way to sign in: a user whose only identifier is the number keeps it', async () => {
    const { browser, userId } = await member();
    const phone = await addVerifiedPhone(h, browser, uniquePhone());
    // Not reachable through the API (the instance requires an email address): a user from another era.
    await h.db.query('DELETE FROM email_addresses WHERE user_id = $1', [userId]);
    await h.db.query('UPDATE users SET primary_email_address_id = NULL, username = NULL WHERE id = $1', [
      userId,
    ]);
    assertError(await browser.delete(`/me/phone_numbers/${phone.id}`), 422, 'identification_deletion_failed');
  });

  it('@clerk/backend reads the numbers, the primary one and the second factor from the Backend API', async () => {
    const { browser, userId } = await member();
    const phone = uniquePhone();
    const signIn = await addVerifiedPhone(h, browser, phone);
    const mfa = await addVerifiedPhone(h, browser, uniquePhone());
    await reserveForSecondFactor(browser, mfa.id);
    const user = await (await backendApiClient(h)).users.getUser(userId);
    assert.equal(user.primaryPhoneNumberId, signIn.id);
    assert.equal(user.primaryPhoneNumber?.phoneNumber, phone);
    assert.equal(user.phoneNumbers.length, 2);
    const reserved = user.phoneNumbers.find((p) => p.id === mfa.id)!;
    assert.equal(reserved.reservedForSecondFactor, true);
    assert.equal(reserved.defaultSecondFactor, true);
    assert.equal(reserved.verification?.status, 'verified');
    assert.equal(user.twoFactorEnabled, true);
  });

  it('sending is limited per number: the sixth SMS within ten minutes is 429 with Retry-After', async () => {
    const { browser } = await member();
    const phone = uniquePhone();
    const id = (await browser.post('/me/phone_numbers', { phone_number: phone })).body.response.id;
    for (let i = 0; i < 5; i++) {
      // Under the per-attempt limit (5 a minute): one send per minute.
      const res = await browser.post(`/me/phone_numbers/${id}/prepare_verification`, {
        strategy: 'phone_code',
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      h.clock.advance(61);
    }
    const refused = await browser.post(`/me/phone_numbers/${id}/prepare_verification`, {
      strategy: 'phone_code',
    });
    assertError(refused, 429, 'too_many_requests');
    assert.ok(Number(refused.headers['retry-after']) > 0);
    assert.equal((await smsTo(h, phone)).length, 5, 'the refused send texted nothing');
    h.clock.advance(600);
    const later = await browser.post(`/me/phone_numbers/${id}/prepare_verification`, {
      strategy: 'phone_code',
    });
    assert.equal(later.status, 200, JSON.stringify(later.body));
  });
});
