import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashPassword, passwordHashOptions } from '../src/crypto/passwords.ts';
import { ClerkError } from '../src/errors.ts';
import { checkNewPassword } from '../src/passwords/check-password.ts';
import { passwordPolicyFromEnv, passwordSettingsJSON, type PasswordPolicy } from '../src/passwords/policy.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { Harness, uniqueEmail } from './support/harness.ts';

const DEFAULT = passwordPolicyFromEnv({});

function refusal(password: string, policy: PasswordPolicy = DEFAULT): ClerkError | null {
  try {
    checkNewPassword(password, policy);
    return null;
  } catch (error) {
    assert.ok(error instanceof ClerkError, String(error));
    return error;
  }
}

describe('password policy', () => {
  it('defaults: 8 to 72 bytes, no character classes, breached list on, strength at least 2', () => {
    assert.deepEqual(
      { ...DEFAULT },
      {
        minLength: 8,
        maxBytes: 72,
        requireUppercase: false,
        requireLowercase: false,
        requireNumbers: false,
        requireSpecialChar: false,
        minStrength: 2,
        rejectBreached: true,
      },
    );
    const settings = passwordSettingsJSON(DEFAULT);
    assert.equal(settings.show_zxcvbn, true);
    assert.equal(settings.min_zxcvbn_strength, 2);
    assert.equal(settings.disable_hibp, false);
  });

  it('refuses in Clerk order: length, classes, breached, strength', () => {
    assert.equal(refusal('short')?.code, 'form_password_length_too_short');
    assert.equal(refusal('x'.repeat(73))?.code, 'form_password_size_in_bytes_exceeded');
    assert.equal(
      refusal('é'.repeat(37))?.code,
      'form_password_size_in_bytes_exceeded',
      '74 bytes in 37 characters',
    );
    assert.equal(refusal('password123')?.code, 'form_password_pwned');
    assert.equal(refusal('Qwertyuiop')?.code, 'form_password_pwned', 'the list is compared in lower case');
    const weak = refusal('Password1!');
    assert.equal(weak?.code, 'form_password_not_strong_enough');
    assert.deepEqual(
      (weak?.meta.zxcvbn as { suggestions: { code: string }[] }).suggestions.map((s) => s.code),
      ['anotherWord', 'capitalization'],
    );
    assert.equal(weak?.meta.param_name, 'password');
    assert.equal(refusal(PASSWORD), null);
    assert.equal(refusal('  padded password  '), null, 'spaces are characters, never trimmed');
  });

  it('character classes apply only when the instance demands them', () => {
    const strict = passwordPolicyFromEnv({
      IDENTITY_PASSWORD_REQUIRE: 'uppercase,lowercase,numbers,special',
    });
    assert.equal(refusal('correct horse battery', strict)?.code, 'form_password_no_uppercase');
    assert.equal(refusal('CORRECT HORSE BATTERY', strict)?.code, 'form_password_no_lowercase');
    assert.equal(refusal('Correct horse battery', strict)?.code, 'form_password_no_number');
    assert.equal(refusal('Correct horse battery 9', strict)?.code, 'form_password_no_special_char');
    assert.equal(refusal('Correct horse battery 9!', strict), null);
    assert.equal(passwordSettingsJSON(strict).require_special_char, true);
  });

  it('a strength of 0 and the list switched off accept what only they would refuse', () => {
    const lax = passwordPolicyFromEnv({
      IDENTITY_PASSWORD_MIN_STRENGTH: '0',
      IDENTITY_PASSWORD_REJECT_BREACHED: 'false',
    });
    assert.equal(refusal('password123', lax), null);
    assert.equal(passwordSettingsJSON(lax).show_zxcvbn, false);
    assert.equal(passwordSettingsJSON(lax).disable_hibp, true);
  });

  it('refuses a malformed configuration at start', () => {
    assert.throws(() => passwordPolicyFromEnv({ IDENTITY_PASSWORD_REQUIRE: 'emoji' }), /unknown class/);
    assert.throws(() => passwordPolicyFromEnv({ IDENTITY_PASSWORD_MIN_STRENGTH: '5' }), /0 to 4/);
    assert.throws(() => passwordPolicyFromEnv({ IDENTITY_PASSWORD_MIN_LENGTH: '6' }), /8 to 72/);
  });
});

describe('the test-only low hashing cost', () => {
  const PRODUCTION = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };

  it('is honoured only with NODE_ENV=test: any other start hashes at the production cost', () => {
    const low = { IDENTITY_TEST_PASSWORD_HASH_COST: 'low' };
    assert.deepEqual(passwordHashOptions(low), PRODUCTION);
    assert.deepEqual(passwordHashOptions({ ...low, NODE_ENV: 'production' }), PRODUCTION);
    assert.deepEqual(passwordHashOptions({ ...low, NODE_ENV: 'development' }), PRODUCTION);
    assert.deepEqual(passwordHashOptions({ NODE_ENV: 'test' }), PRODUCTION);
    assert.deepEqual(passwordHashOptions({ ...low, NODE_ENV: 'test' }), {
      algorithm: 2,
      memoryCost: 64,
      timeCost: 1,
      parallelism: 1,
    });
  });

  it('is still argon2id', async () => {
    const was = process.env.IDENTITY_TEST_PASSWORD_HASH_COST;
    process.env.IDENTITY_TEST_PASSWORD_HASH_COST = 'low';
    try {
      assert.match(await hashPassword('a long enough password'), /^\$argon2id\$v=19\$m=64,t=1,p=1\$/);
    } finally {
      if (was === undefined) delete process.env.IDENTITY_TEST_PASSWORD_HASH_COST;
      else process.env.IDENTITY_TEST_PASSWORD_HASH_COST = was;
    }
  });
});

forEachBackend('passwords on the wire', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());

  it('sign-up refuses a breached or weak password with 422 and writes nothing', async () => {
    for (const [password, code] of [
      ['password123', 'form_password_pwned'],
      ['Password1!', 'form_password_not_strong_enough'],
    ] as const) {
      const before = await h.count('sign_ups');
      const res = await h.browser().post('/client/sign_ups', { email_address: uniqueEmail(), password });
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.equal(res.body.errors[0].code, code);
      assert.equal(res.body.errors[0].meta.param_name, 'password');
      assert.equal(await h.count('sign_ups'), before);
    }
  });

  it('change_password refuses a breached new password under new_password', async () => {
    const browser = h.browser();
    await signUp(h, browser, uniqueEmail());
    const res = await browser.post('/me/change_password', {
      current_password: PASSWORD,
      new_password: 'iloveyou',
    });
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].code, 'form_password_pwned');
    assert.equal(res.body.errors[0].meta.param_name, 'new_password');
  });

  it('the environment advertises the policy to clerk-js', async () => {
    const res = await h.browser().get('/environment');
    const settings = res.body.user_settings.password_settings;
    assert.equal(settings.show_zxcvbn, true);
    assert.equal(settings.min_zxcvbn_strength, 2);
    assert.equal(settings.disable_hibp, false);
    assert.equal(settings.min_length, 8);
    assert.equal(settings.max_length, 72);
  });
});
