import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Browser, type FapiResponse, type Json } from './support/harness.ts';
import { enrolTotp, totpCode, wrongTotpCode } from './support/second-factors.ts';

forEachBackend('second factors of the current user (/me/totp, /me/backup_codes)', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());
  // A fresh 30 s step and rate-limit window for each test.
  beforeEach(() => h.clock.advance(61));

  function assertError(res: FapiResponse, status: number, code: string, param?: string) {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].code, code);
    if (param !== undefined) assert.equal(res.body.errors[0].meta.param_name, param);
  }

  async function member(): Promise<{ email: string; browser: Browser; userId: string }> {
    const email = uniqueEmail('mfa');
    const browser = h.browser();
    const { userId } = await signUp(h, browser, email);
    return { email, browser, userId };
  }

  /** The user as the piggy-backed client of `res` carries it. */
  function userIn(res: FapiResponse): Json {
    return res.body.client.sessions[0].user;
  }

  function flags(user: Json) {
    return {
      totp: user.totp_enabled,
      backup: user.backup_code_enabled,
      twoFactor: user.two_factor_enabled,
    };
  }

  it('the environment offers an authenticator app and backup codes as second factors', async () => {
    const env = (await h.browser().get('/environment')).body;
    const { authenticator_app, backup_code } = env.user_settings.attributes;
    assert.equal(authenticator_app.enabled, true);
    assert.equal(authenticator_app.used_for_second_factor, true);
    assert.deepEqual(authenticator_app.second_factors, ['totp']);
    assert.equal(authenticator_app.used_for_first_factor, false);
    assert.equal(backup_code.enabled, true);
    assert.equal(backup_code.used_for_second_factor, true);
    assert.deepEqual(backup_code.second_factors, ['backup_code']);
    assert.equal(backup_code.used_for_first_factor, false);
    assert.equal(env.user_settings.sign_in.second_factor.enabled, true);
    assert.equal(env.user_settings.sign_in.second_factor.required, false);
  });

  it('POST /me/totp answers a fresh secret and its otpauth URI; the secret is stored sealed', async () => {
    const { browser, email, userId } = await member();
    const res = await browser.post('/me/totp');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const totp = res.body.response;
    assert.equal(totp.object, 'totp');
    assert.match(totp.id, /^totp_[0-9A-Za-z]{27}$/);
    assert.match(totp.secret, /^[A-Z2-7]{32}$/, 'a 160-bit base32 secret');
    assert.equal(totp.verified, false);
    assert.equal(totp.backup_codes, null);
    assert.equal(totp.created_at, h.clock.now.getTime());
    assert.equal(totp.updated_at, h.clock.now.getTime());

    const uri = new URL(totp.uri);
    assert.equal(uri.protocol, 'otpauth:');
    assert.equal(uri.host, 'totp');
    assert.equal(decodeURIComponent(uri.pathname), `/Qoala:${email}`);
    assert.equal(uri.searchParams.get('secret'), totp.secret);
    assert.equal(uri.searchParams.get('issuer'), 'Qoala');
    assert.equal(uri.searchParams.get('algorithm'), 'SHA1');
    assert.equal(uri.searchParams.get('digits'), '6');
    assert.equal(uri.searchParams.get('period'), '30');

    // Not enabled until a code proves the app has it.
    assert.deepEqual(flags(userIn(res)), { totp: false, backup: false, twoFactor: false });
    const [row] = await h.db.query<{ sealed_secret: string }>(
      'SELECT sealed_secret FROM totp_secrets WHERE user_id = $1',
      [userId],
    );
    assert.ok(row, 'one pending secret');
    assert.ok(!row.sealed_secret.includes(totp.secret), 'the secret is not stored in the clear');
  });

  it('creating again while unverified replaces the pending secret: the old one no longer verifies', async () => {
    const { browser, userId } = await member();
    const first = (await browser.post('/me/totp')).body.response;
    const second = (await browser.post('/me/totp')).body.response;
    assert.notEqual(second.id, first.id);
    assert.notEqual(second.secret, first.secret);
    assert.equal(await h.count('totp_secrets', 'user_id = $1', [userId]), 1);
    const stale = totpCode(first.secret, h.clock.now);
    if (stale !== totpCode(second.secret, h.clock.now)) {
      assertError(
        await browser.post('/me/totp/attempt_verification', { code: stale }),
        422,
        'form_code_incorrect',
        'code',
      );
    }
    const ok = await browser.post('/me/totp/attempt_verification', {
      code: totpCode(second.secret, h.clock.now),
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.response.id, second.id);
  });

  it('attempt_verification: a missing or wrong code is refused; the right one enables TOTP with 10 backup codes', async () => {
    const { browser, userId } = await member();
    const created = (await browser.post('/me/totp')).body.response;
    assertError(await browser.post('/me/totp/attempt_verification', {}), 422, 'form_param_nil', 'code');
    assertError(
      await browser.post('/me/totp/attempt_verification', {
        code: wrongTotpCode(created.secret, h.clock.now),
      }),
      422,
      'form_code_incorrect',
      'code',
    );
    assertError(
      await browser.post('/me/totp/attempt_verification', { code: 'abcdef' }),
      422,
      'form_code_incorrect',
      'code',
    );

    const res = await browser.post('/me/totp/attempt_verification', {
      code: totpCode(created.secret, h.clock.now),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const totp = res.body.response;
    assert.equal(totp.object, 'totp');
    assert.equal(totp.id, created.id);
    assert.equal(totp.verified, true);
    assert.equal(totp.secret ?? null, null, 'the secret is shown only once, at creation');
    assert.equal(totp.uri ?? null, null);
    assert.equal(totp.backup_codes.length, 10);
    assert.equal(new Set(totp.backup_codes).size, 10);
    for (const code of totp.backup_codes) assert.match(code, /^[a-z0-9]{8}$/);

    assert.deepEqual(flags(userIn(res)), { totp: true, backup: true, twoFactor: true });
    const me = await browser.get('/me');
    assert.deepEqual(flags(me.body.response), { totp: true, backup: true, twoFactor: true });

    const stored = await h.db.query<{ code_hash: string }>(
      'SELECT code_hash FROM backup_codes WHERE user_id = $1',
      [userId],
    );
    assert.equal(stored.length, 10);
    for (const { code_hash } of stored) assert.ok(!totp.backup_codes.includes(code_hash), 'stored hashed');
  });

  it('codes one step either side of now are accepted at enrolment, two steps away are not', async () => {
    for (const steps of [-1, 1]) {
      const { browser } = await member();
      const { secret } = (await browser.post('/me/totp')).body.response;
      const res = await browser.post('/me/totp/attempt_verification', {
        code: totpCode(secret, h.clock.now, steps),
      });
      assert.equal(res.status, 200, `${steps} step: ${JSON.stringify(res.body)}`);
    }
    for (const steps of [-2, 2]) {
      const { browser } = await member();
      const { secret } = (await browser.post('/me/totp')).body.response;
      const code = totpCode(secret, h.clock.now, steps);
      if ([-1, 0, 1].some((s) => totpCode(secret, h.clock.now, s) === code)) continue;
      assertError(
        await browser.post('/me/totp/attempt_verification', { code }),
        422,
        'form_code_incorrect',
        'code',
      );
    }
  });

  it('POST /me/totp while an authenticator app is enabled is refused and keeps it', async () => {
    const { browser, userId } = await member();
    const { totpId } = await enrolTotp(h, browser);
    assertError(await browser.post('/me/totp'), 422, 'totp_already_enabled');
    const [row] = await h.db.query<{ id: string; verified_at: Date | null }>(
      'SELECT id, verified_at FROM totp_secrets WHERE user_id = $1',
      [userId],
    );
    assert.equal(row!.id, totpId);
    assert.ok(row!.verified_at);
    assertError(
      await browser.post('/me/totp/attempt_verification', { code: '123456' }),
      422,
      'totp_already_enabled',
    );
  });

  it('DELETE /me/totp disables it and drops the backup codes with it', async () => {
    const { browser, userId } = await member();
    assertError(await browser.delete('/me/totp'), 404, 'resource_not_found');
    const { totpId } = await enrolTotp(h, browser);
    const res = await browser.delete('/me/totp');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.response, { object: 'totp', id: totpId, deleted: true });
    assert.deepEqual(flags(userIn(res)), { totp: false, backup: false, twoFactor: false });
    assert.equal(await h.count('totp_secrets', 'user_id = $1', [userId]), 0);
    assert.equal(await h.count('backup_codes', 'user_id = $1', [userId]), 0);
    assertError(await browser.delete('/me/totp'), 404, 'resource_not_found');

    // Enrolling again starts over, with a new secret and new backup codes.
    const again = await enrolTotp(h, browser);
    assert.notEqual(again.totpId, totpId);
    assert.equal(again.backupCodes.length, 10);
  });

  it('POST /me/backup_codes needs another second factor, then replaces the whole set', async () => {
    const { browser, userId } = await member();
    assertError(await browser.post('/me/backup_codes'), 422, 'backup_codes_not_available');
    const { backupCodes } = await enrolTotp(h, browser);

    // clerk-js calls it with a trailing slash.
    const res = await browser.post('/me/backup_codes/');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const set = res.body.response;
    assert.equal(set.object, 'backup_code');
    assert.match(set.id, /^bcode_[0-9A-Za-z]{27}$/);
    assert.equal(set.codes.length, 10);
    assert.equal(new Set(set.codes).size, 10);
    assert.equal(set.created_at, h.clock.now.getTime());
    assert.equal(set.updated_at, h.clock.now.getTime());
    assert.ok(!set.codes.some((c: string) => backupCodes.includes(c)), 'a fresh set');
    assert.equal(await h.count('backup_codes', 'user_id = $1', [userId]), 10);
    assert.deepEqual(flags(userIn(res)), { totp: true, backup: true, twoFactor: true });
  });

  it('needs a signed-in session', async () => {
    const browser = h.browser();
    await browser.get('/client');
    assertError(await browser.post('/me/totp'), 404, 'resource_not_found');
    assertError(await browser.post('/me/backup_codes'), 404, 'resource_not_found');
  });
});
