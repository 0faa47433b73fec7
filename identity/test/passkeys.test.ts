import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Browser, type FapiResponse } from './support/harness.ts';
import { enrolTotp, totpCode } from './support/second-factors.ts';
import { SoftwareAuthenticator, type CeremonyOptions } from './support/software-authenticator.ts';

/**
 * Passkeys end to end on the Frontend API, with real WebAuthn ceremonies from a software authenticator:
 * registration in <UserProfile/>, sign-in by the button/autofill (no identifier) and as an identified
 * account's first factor, rename and removal, the Backend API's removal; and what an attacker would try.
 */
forEachBackend('passkeys', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
    await enablePasskeys(true);
  });
  after(() => h.close());
  // A fresh rate-limit window and reverification age for every test.
  beforeEach(() => h.clock.advance(61));

  async function enablePasskeys(enabled: boolean) {
    const { passkeys: _, ...rest } = h.identity.settings.settings;
    await h.identity.settings.set(
      enabled ? { ...rest, passkeys: { enabled: true, allowAutofill: true, showSignInButton: true } } : rest,
    );
  }

  interface Person {
    email: string;
    userId: string;
    sessionId: string;
    browser: Browser;
  }

  async function person(label = 'passkey'): Promise<Person> {
    const email = uniqueEmail(label);
    const browser = h.browser();
    const { userId, sessionId } = await signUp(h, browser, email);
    return { email, userId, sessionId, browser };
  }

  function assertError(res: FapiResponse, status: number, code: string) {
    assert.equal(res.status, status, JSON.stringify(res.body));
    const [error] = res.body.errors;
    assert.equal(error.code, code, JSON.stringify(res.body));
    assert.equal(typeof error.message, 'string');
    assert.equal(typeof error.long_message, 'string');
    assert.equal(typeof error.meta, 'object');
  }

  /** POST /me/passkeys: the pending passkey and its creation options. */
  async function startRegistration(browser: Browser) {
    const created = await browser.post('/me/passkeys');
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return {
      id: created.body.response.id as string,
      nonce: created.body.response.verification.nonce as string,
    };
  }

  function attemptRegistration(browser: Browser, id: string, credential: string) {
    return browser.post(`/me/passkeys/${id}/attempt_verification`, {
      strategy: 'passkey',
      public_key_credential: credential,
    });
  }

  /** The whole registration, asserted to succeed: the verified passkey's JSON. */
  async function register(p: Person, auth = new SoftwareAuthenticator()) {
    const { id, nonce } = await startRegistration(p.browser);
    const res = await attemptRegistration(p.browser, id, auth.create(nonce));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { auth, passkey: res.body.response };
  }

  /** The button's and autofill's sign-in: `strategy=passkey`, no identifier. */
  async function startDiscoverable(browser: Browser) {
    const res = await browser.post('/client/sign_ins', { strategy: 'passkey' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return {
      signInId: res.body.response.id as string,
      nonce: res.body.response.first_factor_verification.nonce,
    };
  }

  function attemptSignIn(browser: Browser, signInId: string, credential: string) {
    return browser.post(`/client/sign_ins/${signInId}/attempt_first_factor`, {
      strategy: 'passkey',
      public_key_credential: credential,
    });
  }

  /** A discoverable sign-in with `auth`, bent as given: the attempt's answer. */
  async function signInWith(auth: SoftwareAuthenticator, bend: CeremonyOptions = {}, browser = h.browser()) {
    const { signInId, nonce } = await startDiscoverable(browser);
    return attemptSignIn(browser, signInId, auth.get(nonce, bend));
  }

  const passkeysOf = async (userId: string) =>
    h.db.query<{ id: string; counter: string; verified_at: Date | null; last_used_at: Date | null }>(
      'SELECT id, counter, verified_at, last_used_at FROM passkeys WHERE user_id = $1 ORDER BY created_at',
      [userId],
    );

  it('the environment offers passkeys as a first factor, with the button and autofill', async () => {
    const env = (await h.browser().get('/environment')).body;
    assert.equal(env.user_settings.attributes.passkey.enabled, true);
    assert.equal(env.user_settings.attributes.passkey.used_for_first_factor, true);
    assert.deepEqual(env.user_settings.passkey_settings, { allow_autofill: true, show_sign_in_button: true });
  });

  it('registers a passkey: creation options as the nonce, then the verified passkey on the user', async () => {
    const p = await person();
    const { id, nonce } = await startRegistration(p.browser);
    assert.match(id, /^idn_/);
    const options = JSON.parse(nonce);
    assert.equal(options.rp.id, 'localhost');
    assert.equal(options.user.id, Buffer.from(p.userId).toString('base64url'));
    assert.equal(options.user.name, p.email);
    assert.equal(options.authenticatorSelection.userVerification, 'required');
    assert.equal(options.authenticatorSelection.residentKey, 'required');
    assert.equal(options.attestation, 'none');
    // Only the challenge's hash is stored.
    const [row] = await h.db.query<{ challenge_hash: string }>(
      'SELECT challenge_hash FROM passkeys WHERE id = $1',
      [id],
    );
    assert.notEqual(row!.challenge_hash, options.challenge);
    assert.equal(
      JSON.stringify(await h.db.query('SELECT * FROM passkeys WHERE id = $1', [id])).includes(
        options.challenge,
      ),
      false,
    );

    const auth = new SoftwareAuthenticator();
    const res = await attemptRegistration(p.browser, id, auth.create(nonce, { counter: 0 }));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const passkey = res.body.response;
    assert.equal(passkey.object, 'passkey');
    assert.equal(passkey.id, id);
    assert.equal(passkey.verification.status, 'verified');
    assert.equal(passkey.verification.nonce, undefined);
    assert.equal(typeof passkey.name, 'string');
    assert.equal(passkey.last_used_at, null);

    const me = (await p.browser.get('/me')).body.response;
    assert.deepEqual(
      me.passkeys.map((k: { id: string; verification: { status: string } }) => [k.id, k.verification.status]),
      [[id, 'verified']],
    );
    // The next registration excludes the credential already registered.
    const next = JSON.parse((await startRegistration(p.browser)).nonce);
    assert.deepEqual(
      next.excludeCredentials.map((c: { id: string }) => c.id),
      [auth.id],
    );
  });

  it('signs in with the button or autofill: no identifier, the passkey names the account', async () => {
    const p = await person();
    const { auth, passkey } = await register(p);
    const browser = h.browser();
    const { signInId, nonce } = await startDiscoverable(browser);
    const options = JSON.parse(nonce);
    assert.equal(options.rpId, 'localhost');
    assert.equal(options.userVerification, 'required');
    assert.deepEqual(options.allowCredentials ?? [], []);
    const res = await attemptSignIn(browser, signInId, auth.get(nonce));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.response.status, 'complete');
    assert.equal(res.body.response.identifier, p.email);
    assert.equal(res.body.response.first_factor_verification.strategy, 'passkey');
    const session = res.body.client.sessions.find(
      (s: { id: string }) => s.id === res.body.response.created_session_id,
    );
    assert.equal(session.user.id, p.userId);
    const [stored] = await passkeysOf(p.userId);
    assert.equal(stored!.counter, '1');
    assert.equal(stored!.last_used_at?.getTime(), h.clock.now.getTime());
    assert.equal(session.user.passkeys[0].id, passkey.id);
    assert.equal(session.user.passkeys[0].last_used_at, h.clock.now.getTime());
  });

  it('signs in as an identified account: passkey among its first factors, only its credentials allowed', async () => {
    const p = await person();
    const { auth } = await register(p);
    const browser = h.browser();
    const created = await browser.post('/client/sign_ins', { identifier: p.email });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const factors = created.body.response.supported_first_factors.map(
      (f: { strategy: string }) => f.strategy,
    );
    assert.ok(factors.includes('passkey'), factors.join());
    const signInId = created.body.response.id;
    const prepared = await browser.post(`/client/sign_ins/${signInId}/prepare_first_factor`, {
      strategy: 'passkey',
    });
    assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
    const nonce = prepared.body.response.first_factor_verification.nonce;
    assert.deepEqual(
      JSON.parse(nonce).allowCredentials.map((c: { id: string }) => c.id),
      [auth.id],
    );
    // Another account's passkey does not sign this one in.
    const stranger = await register(await person('stranger'));
    const wrong = await attemptSignIn(browser, signInId, stranger.auth.get(nonce));
    assertError(wrong, 422, 'passkey_verification_failure');

    const again = await browser.post(`/client/sign_ins/${signInId}/prepare_first_factor`, {
      strategy: 'passkey',
    });
    const res = await attemptSignIn(
      browser,
      signInId,
      auth.get(again.body.response.first_factor_verification.nonce),
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.response.status, 'complete');
  });

  it('an account without a passkey is not offered one, and cannot prepare it', async () => {
    const p = await person();
    const browser = h.browser();
    const created = await browser.post('/client/sign_ins', { identifier: p.email });
    const factors = created.body.response.supported_first_factors.map(
      (f: { strategy: string }) => f.strategy,
    );
    assert.equal(factors.includes('passkey'), false);
    const prepared = await browser.post(`/client/sign_ins/${created.body.response.id}/prepare_first_factor`, {
      strategy: 'passkey',
    });
    assertError(prepared, 422, 'strategy_for_user_invalid');
  });

  it('a challenge is used once: a replayed assertion, or one for another sign-in, is refused', async () => {
    const p = await person();
    const { auth } = await register(p);
    const browser = h.browser();
    const { signInId, nonce } = await startDiscoverable(browser);
    const assertion = auth.get(nonce);
    const first = await attemptSignIn(browser, signInId, assertion);
    assert.equal(first.body.response?.status, 'complete', JSON.stringify(first.body));
    // The same assertion again, on a new sign-in of another browser (its challenge differs).
    const other = h.browser();
    const { signInId: otherId } = await startDiscoverable(other);
    assertError(await attemptSignIn(other, otherId, assertion), 422, 'passkey_verification_failure');

    // A failed attempt spends the challenge: a right assertion for it afterwards is refused too.
    const third = h.browser();
    const started = await startDiscoverable(third);
    const refused = await attemptSignIn(
      third,
      started.signInId,
      auth.get(started.nonce, { userVerified: false }),
    );
    assertError(refused, 422, 'passkey_verification_failure');
    const late = await attemptSignIn(third, started.signInId, auth.get(started.nonce));
    assertError(late, 422, 'verification_expired');
    assert.equal(late.body.client?.sessions?.length ?? 0, 0);
  });

  it('an expired challenge is refused', async () => {
    const p = await person();
    const { auth } = await register(p);
    const browser = h.browser();
    const { signInId, nonce } = await startDiscoverable(browser);
    h.clock.advance(301);
    assertError(await attemptSignIn(browser, signInId, auth.get(nonce)), 422, 'verification_expired');
  });

  it('a cloned authenticator (signature counter not moving forward) is refused', async () => {
    const p = await person();
    const { auth } = await register(p);
    const ok = await signInWith(auth, { counter: 5 });
    assert.equal(ok.body.response?.status, 'complete', JSON.stringify(ok.body));
    assertError(await signInWith(auth, { counter: 5 }), 422, 'passkey_verification_failure');
    assertError(await signInWith(auth, { counter: 3 }), 422, 'passkey_verification_failure');
    const [stored] = await passkeysOf(p.userId);
    assert.equal(stored!.counter, '5');
    const next = await signInWith(auth, { counter: 6 });
    assert.equal(next.body.response?.status, 'complete', JSON.stringify(next.body));
  });

  it('refuses another origin, another relying party, a wrong ceremony type and a missing user verification', async () => {
    const p = await person();
    const { auth } = await register(p);
    for (const bend of [
      { origin: 'https://evil.example' },
      { rpId: 'evil.example' },
      { type: 'webauthn.create' },
      { userVerified: false },
    ]) {
      const res = await signInWith(auth, bend);
      assertError(res, 422, 'passkey_verification_failure');
    }
    // Registration: the same checks.
    for (const bend of [
      { origin: 'https://evil.example' },
      { rpId: 'evil.example' },
      { userVerified: false },
    ]) {
      const { id, nonce } = await startRegistration(p.browser);
      const res = await attemptRegistration(p.browser, id, new SoftwareAuthenticator().create(nonce, bend));
      assertError(res, 422, 'passkey_registration_failure');
    }
    assert.equal((await passkeysOf(p.userId)).filter((k) => k.verified_at).length, 1);
  });

  it('an origin among the allowed origins is accepted', async () => {
    const other = await Harness.start(backend, { config: { allowedOrigins: ['http://localhost:4000'] } });
    try {
      const { passkeys: _, ...rest } = other.identity.settings.settings;
      await other.identity.settings.set({
        ...rest,
        passkeys: { enabled: true, allowAutofill: true, showSignInButton: true },
      });
      const email = uniqueEmail('allowed-origin');
      const browser = other.browser();
      await signUp(other, browser, email);
      const auth = new SoftwareAuthenticator('http://localhost:4000');
      const created = await browser.post('/me/passkeys');
      const res = await browser.post(`/me/passkeys/${created.body.response.id}/attempt_verification`, {
        strategy: 'passkey',
        public_key_credential: auth.create(created.body.response.verification.nonce),
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    } finally {
      await other.close();
    }
  });

  it('malformed, oversized or missing credentials are 422 in Clerk’s envelope', async () => {
    const p = await person();
    const { auth } = await register(p);
    const browser = h.browser();
    const { signInId, nonce } = await startDiscoverable(browser);
    const good = JSON.parse(auth.get(nonce));
    const cases: [Record<string, string>, string][] = [
      [{ strategy: 'passkey' }, 'form_param_nil'],
      [{ strategy: 'passkey', public_key_credential: 'not json' }, 'form_param_format_invalid'],
      [{ strategy: 'passkey', public_key_credential: '[]' }, 'form_param_format_invalid'],
      [
        { strategy: 'passkey', public_key_credential: JSON.stringify({ ...good, type: 'password' }) },
        'form_param_format_invalid',
      ],
      [
        { strategy: 'passkey', public_key_credential: JSON.stringify({ ...good, rawId: 'other' }) },
        'form_param_format_invalid',
      ],
      [
        {
          strategy: 'passkey',
          public_key_credential: JSON.stringify({ ...good, response: { ...good.response, signature: 42 } }),
        },
        'form_param_format_invalid',
      ],
      [
        {
          strategy: 'passkey',
          public_key_credential: JSON.stringify({ ...good, padding: 'x'.repeat(20_000) }),
        },
        'form_param_format_invalid',
      ],
    ];
    for (const [form, code] of cases) {
      const res = await browser.post(`/client/sign_ins/${signInId}/attempt_first_factor`, form);
      assertError(res, 422, code);
    }
    // None of these spent the challenge: the real assertion still signs in.
    const res = await attemptSignIn(browser, signInId, JSON.stringify(good));
    assert.equal(res.body.response?.status, 'complete', JSON.stringify(res.body));

    const { id } = await startRegistration(p.browser);
    assertError(
      await attemptRegistration(p.browser, id, '{"type":"public-key"}'),
      422,
      'form_param_format_invalid',
    );
    assertError(
      await p.browser.post(`/me/passkeys/${id}/attempt_verification`, {
        strategy: 'totp',
        public_key_credential: '{}',
      }),
      422,
      'strategy_for_user_invalid',
    );
  });

  it('a credential registered already (by anyone) is refused: passkey_already_exists', async () => {
    const p = await person();
    const { auth } = await register(p);
    const { id, nonce } = await startRegistration(p.browser);
    assertError(await attemptRegistration(p.browser, id, auth.create(nonce)), 422, 'passkey_already_exists');
    const q = await person('second');
    const started = await startRegistration(q.browser);
    assertError(
      await attemptRegistration(q.browser, started.id, auth.create(started.nonce)),
      422,
      'passkey_already_exists',
    );
    assert.equal((await passkeysOf(q.userId)).filter((k) => k.verified_at).length, 0);
  });

  it('a registration challenge is used once', async () => {
    const p = await person();
    const { id, nonce } = await startRegistration(p.browser);
    const bad = await attemptRegistration(
      p.browser,
      id,
      new SoftwareAuthenticator().create(nonce, { userVerified: false }),
    );
    assertError(bad, 422, 'passkey_registration_failure');
    const late = await attemptRegistration(p.browser, id, new SoftwareAuthenticator().create(nonce));
    assertError(late, 422, 'verification_expired');
  });

  it('another user’s passkey id is 404 for every profile route', async () => {
    const victim = await person('victim');
    const { passkey } = await register(victim);
    const attacker = await person('attacker');
    const calls = [
      attacker.browser.patch(`/me/passkeys/${passkey.id}`, { name: 'Taken' }),
      attacker.browser.delete(`/me/passkeys/${passkey.id}`),
      attemptRegistration(
        attacker.browser,
        passkey.id,
        new SoftwareAuthenticator().create(
          JSON.stringify({
            challenge: 'x',
            rp: { id: 'localhost', name: 'x' },
            user: { id: 'x', name: 'x' },
          }),
        ),
      ),
    ];
    for (const res of await Promise.all(calls)) assertError(res, 404, 'resource_not_found');
    const [stored] = await passkeysOf(victim.userId);
    assert.equal(stored!.id, passkey.id);
    assert.equal((await victim.browser.get('/me')).body.response.passkeys[0].name, passkey.name);
  });

  it('renames a passkey', async () => {
    const p = await person();
    const { passkey } = await register(p);
    const res = await p.browser.patch(`/me/passkeys/${passkey.id}`, { name: 'Work laptop' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.response.name, 'Work laptop');
    assert.equal((await p.browser.get('/me')).body.response.passkeys[0].name, 'Work laptop');
    assertError(await p.browser.patch(`/me/passkeys/${passkey.id}`, { name: '' }), 422, 'form_param_nil');
    assertError(
      await p.browser.patch(`/me/passkeys/${passkey.id}`, { name: 'x'.repeat(101) }),
      422,
      'form_param_max_length_exceeded',
    );
  });

  it('removes a passkey (after a recent verification); it signs nobody in afterwards', async () => {
    const p = await person();
    const { auth, passkey } = await register(p);
    h.clock.advance(11 * 60);
    assertError(await p.browser.delete(`/me/passkeys/${passkey.id}`), 403, 'session_reverification_required');
    assertError(await p.browser.post('/me/passkeys'), 403, 'session_reverification_required');
    const fresh = h.browser();
    const signedIn = await signInWith(auth, {}, fresh);
    assert.equal(signedIn.body.response?.status, 'complete');
    const removed = await fresh.delete(`/me/passkeys/${passkey.id}`);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual(removed.body.response, { object: 'passkey', id: passkey.id, deleted: true });
    assert.deepEqual((await fresh.get('/me')).body.response.passkeys, []);
    assertError(await signInWith(auth), 422, 'passkey_verification_failure');
  });

  it('re-verifies a session with a passkey (the passkey card of <UserVerification/>)', async () => {
    const p = await person('reverify');
    const { passkey, auth } = await register(p);
    const stranger = await register(await person('reverify-stranger'));
    const sessionId = p.sessionId;
    h.clock.advance(11 * 60);
    assertError(await p.browser.delete(`/me/passkeys/${passkey.id}`), 403, 'session_reverification_required');
    const verify = (step: string, form: Record<string, string>) =>
      p.browser.post(`/client/sessions/${sessionId}/verify${step}`, form);
    const started = await verify('', { level: 'second_factor' });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    assert.equal(started.body.response.supported_first_factors[0].strategy, 'passkey');
    const prepared = await verify('/prepare_first_factor', { strategy: 'passkey' });
    assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
    const nonce = prepared.body.response.first_factor_verification.nonce;
    assert.deepEqual(
      JSON.parse(nonce).allowCredentials.map((c: { id: string }) => c.id),
      [auth.id],
    );
    // Another user's passkey proves nothing here, and spends the challenge.
    const wrong = await verify('/attempt_first_factor', {
      strategy: 'passkey',
      public_key_credential: stranger.auth.get(nonce),
    });
    assertError(wrong, 422, 'passkey_verification_failure');
    assertError(
      await verify('/attempt_first_factor', { strategy: 'passkey', public_key_credential: auth.get(nonce) }),
      422,
      'verification_expired',
    );
    const again = await verify('/prepare_first_factor', { strategy: 'passkey' });
    const done = await verify('/attempt_first_factor', {
      strategy: 'passkey',
      public_key_credential: auth.get(again.body.response.first_factor_verification.nonce),
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.response.status, 'complete');
    assert.deepEqual(done.body.response.session.factor_verification_age, [0, -1]);
    const removed = await p.browser.delete(`/me/passkeys/${passkey.id}`);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
  });

  it('a user with an authenticator app still gives its code after a passkey', async () => {
    const p = await person('mfa');
    const { secret } = await enrolTotp(h, p.browser);
    h.clock.advance(61);
    const { auth } = await register(p);
    const browser = h.browser();
    const res = await signInWith(auth, {}, browser);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.response.status, 'needs_second_factor');
    assert.equal(res.body.response.created_session_id, null);
    assert.deepEqual(res.body.client.sessions, []);
    assert.deepEqual(
      res.body.response.supported_second_factors.map((f: { strategy: string }) => f.strategy).sort(),
      ['backup_code', 'totp'],
    );
    // The passkey does not stand in for the second factor either.
    const started = await startDiscoverable(h.browser());
    const skipped = await attemptSignIn(browser, res.body.response.id, auth.get(started.nonce));
    assertError(skipped, 422, 'verification_expired');
    const done = await browser.post(`/client/sign_ins/${res.body.response.id}/attempt_second_factor`, {
      strategy: 'totp',
      code: totpCode(secret, h.clock.now),
    });
    assert.equal(done.body.response?.status, 'complete', JSON.stringify(done.body));
    const session = done.body.client.sessions[0];
    assert.equal(session.user.id, p.userId);
  });

  it('a locked account stays locked', async () => {
    const p = await person('locked');
    const { auth } = await register(p);
    await h.db.query("UPDATE users SET locked_until = $2::timestamptz + interval '1 hour' WHERE id = $1", [
      p.userId,
      h.clock.now,
    ]);
    const res = await signInWith(auth);
    assertError(res, 403, 'user_locked');
    assert.equal(await h.count('sessions', 'user_id = $1', [p.userId]), 1);
    await h.db.query('UPDATE users SET locked_until = NULL WHERE id = $1', [p.userId]);
  });

  it('an impersonation session may not add or remove passkeys', async () => {
    const p = await person('impersonated');
    const { passkey } = await register(p);
    const actorSession = await h.db.query<{ id: string }>('SELECT id FROM sessions WHERE user_id = $1', [
      p.userId,
    ]);
    await h.db.query(`UPDATE sessions SET actor = '{"sub":"user_operator"}'::jsonb WHERE id = $1`, [
      actorSession[0]!.id,
    ]);
    try {
      assertError(await p.browser.post('/me/passkeys'), 403, 'not_allowed_access');
      assertError(await p.browser.delete(`/me/passkeys/${passkey.id}`), 403, 'not_allowed_access');
    } finally {
      await h.db.query('UPDATE sessions SET actor = NULL WHERE id = $1', [actorSession[0]!.id]);
    }
  });

  it('the Backend API lists a user’s passkeys and removes one as @clerk/backend calls it', async () => {
    const p = await person('bapi');
    const { passkey } = await register(p);
    const other = await person('bapi-other');
    const clerk = await backendApiClient(h);
    const user = await h.bapi(`/v1/users/${p.userId}`);
    assert.deepEqual(
      JSON.parse(user.body).passkeys.map((k: { id: string }) => k.id),
      [passkey.id],
    );
    await rejectsWith(
      clerk.users.deleteUserPasskey({ userId: other.userId, passkeyIdentificationId: passkey.id }),
      404,
      'resource_not_found',
    );
    const deleted = await clerk.users.deleteUserPasskey({
      userId: p.userId,
      passkeyIdentificationId: passkey.id,
    });
    assert.equal(deleted.id, passkey.id);
    assert.equal(deleted.deleted, true);
    assert.deepEqual(JSON.parse((await h.bapi(`/v1/users/${p.userId}`)).body).passkeys, []);
  });

  it('with passkeys off: no strategy, no factor, no registration', async () => {
    const p = await person('off');
    const { auth } = await register(p);
    await enablePasskeys(false);
    try {
      assertError(
        await h.browser().post('/client/sign_ins', { strategy: 'passkey' }),
        422,
        'form_param_value_invalid',
      );
      const created = await h.browser().post('/client/sign_ins', { identifier: p.email });
      const factors = created.body.response.supported_first_factors.map(
        (f: { strategy: string }) => f.strategy,
      );
      assert.equal(factors.includes('passkey'), false);
      assertError(await p.browser.post('/me/passkeys'), 422, 'form_param_value_invalid');
      const env = (await h.browser().get('/environment')).body;
      assert.equal(env.user_settings.attributes.passkey.enabled, false);
    } finally {
      await enablePasskeys(true);
    }
    const res = await signInWith(auth);
    assert.equal(res.body.response?.status, 'complete', JSON.stringify(res.body));
  });

  it('the password still works beside a passkey', async () => {
    const p = await person('both');
    await register(p);
    const browser = h.browser();
    const created = await browser.post('/client/sign_ins', { identifier: p.email, password: PASSWORD });
    assert.equal(created.body.response?.status, 'complete', JSON.stringify(created.body));
  });
});
