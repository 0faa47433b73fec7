import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import type { OAuth2Server } from 'oauth2-mock-server';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD } from './support/flows.ts';
import { BAPI, Harness, PUBLIC_URL, uniqueEmail, type Browser, type Json } from './support/harness.ts';
import { startOidcStandIn } from './support/oidc-stand-in.ts';
import { clientOf, openCallback, redirectBackFrom, useGoogle } from './support/social-flows.ts';

/**
 * Sign-up modes and legal consent (docs/sign-up-modes.md): restricted and waitlist modes refuse every way
 * of signing up without an invitation, with the codes clerk-js knows; an invitation's ticket opens it;
 * legal consent is a missing field (`legal_accepted`) until given, recorded as `legal_accepted_at`.
 */

const SECRET_ENV = 'SIGN_UP_MODES_TEST_GOOGLE_SECRET';
let person: { sub: string; email: string; email_verified: boolean };

forEachBackend('sign-up modes and legal consent', (backend) => {
  let h: Harness;
  let provider: OAuth2Server;

  before(async () => {
    process.env[SECRET_ENV] = 'provider-client-secret';
    provider = await startOidcStandIn((payload) => Object.assign(payload, person));
    h = await Harness.start(backend);
    await useGoogle(h, { clientId: 'modes-client', secretEnv: SECRET_ENV, issuer: provider.issuer.url! });
  });
  after(async () => {
    await h.close();
    await provider.stop();
  });
  beforeEach(() => {
    person = {
      sub: `sub-${Math.random().toString(36).slice(2)}`,
      email: uniqueEmail('g'),
      email_verified: true,
    };
  });

  async function useSignUp(signUp: Json) {
    const { signUp: _old, ...rest } = h.identity.settings.settings;
    await h.identity.settings.set(signUp === undefined ? rest : { ...rest, signUp });
  }
  const refusedWith = (res: { status: number; body: Json }, code: string) => {
    assert.equal(res.status, 403, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].code, code);
    assert.ok(res.body.errors[0].long_message);
  };
  /** The Google button on <SignIn/>: back from the provider, the callback opened. */
  async function signInWithGoogle(browser: Browser) {
    const started = await browser.post('/client/sign_ins', {
      strategy: 'oauth_google',
      redirect_url: `${PUBLIC_URL}/sign-in#/sso-callback`,
      action_complete_redirect_url: `${PUBLIC_URL}/dashboard`,
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const back = await redirectBackFrom(
      started.body.response.first_factor_verification.external_verification_redirect_url,
    );
    assert.equal((await openCallback(browser, back)).status, 303);
    return (await clientOf(browser)).sign_in;
  }
  /** An invitation to the application, as the waitlist's invite makes it: its ticket. */
  async function invitationTicket(email: string): Promise<string> {
    const auth = { authorization: `Bearer ${h.identity.secretKey}` };
    const entry = await h.app.inject({
      method: 'POST',
      url: `${BAPI}/v1/waitlist_entries`,
      headers: auth,
      payload: { email_address: email },
    });
    const invited = await h.app.inject({
      method: 'POST',
      url: `${BAPI}/v1/waitlist_entries/${entry.json().id}/invite`,
      headers: auth,
      payload: {},
    });
    assert.equal(invited.statusCode, 200, invited.body);
    return new URL(invited.json().invitation.url).searchParams.get('ticket')!;
  }

  it('the environment follows the settings: mode, legal consent and its links', async () => {
    await useSignUp({
      mode: 'restricted',
      legalConsent: {
        enabled: true,
        termsUrl: 'https://example.com/terms',
        privacyPolicyUrl: 'https://example.com/privacy',
      },
    });
    const env = (await h.browser().get('/environment')).body;
    assert.equal(env.user_settings.sign_up.mode, 'restricted');
    assert.equal(env.user_settings.sign_up.legal_consent_enabled, true);
    assert.equal(env.display_config.terms_url, 'https://example.com/terms');
    assert.equal(env.display_config.privacy_policy_url, 'https://example.com/privacy');
    assert.equal(env.display_config.waitlist_url, '');
    await useSignUp(undefined);
    const open = (await h.browser().get('/environment')).body;
    assert.equal(open.user_settings.sign_up.mode, 'public');
    assert.equal(open.user_settings.sign_up.legal_consent_enabled, false);
    assert.equal(open.display_config.terms_url, '');
  });

  for (const [mode, code] of [
    ['restricted', 'sign_up_mode_restricted'],
    ['waitlist', 'sign_up_restricted_waitlist'],
  ] as const) {
    it(`${mode}: every way of signing up without an invitation is refused with ${code}, nothing written`, async () => {
      await useSignUp({ mode });
      const sign_ups = await h.count('sign_ups');
      const clients = await h.count('clients');
      const browser = h.browser();
      const tries: Record<string, string>[] = [
        { email_address: uniqueEmail('closed'), password: PASSWORD },
        {},
        { strategy: 'oauth_google', redirect_url: `${PUBLIC_URL}/sign-up#/sso-callback` },
        { transfer: 'true' },
        { strategy: 'google_one_tap', token: 'x.y.z' },
        { web3_wallet: '0x52908400098527886E0F7030069857D2E4169EE7' },
        { email_address: uniqueEmail('closed'), legal_accepted: 'true', password: PASSWORD },
      ];
      for (const form of tries) refusedWith(await browser.post('/client/sign_ups', form), code);
      assert.equal(await h.count('sign_ups'), sign_ups);
      assert.equal(await h.count('clients'), clients);
      await useSignUp(undefined);
    });

    it(`${mode}: a new person signing in with a provider is refused on the sign-in (${code}), no account`, async () => {
      await useSignUp({ mode });
      const browser = h.browser();
      const signIn = await signInWithGoogle(browser);
      assert.equal(signIn.first_factor_verification.status, 'failed');
      assert.equal(signIn.first_factor_verification.error.code, code);
      refusedWith(await browser.post('/client/sign_ups', { transfer: 'true' }), code);
      assert.equal(await h.count('email_addresses', 'email_address = $1', [person.email]), 0);
      await useSignUp(undefined);
    });
  }

  it('restricted: an invitation’s ticket opens sign-up', async () => {
    await useSignUp({ mode: 'restricted' });
    const email = uniqueEmail('invited');
    const ticket = await invitationTicket(email);
    const browser = h.browser();
    const created = await browser.post('/client/sign_ups', {
      strategy: 'ticket',
      ticket,
      password: PASSWORD,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.response.status, 'complete');
    await useSignUp(undefined);
  });

  it('restricted: an enterprise connection still provisions the people its IdP vouches for (as in Clerk)', async () => {
    process.env.SIGN_UP_MODES_TEST_IDP_SECRET = 'idp-client-secret';
    const domain = `corp-${Date.now().toString(36)}.test`;
    await h.identity.settings.set({
      ...h.identity.settings.settings,
      signUp: { mode: 'restricted' },
      enterpriseConnections: {
        entc_modes: {
          name: 'Corp SSO',
          protocol: 'oidc',
          domains: [domain],
          issuer: provider.issuer.url!,
          clientId: 'corp-client',
          clientSecret: { env: 'SIGN_UP_MODES_TEST_IDP_SECRET' },
        },
      },
    });
    try {
      person = {
        sub: `corp-${Math.random().toString(36).slice(2)}`,
        email: `newcomer@${domain}`,
        email_verified: true,
      };
      const browser = h.browser();
      // <SignUp/> with an address at the domain: allowed, and sent to the IdP.
      const signUp = await browser.post('/client/sign_ups', { email_address: person.email });
      assert.equal(signUp.status, 200, JSON.stringify(signUp.body));
      assert.deepEqual(signUp.body.response.missing_fields, ['enterprise_sso']);
      // <SignIn/>: the IdP vouches for someone new, who is provisioned.
      const created = await browser.post('/client/sign_ins', { identifier: person.email });
      const prepared = await browser.post(
        `/client/sign_ins/${created.body.response.id}/prepare_first_factor`,
        {
          strategy: 'enterprise_sso',
          redirect_url: `${PUBLIC_URL}/sign-in/sso-callback`,
          action_complete_redirect_url: `${PUBLIC_URL}/dashboard`,
        },
      );
      assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
      const back = await redirectBackFrom(
        prepared.body.response.first_factor_verification.external_verification_redirect_url,
      );
      await openCallback(browser, back);
      assert.equal((await clientOf(browser)).sessions.length, 1);
      assert.equal(await h.count('email_addresses', 'email_address = $1', [person.email]), 1);
    } finally {
      const { enterpriseConnections: _c, signUp: _s, ...rest } = h.identity.settings.settings;
      await h.identity.settings.set(rest);
    }
  });

  it('a sign-up started before the mode closed does not complete after', async () => {
    await useSignUp(undefined);
    const email = uniqueEmail('late');
    const browser = h.browser();
    const created = await browser.post('/client/sign_ups', { email_address: email, password: PASSWORD });
    const id = created.body.response.id;
    await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'email_code' });
    await useSignUp({ mode: 'restricted' });
    const code = await h.latestCode(email);
    refusedWith(
      await browser.post(`/client/sign_ups/${id}/attempt_verification`, { strategy: 'email_code', code }),
      'sign_up_mode_restricted',
    );
    assert.equal(await h.count('email_addresses', 'email_address = $1', [email]), 0);
    await useSignUp(undefined);
  });

  describe_legal();

  function describe_legal() {
    it('legal consent: legal_accepted is missing until accepted, then recorded as legal_accepted_at', async () => {
      await useSignUp({ legalConsent: { enabled: true, termsUrl: 'https://example.com/terms' } });
      const email = uniqueEmail('consent');
      const browser = h.browser();
      const created = await browser.post('/client/sign_ups', { email_address: email, password: PASSWORD });
      assert.equal(created.status, 200);
      const id = created.body.response.id;
      assert.deepEqual(created.body.response.missing_fields, ['legal_accepted']);
      assert.equal(created.body.response.legal_accepted_at, null);
      await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'email_code' });
      const verified = await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
        strategy: 'email_code',
        code: await h.latestCode(email),
      });
      // Verified, yet no account: the consent is still missing (SignUpContinue's "Legal consent" page).
      assert.equal(verified.body.response.status, 'missing_requirements');
      assert.deepEqual(verified.body.response.missing_fields, ['legal_accepted']);
      assert.deepEqual(verified.body.response.unverified_fields, []);
      const declined = await browser.patch(`/client/sign_ups/${id}`, { legal_accepted: 'false' });
      assert.deepEqual(declined.body.response.missing_fields, ['legal_accepted']);
      const accepted = await browser.patch(`/client/sign_ups/${id}`, { legal_accepted: 'true' });
      assert.equal(accepted.body.response.status, 'complete', JSON.stringify(accepted.body));
      assert.equal(accepted.body.response.legal_accepted_at, h.clock.now.getTime());
      const user = accepted.body.client.sessions[0].user;
      assert.equal(user.legal_accepted_at, h.clock.now.getTime());
      await useSignUp(undefined);
    });

    it('legal consent given on the form (SignUpStart sends legal_accepted): the sign-up completes after the code', async () => {
      await useSignUp({ legalConsent: { enabled: true } });
      const email = uniqueEmail('consent-form');
      const browser = h.browser();
      const created = await browser.post('/client/sign_ups', {
        email_address: email,
        password: PASSWORD,
        legal_accepted: 'true',
      });
      assert.deepEqual(created.body.response.missing_fields, []);
      const id = created.body.response.id;
      await browser.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'email_code' });
      const done = await browser.post(`/client/sign_ups/${id}/attempt_verification`, {
        strategy: 'email_code',
        code: await h.latestCode(email),
      });
      assert.equal(done.body.response.status, 'complete');
      const [row] = await h.db.query<{ legal_accepted_at: Date | null }>(
        `SELECT u.legal_accepted_at FROM users u JOIN email_addresses e ON e.user_id = u.id WHERE e.email_address = $1`,
        [email],
      );
      assert.ok(row?.legal_accepted_at);
      await useSignUp(undefined);
    });

    it('legal consent: a social sign-up (transfer from sign-in) stops at legal_accepted, then completes', async () => {
      await useSignUp({ legalConsent: { enabled: true } });
      const browser = h.browser();
      const signIn = await signInWithGoogle(browser);
      assert.equal(signIn.first_factor_verification.status, 'transferable');
      const transferred = await browser.post('/client/sign_ups', { transfer: 'true' });
      assert.equal(transferred.status, 200, JSON.stringify(transferred.body));
      assert.equal(transferred.body.response.status, 'missing_requirements');
      assert.deepEqual(transferred.body.response.missing_fields, ['legal_accepted']);
      const accepted = await browser.patch(`/client/sign_ups/${transferred.body.response.id}`, {
        legal_accepted: 'true',
      });
      assert.equal(accepted.body.response.status, 'complete', JSON.stringify(accepted.body));
      await useSignUp(undefined);
    });

    it("legal consent: <SignUp/>'s Google button completes with the terms it sent, stops at legal_accepted without them", async () => {
      await useSignUp({ legalConsent: { enabled: true } });
      /** The button, the provider, the callback: the sign-up as the SSO callback finds it. */
      const viaGoogle = async (browser: Browser, form: Record<string, string>) => {
        const started = await browser.post('/client/sign_ups', {
          strategy: 'oauth_google',
          redirect_url: `${PUBLIC_URL}/sign-up#/sso-callback`,
          action_complete_redirect_url: `${PUBLIC_URL}/dashboard`,
          ...form,
        });
        assert.equal(started.status, 200, JSON.stringify(started.body));
        const back = await redirectBackFrom(
          started.body.response.verifications.external_account.external_verification_redirect_url,
        );
        return openCallback(browser, back);
      };
      const consenting = h.browser();
      const landed = await viaGoogle(consenting, { legal_accepted: 'true' });
      assert.equal(landed.headers.location, `${PUBLIC_URL}/dashboard`);
      assert.equal((await clientOf(consenting)).sessions[0].user.legal_accepted_at, h.clock.now.getTime());

      person = {
        sub: `sub-${Math.random().toString(36).slice(2)}`,
        email: uniqueEmail('g'),
        email_verified: true,
      };
      const silent = h.browser();
      await viaGoogle(silent, {});
      const signUp = (await clientOf(silent)).sign_up;
      assert.equal(signUp.verifications.external_account.status, 'verified');
      assert.deepEqual(signUp.missing_fields, ['legal_accepted']);
      assert.equal((await clientOf(silent)).sessions.length, 0);
      const accepted = await silent.patch(`/client/sign_ups/${signUp.id}`, { legal_accepted: 'true' });
      assert.equal(accepted.body.response.status, 'complete', JSON.stringify(accepted.body));
      assert.equal(accepted.body.client.sessions[0].user.legal_accepted_at, h.clock.now.getTime());
      await useSignUp(undefined);
    });
  }
});
