import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type FapiResponse } from './support/harness.ts';

forEachBackend('sign-up validation and test mode', (backend) => {
  let h: Harness;
  let existing: string;
  before(async () => {
    h = await Harness.start(backend);
    existing = uniqueEmail('taken');
    await signUp(h, h.browser(), existing);
  });
  after(() => h.close());

  function assertError(res: FapiResponse, status: number, code: string, param?: string) {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.errors.length, 1);
    assert.equal(res.body.errors[0].code, code);
    if (param !== undefined) assert.equal(res.body.errors[0].meta.param_name, param);
    assert.equal(typeof res.body.errors[0].message, 'string');
    assert.equal(typeof res.body.errors[0].long_message, 'string');
  }

  /** POST /client/sign_ups from a fresh browser must fail and write nothing at all. */
  async function rejectedCreate(form: Record<string, string>, status: number, code: string, param?: string) {
    const signUpsBefore = await h.count('sign_ups');
    const clientsBefore = await h.count('clients');
    const res = await h.browser().post('/client/sign_ups', form);
    assertError(res, status, code, param);
    assert.equal(await h.count('sign_ups'), signUpsBefore, 'no sign_ups row was written');
    assert.equal(await h.count('clients'), clientsBefore, 'no client was created');
    assert.equal(res.setCookies.has('__client'), false, 'no client cookie');
  }

  it('an invalid email is 422 form_param_format_invalid (param email_address)', async () => {
    for (const email of [
      'not-an-email',
      'a@b',
      'two@@example.com',
      'sp ace@example.com',
      `${'x'.repeat(250)}@example.com`,
    ]) {
      await rejectedCreate(
        { email_address: email, password: PASSWORD },
        422,
        'form_param_format_invalid',
        'email_address',
      );
    }
  });

  it('a 7-character password is 422 form_password_length_too_short', async () => {
    await rejectedCreate(
      { email_address: uniqueEmail(), password: 'x'.repeat(7) },
      422,
      'form_password_length_too_short',
      'password',
    );
  });

  it('a 73-byte password is 422 form_password_size_in_bytes_exceeded (72 bytes are fine)', async () => {
    await rejectedCreate(
      { email_address: uniqueEmail(), password: 'x'.repeat(73) },
      422,
      'form_password_size_in_bytes_exceeded',
      'password',
    );
    // 37 two-byte characters: short in characters, too long in bytes.
    await rejectedCreate(
      { email_address: uniqueEmail(), password: 'é'.repeat(37) },
      422,
      'form_password_size_in_bytes_exceeded',
      'password',
    );
    // 72 bytes exactly, and a strong passphrase (a repeated letter would be refused as weak).
    const password72 = 'correct horse battery staple '.repeat(3).slice(0, 72);
    assert.equal(Buffer.byteLength(password72), 72);
    const ok = await h
      .browser()
      .post('/client/sign_ups', { email_address: uniqueEmail(), password: password72 });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.response.has_password, true);
  });

  it('a 257-character first_name is 422 form_param_max_length_exceeded (256 are fine)', async () => {
    await rejectedCreate(
      { email_address: uniqueEmail(), password: PASSWORD, first_name: 'a'.repeat(257) },
      422,
      'form_param_max_length_exceeded',
      'first_name',
    );
    await rejectedCreate(
      { email_address: uniqueEmail(), password: PASSWORD, last_name: 'b'.repeat(257) },
      422,
      'form_param_max_length_exceeded',
      'last_name',
    );
    const ok = await h.browser().post('/client/sign_ups', {
      email_address: uniqueEmail(),
      password: PASSWORD,
      first_name: 'a'.repeat(256),
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.response.first_name.length, 256);
  });

  it("an existing user's email (any case) is 422 form_identifier_exists (param email_address)", async () => {
    await rejectedCreate(
      { email_address: existing, password: PASSWORD },
      422,
      'form_identifier_exists',
      'email_address',
    );
    await rejectedCreate(
      { email_address: existing.toUpperCase(), password: PASSWORD },
      422,
      'form_identifier_exists',
      'email_address',
    );
  });

  it('an unsupported strategy or identifier is 422 form_param_value_invalid', async () => {
    await rejectedCreate({ strategy: 'oauth_google' }, 422, 'form_param_value_invalid', 'strategy');
    await rejectedCreate(
      { email_address: uniqueEmail(), password: PASSWORD, strategy: 'phone_code' },
      422,
      'form_param_value_invalid',
      'strategy',
    );
    await rejectedCreate(
      { web3_wallet: '0x52908400098527886E0F7030069857D2E4169EE7', password: PASSWORD },
      422,
      'form_param_value_invalid',
      'web3_wallet',
    );
  });

  it('a redirect_url off the allowed origins is 422 form_param_value_invalid (param redirect_url)', async () => {
    await rejectedCreate(
      { email_address: uniqueEmail(), password: PASSWORD, redirect_url: 'https://evil.example/verify' },
      422,
      'form_param_value_invalid',
      'redirect_url',
    );
    const ok = await h.browser().post('/client/sign_ups', {
      email_address: uniqueEmail(),
      password: PASSWORD,
      redirect_url: 'http://localhost:3000/sign-up/verify',
    });
    assert.equal(ok.status, 200);
  });

  it('malformed unsafe_metadata and legal_accepted are 422 form_param_format_invalid', async () => {
    await rejectedCreate(
      { email_address: uniqueEmail(), password: PASSWORD, unsafe_metadata: '[1]' },
      422,
      'form_param_format_invalid',
      'unsafe_metadata',
    );
    await rejectedCreate(
      { email_address: uniqueEmail(), password: PASSWORD, legal_accepted: 'yes' },
      422,
      'form_param_format_invalid',
      'legal_accepted',
    );
  });

  it('empty optional inputs, as clerk-js sends them, mean "not provided"', async () => {
    const res = await h.browser().post('/client/sign_ups', {
      email_address: uniqueEmail(),
      password: PASSWORD,
      first_name: '',
      last_name: '',
      username: '',
      phone_number: '',
      legal_accepted: 'false',
      unsafe_metadata: '{"plan":"free"}',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.response.first_name, null);
    assert.equal(res.body.response.last_name, null);
    assert.equal(res.body.response.legal_accepted_at, null);
    assert.deepEqual(res.body.response.unsafe_metadata, { plan: 'free' });
  });

  it('a rejected PATCH leaves the sign-up exactly as it was', async () => {
    const browser = h.browser();
    const email = uniqueEmail();
    const created = await browser.post('/client/sign_ups', { email_address: email, first_name: 'Before' });
    assert.equal(created.status, 200);
    const id = created.body.response.id;
    const [rowBefore] = await h.db.query('SELECT * FROM sign_ups WHERE id = $1', [id]);

    assertError(
      await browser.patch(`/client/sign_ups/${id}`, { password: 'short', first_name: 'After' }),
      422,
      'form_password_length_too_short',
      'password',
    );
    assertError(
      await browser.patch(`/client/sign_ups/${id}`, { email_address: existing, first_name: 'After' }),
      422,
      'form_identifier_exists',
      'email_address',
    );
    assertError(
      await browser.patch(`/client/sign_ups/${id}`, { email_address: 'nope', first_name: 'After' }),
      422,
      'form_param_format_invalid',
      'email_address',
    );

    const [rowAfter] = await h.db.query('SELECT * FROM sign_ups WHERE id = $1', [id]);
    assert.deepEqual(rowAfter, rowBefore);
    const reloaded = await browser.get(`/client/sign_ups/${id}`);
    assert.equal(reloaded.body.response.first_name, 'Before');
    assert.equal(reloaded.body.response.email_address, email);
    assert.deepEqual(reloaded.body.response.missing_fields, ['password']);
  });

  it('verification calls with a missing or unsupported strategy or code are 422 and send nothing', async () => {
    const browser = h.browser();
    const email = uniqueEmail();
    const created = await browser.post('/client/sign_ups', { email_address: email, password: PASSWORD });
    const id = created.body.response.id;
    assertError(
      await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'phone_code' }),
      422,
      'form_param_value_invalid',
      'strategy',
    );
    assertError(
      await browser.post(`/client/sign_ups/${id}/prepare_verification`, {}),
      422,
      'form_param_value_invalid',
      'strategy',
    );
    assert.deepEqual(await h.mail(email), []);
    assertError(
      await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
        strategy: 'email_code',
        code: '123456',
      }),
      422,
      'verification_missing',
    );
    assertError(
      await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
        strategy: 'phone_code',
        code: '123456',
      }),
      422,
      'form_param_value_invalid',
      'strategy',
    );
    assertError(
      await browser.post(`/client/sign_ups/${id}/attempt_verification`, { strategy: 'email_code' }),
      422,
      'form_param_nil',
      'code',
    );
    assertError(
      await browser.post('/client/sign_ups/sua_doesnotexist/prepare_verification', {
        strategy: 'email_code',
      }),
      404,
      'resource_not_found',
    );
  });

  it('test mode: a +clerk_test address gets no mail and accepts 424242', async () => {
    const browser = h.browser();
    const email = `x-${Date.now()}+clerk_test@example.com`;
    const created = await browser.post('/client/sign_ups', { email_address: email, password: PASSWORD });
    assert.equal(created.status, 200);
    const id = created.body.response.id;
    const prepared = await browser.post(`/client/sign_ups/${id}/prepare_verification`, {
      strategy: 'email_code',
    });
    assert.equal(prepared.status, 200);
    assert.equal(prepared.body.response.verifications.email_address.next_action, 'needs_attempt');
    assert.deepEqual(await h.mail(email), []);
    assert.equal(await h.count('outbox', 'recipient = $1', [email]), 0);

    const wrongCode = await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
      strategy: 'email_code',
      code: '424243',
    });
    assert.equal(wrongCode.status, 422);
    assert.equal(wrongCode.body.errors[0].code, 'form_code_incorrect');
    const ok = await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
      strategy: 'email_code',
      code: '424242',
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.response.status, 'complete');
  });
});
