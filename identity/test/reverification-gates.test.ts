import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD } from './support/flows.ts';
import { newMember, type Member } from './support/organizations.ts';
import { enrolTotp, totpCode } from './support/second-factors.ts';
import { addVerifiedPhone, latestSmsCode, uniquePhone } from './support/sms.ts';
import { Harness, uniqueEmail, type FapiResponse, type Json } from './support/harness.ts';

const ELEVEN_MINUTES = 11 * 60;

/**
 * Exactly the Frontend API calls clerk-js 5.90.0 wraps in `useReverification` in <UserProfile/>
 * (`packages/clerk-js/src/ui/components/UserProfile/**`, `ui/common/RemoveResourceForm.tsx`) that this
 * provider serves. Passkeys, Web3 wallets, connected accounts and organisation domains are gated there
 * too, but have no route here.
 */
interface Call {
  call: () => Promise<FapiResponse>;
  second: () => Promise<Record<string, string>>;
}

interface Gated {
  name: string;
  /**
   * Prepares what the call needs (an address to remove…) and returns the call itself; for a user who
   * then has a second factor, `second` proves it (the strict rule asks for it once 10 minutes passed).
   */
  setUp(m: Member): Promise<Call | (() => Promise<FapiResponse>)>;
  /** What shows the call did nothing. */
  unchanged?(m: Member, me: Json): void;
}

forEachBackend('re-verification gates exactly what <UserProfile/> gates', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());

  const me = async (m: Member): Promise<Json> => (await m.browser.get('/me')).body.response;

  async function verifiedEmail(m: Member): Promise<string> {
    const email = uniqueEmail('other');
    const created = await m.browser.post('/me/email_addresses/', { email_address: email });
    const id = created.body.response.id;
    await m.browser.post(`/me/email_addresses/${id}/prepare_verification`, { strategy: 'email_code' });
    const verified = await m.browser.post(`/me/email_addresses/${id}/attempt_verification`, {
      code: await h.latestCode(email),
    });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    return id;
  }

  const gated: Gated[] = [
    {
      name: 'adding an email address (EmailForm)',
      setUp: async (m) => () =>
        m.browser.post('/me/email_addresses/', { email_address: uniqueEmail('added') }),
      unchanged: (_m, u) => assert.equal(u.email_addresses.length, 1),
    },
    {
      name: 'removing an email address (RemoveEmailForm)',
      setUp: async (m) => {
        const id = await verifiedEmail(m);
        return () => m.browser.delete(`/me/email_addresses/${id}`);
      },
      unchanged: (_m, u) => assert.equal(u.email_addresses.length, 2),
    },
    {
      name: 'making an address primary (EmailsSection)',
      setUp: async (m) => {
        const id = await verifiedEmail(m);
        return () => m.browser.patch('/me', { primary_email_address_id: id });
      },
      unchanged: (m, u) =>
        assert.equal(
          u.email_addresses.find((e: Json) => e.id === u.primary_email_address_id).email_address,
          m.email.toLowerCase(),
        ),
    },
    {
      name: 'changing the username (UsernameForm)',
      setUp: async (m) => () => m.browser.patch('/me', { username: `gated${Date.now()}` }),
      unchanged: (_m, u) => assert.equal(u.username, null),
    },
    {
      name: 'adding a phone number (PhoneForm)',
      setUp: async (m) => () => m.browser.post('/me/phone_numbers/', { phone_number: uniquePhone() }),
      unchanged: (_m, u) => assert.equal(u.phone_numbers.length, 0),
    },
    {
      name: 'removing a phone number (RemovePhoneForm)',
      setUp: async (m) => {
        const phone = await addVerifiedPhone(h, m.browser, uniquePhone());
        return () => m.browser.delete(`/me/phone_numbers/${phone.id}`);
      },
      unchanged: (_m, u) => assert.equal(u.phone_numbers.length, 1),
    },
    {
      name: 'making a phone number primary (PhoneSection)',
      setUp: async (m) => {
        await addVerifiedPhone(h, m.browser, uniquePhone());
        const second = await addVerifiedPhone(h, m.browser, uniquePhone());
        return () => m.browser.patch('/me', { primary_phone_number_id: second.id });
      },
    },
    {
      name: 'turning SMS codes on as a second factor (MfaPhoneCodeScreen)',
      setUp: async (m) => {
        const phone = await addVerifiedPhone(h, m.browser, uniquePhone());
        return () => m.browser.patch(`/me/phone_numbers/${phone.id}`, { reserved_for_second_factor: 'true' });
      },
      unchanged: (_m, u) => assert.equal(u.two_factor_enabled, false),
    },
    {
      name: 'turning SMS codes off (RemoveMfaPhoneCodeForm)',
      setUp: async (m) => {
        const phone = await addVerifiedPhone(h, m.browser, uniquePhone());
        const on = await m.browser.patch(`/me/phone_numbers/${phone.id}`, {
          reserved_for_second_factor: 'true',
        });
        assert.equal(on.status, 200, JSON.stringify(on.body));
        return {
          call: () =>
            m.browser.patch(`/me/phone_numbers/${phone.id}`, { reserved_for_second_factor: 'false' }),
          second: async () => {
            const sent = await verify(m, '/prepare_second_factor', {
              strategy: 'phone_code',
              phone_number_id: phone.id,
            });
            assert.equal(sent.status, 200, JSON.stringify(sent.body));
            return { strategy: 'phone_code', code: await latestSmsCode(h, phone.phone_number) };
          },
        };
      },
      unchanged: (_m, u) => assert.equal(u.two_factor_enabled, true),
    },
    {
      name: 'adding an authenticator app (AddAuthenticatorApp)',
      setUp: async (m) => () => m.browser.post('/me/totp'),
      unchanged: (_m, u) => assert.equal(u.totp_enabled, false),
    },
    {
      name: 'removing it (RemoveMfaTOTPForm)',
      setUp: async (m) => {
        const { secret } = await enrolTotp(h, m.browser);
        return { call: () => m.browser.delete('/me/totp'), second: async () => totpProof(secret) };
      },
      unchanged: (_m, u) => assert.equal(u.totp_enabled, true),
    },
    {
      name: 'new backup codes (MfaBackupCodeCreateForm)',
      setUp: async (m) => {
        const { secret } = await enrolTotp(h, m.browser);
        return { call: () => m.browser.post('/me/backup_codes'), second: async () => totpProof(secret) };
      },
    },
    {
      name: 'changing the password (PasswordForm)',
      setUp: async (m) => () =>
        m.browser.post('/me/change_password', { new_password: 'another horse battery' }),
    },
    {
      name: 'signing another device out (ActiveDevicesSection)',
      setUp: async (m) => {
        const other = h.browser();
        const created = await other.post('/client/sign_ins', {
          identifier: m.email,
          password: PASSWORD,
          strategy: 'password',
        });
        const sessionId = created.body.response.created_session_id;
        return () => m.browser.post(`/me/sessions/${sessionId}/revoke`);
      },
    },
    {
      name: 'deleting the account (DeleteUserForm)',
      setUp: async (m) => () => m.browser.delete('/me'),
    },
  ];

  const verify = (m: Member, step: string, form: Record<string, string> = {}) =>
    m.browser.post(`/client/sessions/${m.sessionId}/verify${step}`, form);
  const totpProof = (secret: string) => ({ strategy: 'totp', code: totpCode(secret, h.clock.now) });

  async function startVerification(m: Member) {
    const started = await verify(m, '', { level: 'first_factor' });
    assert.equal(started.status, 200, JSON.stringify(started.body));
  }

  /** The password, or with a second factor the modal's default level, `second_factor`, and its code. */
  async function completeVerification(m: Member, second?: Call['second']) {
    let done: FapiResponse;
    if (second) {
      assert.equal((await verify(m, '', { level: 'second_factor' })).status, 200);
      done = await verify(m, '/attempt_second_factor', await second());
    } else {
      await startVerification(m);
      done = await verify(m, '/attempt_first_factor', { strategy: 'password', password: PASSWORD });
    }
    assert.equal(done.body.response.status, 'complete', JSON.stringify(done.body));
  }

  function assertRefused(res: FapiResponse, what: string) {
    assert.equal(res.status, 403, `${what}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.errors[0].code, 'session_reverification_required');
  }

  for (const action of gated) {
    it(`${action.name}: refused once a verification is started or 10 minutes have passed, then passes once it completes`, async () => {
      const m = await newMember(h, 'gate');
      const prepared = await action.setUp(m);
      const { call, second } =
        typeof prepared === 'function' ? { call: prepared, second: undefined } : prepared;
      // Clerk's integration tests start a verification right after signing in and expect a prompt.
      await startVerification(m);
      assertRefused(await call(), `${action.name} after startVerification`);
      action.unchanged?.(m, await me(m));
      await completeVerification(m);
      h.clock.advance(ELEVEN_MINUTES);
      assertRefused(await call(), `${action.name} 11 minutes later`);
      action.unchanged?.(m, await me(m));
      await completeVerification(m, second);
      const passed = await call();
      assert.ok(passed.status < 300, `${action.name} once verified: ${JSON.stringify(passed.body)}`);
    });
  }

  it('what clerk-js does not gate passes while a verification is open: names, metadata, verifying codes, the default second factor, the image', async () => {
    const m = await newMember(h, 'ungated');
    const b = m.browser;
    const phone = await addVerifiedPhone(h, b, uniquePhone());
    const second = await addVerifiedPhone(h, b, uniquePhone());
    for (const p of [phone, second]) {
      assert.equal(
        (await b.patch(`/me/phone_numbers/${p.id}`, { reserved_for_second_factor: 'true' })).status,
        200,
      );
    }
    const created = await b.post('/me/totp');
    const email = uniqueEmail('ungated-second');
    const address = (await b.post('/me/email_addresses/', { email_address: email })).body.response.id;
    await startVerification(m);

    const ok = (res: FapiResponse, what: string) =>
      assert.equal(res.status, 200, `${what}: ${JSON.stringify(res.body)}`);
    ok(await b.patch('/me', { first_name: 'Ada', last_name: 'Lovelace' }), 'names');
    ok(await b.patch('/me', { unsafe_metadata: '{"a":1}' }), 'unsafe metadata');
    ok(
      await b.post(`/me/email_addresses/${address}/prepare_verification`, { strategy: 'email_code' }),
      'sending a code',
    );
    ok(
      await b.post(`/me/email_addresses/${address}/attempt_verification`, {
        code: await h.latestCode(email),
      }),
      'verifying an address',
    );
    ok(
      await b.post('/me/totp/attempt_verification', {
        code: totpCode(created.body.response.secret, h.clock.now),
      }),
      'verifying the app',
    );
    ok(
      await b.patch(`/me/phone_numbers/${second.id}`, { default_second_factor: 'true' }),
      'the default second factor',
    );
    ok(await b.get('/me/sessions/active'), 'listing devices');
  });

  it("another user's verification does not gate this one; a replayed completion does not lift a new demand", async () => {
    const a = await newMember(h, 'gate-a');
    const b = await newMember(h, 'gate-b');
    await startVerification(a);
    assert.equal((await b.browser.post('/me/totp')).status, 200);
    // B cannot start (nor complete) a verification of A's session.
    const theirs = await b.browser.post(`/client/sessions/${a.sessionId}/verify`, { level: 'first_factor' });
    assert.ok(theirs.status >= 400);
    await completeVerification(a);
    await startVerification(a);
    // The finished verification cannot be spent again on the new one.
    const replay = await a.browser.post(`/client/sessions/${a.sessionId}/verify/attempt_first_factor`, {
      strategy: 'password',
      password: 'not the password',
    });
    assert.equal(replay.status, 422, JSON.stringify(replay.body));
    assertRefused(await a.browser.post('/me/totp'), 'after a wrong password');
  });
});
