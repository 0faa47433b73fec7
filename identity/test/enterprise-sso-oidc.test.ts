import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import type { OAuth2Server } from 'oauth2-mock-server';
import { forEachBackend } from './support/backends.ts';
import { Harness, type Browser } from './support/harness.ts';
import { startOidcStandIn } from './support/oidc-stand-in.ts';
import { enrolTotp } from './support/second-factors.ts';
import {
  backendOrganization,
  clientOf,
  openCallback,
  redirectBackFrom,
  signUpBeforeConnections,
} from './support/social-flows.ts';

/**
 * Enterprise SSO by OpenID Connect against a real provider on this machine (oauth2-mock-server:
 * discovery, JWKS-signed ID tokens, PKCE, nonce) playing the company's IdP. The connection rides on the
 * social sign-in's OAuth client and `/v1/oauth_callback`: the same state, PKCE and ID-token checks.
 */

const SECRET_ENV = 'ENTERPRISE_SSO_TEST_OIDC_SECRET';
const CONNECTION = 'entc_initech';
const DOMAIN = 'initech.test';

let n = 0;
const initechEmail = (prefix = 'person') => `${prefix}-${Date.now().toString(36)}-${++n}@${DOMAIN}`;

/** Who the IdP says signs in next, and how its ID token is spoiled (for the attacks). */
let person: Record<string, unknown>;
let spoil: ((payload: Record<string, unknown>) => void) | null = null;

forEachBackend('enterprise SSO with OpenID Connect', (backend) => {
  let h: Harness;
  let provider: OAuth2Server;
  let organizationId: string;
  const app = (path: string) => `${h.config.publicUrl}${path}`;

  before(async () => {
    process.env[SECRET_ENV] = 'idp-client-secret';
    provider = await startOidcStandIn((payload) => {
      Object.assign(payload, person);
      spoil?.(payload);
    });
    h = await Harness.start(backend);
    organizationId = await backendOrganization(h, 'Initech');
    await h.identity.settings.set({
      ...h.identity.settings.settings,
      enterpriseConnections: {
        [CONNECTION]: {
          name: 'Initech SSO',
          protocol: 'oidc',
          domains: [DOMAIN],
          organization: organizationId,
          defaultRole: 'org:admin',
          issuer: provider.issuer.url!,
          clientId: 'initech-client',
          clientSecret: { env: SECRET_ENV },
        },
      },
    });
  });
  after(async () => {
    await h.close();
    await provider.stop();
  });
  beforeEach(() => {
    spoil = null;
    person = { sub: `sub-${Math.random().toString(36).slice(2)}`, email: initechEmail() };
  });

  /** The identifier, prepare_first_factor, and the IdP's redirect back (the person at the IdP signs in). */
  async function toIdp(browser: Browser): Promise<string> {
    const created = await browser.post('/client/sign_ins', { identifier: String(person.email) });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.deepEqual(created.body.response.supported_first_factors, [{ strategy: 'enterprise_sso' }]);
    const prepared = await browser.post(`/client/sign_ins/${created.body.response.id}/prepare_first_factor`, {
      strategy: 'enterprise_sso',
      redirect_url: app('/sign-in/sso-callback'),
      action_complete_redirect_url: app('/dashboard'),
    });
    assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
    const verification = prepared.body.response.first_factor_verification;
    assert.equal(verification.status, 'unverified');
    assert.equal(verification.strategy, 'enterprise_sso');
    const authorize = new URL(verification.external_verification_redirect_url);
    assert.equal(authorize.origin, new URL(provider.issuer.url!).origin);
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(authorize.searchParams.get('nonce'));
    assert.equal(authorize.searchParams.get('login_hint'), person.email);
    assert.equal(authorize.searchParams.get('redirect_uri'), `${h.identity.deps.fapiBase}/v1/oauth_callback`);
    return redirectBackFrom(authorize);
  }

  const callback = openCallback;
  const client = clientOf;

  /** <SignUp/> with an address at the domain (and `form`), then clerk-js's PATCH to the IdP: its URL. */
  async function signUpToIdp(browser: Browser, form: Record<string, string> = {}): Promise<URL> {
    const created = await browser.post('/client/sign_ups', { email_address: String(person.email), ...form });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.deepEqual(created.body.response.missing_fields, ['enterprise_sso']);
    const patched = await browser.patch(`/client/sign_ups/${created.body.response.id}`, {
      strategy: 'enterprise_sso',
      redirect_url: app('/sign-up/sso-callback'),
      action_complete_redirect_url: app('/dashboard'),
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const external = patched.body.response.verifications.external_account;
    assert.equal(external.status, 'unverified');
    return new URL(external.external_verification_redirect_url);
  }

  it('<SignUp/> with an address at the domain goes to the IdP, which completes the sign-up', async () => {
    const browser = h.browser();
    const authorize = await signUpToIdp(browser, { password: 'a-long-enough-passphrase-42' });
    assert.equal(authorize.origin, new URL(provider.issuer.url!).origin);
    assert.equal(authorize.searchParams.get('login_hint'), person.email);
    const landed = await callback(browser, await redirectBackFrom(authorize));
    assert.equal(landed.headers.location, app('/dashboard'));
    const c = await client(browser);
    assert.equal(c.sign_up, null);
    assert.equal(c.sessions.length, 1);
    assert.equal(c.sessions[0].user.email_addresses[0].email_address, person.email);
    assert.equal(c.sessions[0].user.password_enabled, false);
    assert.equal(c.sessions[0].user.enterprise_accounts.length, 1);
  });

  it('advertises enterprise SSO (not SAML) in the environment', async () => {
    const env = (await h.browser().get('/environment')).body;
    assert.deepEqual(env.user_settings.enterprise_sso, { enabled: true });
    assert.deepEqual(env.user_settings.saml, { enabled: false });
  });

  it('a new person is provisioned and joins the organisation; signed out, they sign straight in again', async () => {
    person.given_name = 'Peter';
    person.family_name = 'Gibbons';
    const browser = h.browser();
    const landed = await callback(browser, await toIdp(browser));
    assert.equal(landed.status, 303);
    assert.equal(landed.headers.location, app('/dashboard'));
    const user = (await client(browser)).sessions[0].user;
    assert.equal(user.email_addresses[0].email_address, person.email);
    assert.equal(user.first_name, 'Peter');
    assert.equal(user.enterprise_accounts.length, 1);
    assert.equal(user.enterprise_accounts[0].protocol, 'oauth');
    assert.equal(user.enterprise_accounts[0].provider, 'oidc_custom');
    assert.equal(user.enterprise_accounts[0].provider_user_id, person.sub);
    assert.equal(user.enterprise_accounts[0].enterprise_connection.id, CONNECTION);
    assert.deepEqual(user.saml_accounts, []);
    assert.deepEqual(user.external_accounts, []);
    assert.deepEqual(
      user.organization_memberships.map((m: { organization: { id: string }; role: string }) => [
        m.organization.id,
        m.role,
      ]),
      [[organizationId, 'org:admin']],
    );

    const again = h.browser();
    const landedAgain = await callback(again, await toIdp(again));
    assert.equal(landedAgain.headers.location, app('/dashboard'));
    assert.equal((await client(again)).sessions[0].user.id, user.id);
    assert.equal(await h.count('enterprise_accounts', 'user_id = $1', [user.id]), 1);
    assert.equal(await h.count('organization_memberships', 'user_id = $1', [user.id]), 1);
  });

  it('an existing user is linked by the address; a second factor is still asked', async () => {
    const email = initechEmail('existing');
    const ownerBrowser = h.browser();
    const owner = await signUpBeforeConnections(h, ownerBrowser, email);
    await enrolTotp(h, ownerBrowser);
    person.email = email;
    const browser = h.browser();
    const landed = await callback(browser, await toIdp(browser));
    assert.equal(landed.headers.location, app('/sign-in/sso-callback'));
    const signIn = (await client(browser)).sign_in;
    assert.equal(signIn.status, 'needs_second_factor');
    assert.equal(signIn.first_factor_verification.strategy, 'enterprise_sso');
    assert.equal(await h.count('enterprise_accounts', 'user_id = $1', [owner.userId]), 1);
    assert.equal(
      await h.count('sessions', 'user_id = $1', [owner.userId]),
      1,
      "only the owner's own session",
    );
  });

  it('refuses an ID token for another audience, a wrong nonce, and an address outside the domains; nothing created', async () => {
    const attacks: ((p: Record<string, unknown>) => void)[] = [
      (p) => (p.aud = 'another-client'),
      (p) => (p.nonce = 'not-the-nonce'),
      (p) => (p.email = `ceo-${Date.now()}@globex.test`),
    ];
    for (const attack of attacks) {
      const users = await h.count('users');
      spoil = attack;
      const browser = h.browser();
      const landed = await callback(browser, await toIdp(browser));
      assert.equal(landed.headers.location, app('/sign-in/sso-callback'));
      const signIn = (await client(browser)).sign_in;
      assert.equal(signIn.first_factor_verification.status, 'failed');
      assert.ok(
        ['external_account_verification_failed', 'enterprise_sso_email_address_domain_mismatch'].includes(
          signIn.first_factor_verification.error.code,
        ),
        signIn.first_factor_verification.error.code,
      );
      assert.equal(await h.count('users'), users);
      assert.equal((await client(browser)).sessions.length, 0);
    }
  });

  it("refuses another browser's callback and a replayed one", async () => {
    const browser = h.browser();
    const back = await toIdp(browser);
    const users = await h.count('users');
    const thief = h.browser();
    const stolen = await callback(thief, back);
    assert.equal(stolen.headers.location, app('/sign-in'));
    // The state was spent by the stolen use: the owner's own callback is refused too.
    const late = await callback(browser, back);
    assert.equal(late.headers.location, app('/sign-in'));
    assert.equal(
      (await client(browser)).sign_in.first_factor_verification.error.code,
      'oauth_callback_invalid',
    );
    assert.equal(await h.count('users'), users);
  });

  describe('with the legal consent the instance requires', () => {
    let settings: typeof h.identity.settings.settings;
    beforeEach(async () => {
      settings = h.identity.settings.settings;
      await h.identity.settings.set({
        ...settings,
        signUp: { mode: 'public', legalConsent: { enabled: true, termsUrl: 'https://example.com/terms' } },
      });
    });
    afterEach(() => h.identity.settings.set(settings));

    /** <SignUp/> (with the terms checkbox ticked, when `consent`) to the IdP and back. */
    const signUpThroughIdp = async (browser: Browser, consent: boolean) =>
      callback(
        browser,
        await redirectBackFrom(await signUpToIdp(browser, consent ? { legal_accepted: 'true' } : {})),
      );

    /**
     * The IdP vouched for a newcomer who has not consented: no account yet; the sign-in is transferable, and
     * the sign-up clerk-js transfers it to asks for `legal_accepted` (SignUpContinue's "Legal consent" page)
     * before the account is made, provisioned as at sign-in, with the consent recorded.
     */
    async function consentAfterIdp(browser: Browser) {
      const users = await h.count('users');
      const signIn = (await client(browser)).sign_in;
      assert.equal(signIn.first_factor_verification.status, 'transferable');
      assert.equal(signIn.first_factor_verification.strategy, 'enterprise_sso');
      assert.equal(signIn.first_factor_verification.error.code, 'external_account_not_found');
      assert.equal(await h.count('users'), users, 'no account before the consent');

      const transferred = await browser.post('/client/sign_ups', { transfer: 'true' });
      assert.equal(transferred.status, 200, JSON.stringify(transferred.body));
      const signUp = transferred.body.response;
      assert.equal(signUp.status, 'missing_requirements');
      assert.deepEqual(signUp.missing_fields, ['legal_accepted']);
      assert.deepEqual(signUp.unverified_fields, []);
      assert.equal(signUp.email_address, person.email);
      assert.equal(signUp.verifications.external_account.status, 'verified');
      assert.equal(signUp.verifications.external_account.strategy, 'enterprise_sso');
      assert.equal(await h.count('users'), users);

      const accepted = await browser.patch(`/client/sign_ups/${signUp.id}`, { legal_accepted: 'true' });
      assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
      assert.equal(accepted.body.response.status, 'complete');
      const user = accepted.body.client.sessions[0].user;
      assert.equal(user.legal_accepted_at, h.clock.now.getTime());
      assert.equal(user.email_addresses[0].email_address, person.email);
      assert.equal(user.email_addresses[0].verification.strategy, 'enterprise_sso');
      assert.equal(user.password_enabled, false);
      assert.equal(user.enterprise_accounts.length, 1);
      assert.equal(user.enterprise_accounts[0].provider_user_id, person.sub);
      assert.deepEqual(
        user.organization_memberships.map((m: { organization: { id: string } }) => m.organization.id),
        [organizationId],
      );
      return user;
    }

    it('<SignUp/> with the terms accepted: the IdP completes the sign-up and the consent is recorded', async () => {
      const browser = h.browser();
      const landed = await signUpThroughIdp(browser, true);
      assert.equal(landed.headers.location, app('/dashboard'));
      const user = (await client(browser)).sessions[0].user;
      assert.equal(user.legal_accepted_at, h.clock.now.getTime());
      assert.equal(user.enterprise_accounts.length, 1);
    });

    it('a sign-up without the terms (a custom flow): after the IdP, legal_accepted is asked before the account', async () => {
      const browser = h.browser();
      const landed = await signUpThroughIdp(browser, false);
      assert.equal(landed.headers.location, app('/sign-up/sso-callback'));
      await consentAfterIdp(browser);
    });

    it('a newcomer from <SignIn/>: after the IdP, legal_accepted is asked before the account', async () => {
      const browser = h.browser();
      const landed = await callback(browser, await toIdp(browser));
      assert.equal(landed.headers.location, app('/sign-in/sso-callback'));
      const user = await consentAfterIdp(browser);
      // Signed out, they sign straight in again: consent is asked once, of the sign-up.
      const again = h.browser();
      assert.equal((await callback(again, await toIdp(again))).headers.location, app('/dashboard'));
      assert.equal((await client(again)).sessions[0].user.id, user.id);
    });

    it('in waitlist mode too (the IdP opens sign-up), and an existing user is not asked', async () => {
      await h.identity.settings.set({
        ...h.identity.settings.settings,
        signUp: { mode: 'waitlist', legalConsent: { enabled: true } },
      });
      const browser = h.browser();
      await callback(browser, await toIdp(browser));
      const user = await consentAfterIdp(browser);
      // Consent recorded on the account, it is not asked at the next sign-in.
      const again = h.browser();
      assert.equal((await callback(again, await toIdp(again))).headers.location, app('/dashboard'));
      assert.equal((await client(again)).sessions[0].user.id, user.id);
    });
  });
});
