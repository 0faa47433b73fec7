import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { OAuth2Server } from 'oauth2-mock-server';
import { forEachBackend } from './support/backends.ts';
import { powToken } from './support/captcha.ts';
import { Harness, uniqueEmail, type Browser, type FapiResponse } from './support/harness.ts';
import { startOidcStandIn } from './support/oidc-stand-in.ts';
import { clientOf, openCallback, redirectBackFrom, useGoogle } from './support/social-flows.ts';

/**
 * The captcha's OAuth bypass (`captcha_oauth_bypass`) lets a sign-up skip the captcha because the provider
 * vouches for the person: it holds only for a sign-up that provider completes. A sign-up created with a
 * bypassed strategy and then completed another way (an email code, a PATCH adding an address and a
 * password) asks for the captcha like any sign-up (the modal, `requires_captcha`) and counts in the sign-up
 * limits; the provider's own callback still asks nothing.
 */

const PASSWORD = 'correct-horse-battery-staple-42';
const SECRET_ENV = 'CAPTCHA_BYPASS_TEST_GOOGLE_SECRET';

let person: { sub: string; email?: string; email_verified?: boolean };

const codeOf = (res: FapiResponse): string | undefined => res.body?.errors?.[0]?.code;

forEachBackend('captcha: the OAuth bypass holds only for the provider', (backend) => {
  let h: Harness;
  let provider: OAuth2Server;
  const app = (path: string) => `${h.config.publicUrl}${path}`;

  before(async () => {
    process.env[SECRET_ENV] = 'provider-client-secret';
    provider = await startOidcStandIn((payload) => Object.assign(payload, person));
    h = await Harness.start(backend);
    await useGoogle(h, {
      clientId: 'qoala-test-client',
      secretEnv: SECRET_ENV,
      issuer: provider.issuer.url!,
    });
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

  async function useCaptcha(extra: Record<string, unknown> = {}) {
    await h.identity.settings.set({
      ...h.identity.settings.settings,
      captcha: { provider: 'proof_of_work', proofOfWork: { maxNumber: 2000 }, ...extra },
    });
  }

  /** What clerk-js sends for the Google button: no captcha token (Google is in the bypass list). */
  async function googleSignUp(b: Browser, form: Record<string, string> = {}): Promise<FapiResponse> {
    const res = await b.post('/client/sign_ups', {
      strategy: 'oauth_google',
      redirect_url: app('/sign-up#/sso-callback'),
      action_complete_redirect_url: app('/dashboard'),
      ...form,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.response.verifications.external_account.status, 'unverified');
    return res;
  }

  /** The modal's answer (clerk-js's `POST /client/verify` after `requires_captcha`). */
  async function solveModal(b: Browser) {
    const res = await b.post('/client/verify', {
      captcha_token: await powToken(b),
      captcha_action: 'verify',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }

  /** An email code asked for a sign-up let in without a captcha: the modal first, then the code; complete. */
  async function completeByEmailCode(b: Browser, id: string, email: string) {
    const prepare = () => b.post(`/client/sign_ups/${id}/prepare_verification`, { strategy: 'email_code' });
    const refused = await prepare();
    assert.equal(refused.status, 401, JSON.stringify(refused.body));
    assert.equal(codeOf(refused), 'requires_captcha');
    assert.equal((await h.mail(email)).length, 0, 'no code is mailed before the captcha');
    await solveModal(b);
    const prepared = await prepare();
    assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
    const done = await b.post(`/client/sign_ups/${id}/attempt_verification`, {
      strategy: 'email_code',
      code: await h.latestCode(email),
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.response.status, 'complete');
    return done;
  }

  describe('a sign-up the provider did not complete', () => {
    beforeEach(() => useCaptcha());

    it('strategy=oauth_google with an address and a password, then an email code: the captcha is asked', async () => {
      const b = h.browser();
      const email = uniqueEmail('bypass-create');
      const created = await googleSignUp(b, { email_address: email, password: PASSWORD });
      const done = await completeByEmailCode(b, created.body.response.id, email);
      assert.equal(done.body.client.sessions[0].user.password_enabled, true);
    });

    it('a plain oauth_google sign-up to which a PATCH adds the address and the password: the same', async () => {
      const b = h.browser();
      const email = uniqueEmail('bypass-patch');
      const created = await googleSignUp(b);
      const id = created.body.response.id;
      const patched = await b.patch(`/client/sign_ups/${id}`, { email_address: email, password: PASSWORD });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      await completeByEmailCode(b, id, email);
    });

    it('such sign-ups count in the sign-up limit of their address', async () => {
      await useCaptcha({ challenge: { signUpsPerIpPerHour: 2, signUpsPerClientPerHour: 100 } });
      const ip = '10.251.7.7';
      for (let i = 0; i < 2; i++) {
        const b = h.browser({ ip });
        const email = uniqueEmail('bypass-limit');
        const created = await googleSignUp(b, { email_address: email, password: PASSWORD });
        await completeByEmailCode(b, created.body.response.id, email);
      }
      // The address has had its two sign-ups this hour: a normal one, token and all, now asks for the modal.
      const next = h.browser({ ip });
      const res = await next.post('/client/sign_ups', {
        email_address: uniqueEmail('bypass-limit'),
        password: PASSWORD,
        captcha_token: await powToken(next),
      });
      assert.equal(codeOf(res), 'requires_captcha');
    });

    it('a transfer naming a bypassed strategy its sign-in did not use asks for the captcha', async () => {
      // Only GitHub is trusted; the person came back from Google.
      await useCaptcha({ oauthBypass: ['oauth_github'] });
      const b = h.browser();
      const started = await b.post('/client/sign_ins', {
        strategy: 'oauth_google',
        redirect_url: app('/sign-in#/sso-callback'),
      });
      const authorize = started.body.response.first_factor_verification.external_verification_redirect_url;
      await openCallback(b, await redirectBackFrom(authorize));
      assert.equal((await clientOf(b)).sign_in.first_factor_verification.status, 'transferable');
      const transfer = () => b.post('/client/sign_ups', { transfer: 'true', strategy: 'oauth_github' });
      const refused = await transfer();
      assert.equal(codeOf(refused), 'requires_captcha');
      assert.equal(await h.count('sign_ups', 'email_address = $1', [person.email]), 0);
      await solveModal(b);
      const done = await transfer();
      assert.equal(done.status, 200, JSON.stringify(done.body));
      assert.equal(done.body.response.status, 'complete');
    });
  });

  describe('a sign-up the provider completed', () => {
    beforeEach(() => useCaptcha({ challenge: { signUpsPerIpPerHour: 1, signUpsPerClientPerHour: 1 } }));

    it('completes at the callback with no captcha, past the thresholds', async () => {
      const ip = '10.251.8.8';
      for (let i = 0; i < 3; i++) {
        person = { sub: `sub-${i}-${Date.now()}`, email: uniqueEmail('genuine'), email_verified: true };
        const b = h.browser({ ip });
        const created = await googleSignUp(b);
        const authorize =
          created.body.response.verifications.external_account.external_verification_redirect_url;
        const landed = await openCallback(b, await redirectBackFrom(authorize));
        assert.equal(landed.headers.location, app('/dashboard'));
        assert.equal((await clientOf(b)).sessions[0].user.email_addresses[0].email_address, person.email);
      }
    });

    it('an address the provider does not assert verified is verified by a code, with no captcha', async () => {
      const email = uniqueEmail('genuine-unverified');
      person = { sub: `sub-unverified-${Date.now()}`, email, email_verified: false };
      const b = h.browser();
      const created = await googleSignUp(b);
      const authorize =
        created.body.response.verifications.external_account.external_verification_redirect_url;
      await openCallback(b, await redirectBackFrom(authorize));
      const signUp = (await clientOf(b)).sign_up;
      assert.equal(signUp.verifications.external_account.status, 'verified');
      assert.deepEqual(signUp.unverified_fields, ['email_address']);
      const prepared = await b.post(`/client/sign_ups/${signUp.id}/prepare_verification`, {
        strategy: 'email_code',
      });
      assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
      const done = await b.post(`/client/sign_ups/${signUp.id}/attempt_verification`, {
        strategy: 'email_code',
        code: await h.latestCode(email),
      });
      assert.equal(done.body.response.status, 'complete');
    });
  });
});
