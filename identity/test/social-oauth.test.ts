import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import type { OAuth2Server } from 'oauth2-mock-server';
import { startOidcStandIn } from './support/oidc-stand-in.ts';
import { forEachBackend } from './support/backends.ts';
import { signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Browser } from './support/harness.ts';
import { enrolTotp } from './support/second-factors.ts';
import { clientOf, openCallback, redirectBackFrom, useGoogle } from './support/social-flows.ts';

/**
 * Social sign-in by redirect against a real OpenID Connect provider on this machine (oauth2-mock-server:
 * discovery, JWKS, PKCE, nonce), standing in for Google: the provider's account signs up, signs in again,
 * links by verified email only, and every broken or foreign callback is refused with nothing created.
 */

const SECRET_ENV = 'SOCIAL_OAUTH_TEST_GOOGLE_SECRET';
const CLIENT_ID = 'qoala-test-client';

/** Who the stand-in says signs in next, and how its ID token is spoiled (for the attacks). */
interface Person {
  sub: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
}
let person: Person;
let spoil: ((payload: Record<string, unknown>) => void) | null = null;

forEachBackend('social sign-in by redirect (OAuth 2 / OpenID Connect)', (backend) => {
  let h: Harness;
  let provider: OAuth2Server;
  const app = (path: string) => `${h.config.publicUrl}${path}`;

  before(async () => {
    process.env[SECRET_ENV] = 'provider-client-secret';
    provider = await startOidcStandIn((payload) => {
      Object.assign(payload, person);
      spoil?.(payload);
    });
    h = await Harness.start(backend);
    await configure({ signUpAllowed: true });
  });
  after(async () => {
    await h.close();
    await provider.stop();
  });
  beforeEach(() => {
    spoil = null;
    person = {
      sub: `sub-${Math.random().toString(36).slice(2)}`,
      email: uniqueEmail('oauth'),
      email_verified: true,
    };
  });

  async function configure(google: { signUpAllowed: boolean }) {
    await useGoogle(h, {
      clientId: CLIENT_ID,
      secretEnv: SECRET_ENV,
      issuer: provider.issuer.url!,
      signUpAllowed: google.signUpAllowed,
    });
  }

  /** The button: the attempt is created and the browser goes to the provider, which sends it back. */
  async function toProvider(browser: Browser, resource: 'sign_ins' | 'sign_ups'): Promise<string> {
    const started = await browser.post(`/client/${resource}`, {
      strategy: 'oauth_google',
      redirect_url: app('/sign-in#/sso-callback'),
      action_complete_redirect_url: app('/dashboard'),
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const verification =
      resource === 'sign_ins'
        ? started.body.response.first_factor_verification
        : started.body.response.verifications.external_account;
    assert.equal(verification.status, 'unverified');
    assert.equal(verification.strategy, 'oauth_google');
    const authorize = new URL(verification.external_verification_redirect_url);
    assert.equal(authorize.origin, new URL(provider.issuer.url!).origin);
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(authorize.searchParams.get('nonce'));
    return redirectBackFrom(authorize);
  }

  const callback = openCallback;
  const client = clientOf;

  it('answers what clerk-js needs to start: the environment lists the provider with a local logo', async () => {
    const env = (await h.browser().get('/environment')).body;
    const google = env.user_settings.social.oauth_google;
    assert.deepEqual(
      { ...google, logo_url: undefined },
      {
        enabled: true,
        required: false,
        authenticatable: true,
        block_email_subaddresses: false,
        strategy: 'oauth_google',
        name: 'Google',
        logo_url: undefined,
      },
    );
    assert.ok(google.logo_url.startsWith(h.config.publicUrl), google.logo_url);
    const logo = await h.app.inject({ method: 'GET', url: new URL(google.logo_url).pathname });
    assert.equal(logo.statusCode, 200);
    assert.match(String(logo.headers['content-type']), /^image\/svg\+xml/);
  });

  it('a new person signs in with the provider: transferable, then the sign-up transfer completes', async () => {
    const browser = h.browser();
    const back = await toProvider(browser, 'sign_ins');
    const landed = await callback(browser, back);
    assert.equal(landed.status, 303);
    assert.equal(landed.headers.location, app('/sign-in#/sso-callback'));
    const signIn = (await client(browser)).sign_in;
    assert.equal(signIn.first_factor_verification.status, 'transferable');
    assert.equal(signIn.first_factor_verification.error.code, 'external_account_not_found');

    const transferred = await browser.post('/client/sign_ups', { transfer: 'true' });
    assert.equal(transferred.status, 200, JSON.stringify(transferred.body));
    assert.equal(transferred.body.response.status, 'complete');
    const userId = transferred.body.response.created_user_id;
    const user = transferred.body.client.sessions[0].user;
    assert.equal(user.id, userId);
    assert.equal(user.email_addresses[0].email_address, person.email);
    // Verified by the provider's assertion, as Clerk names it, not by a code nobody sent.
    assert.equal(user.email_addresses[0].verification.strategy, 'from_oauth_google');
    assert.equal(user.password_enabled, false);
    assert.equal(user.external_accounts.length, 1);
    assert.equal(user.external_accounts[0].object, 'external_account');
    assert.equal(user.external_accounts[0].provider, 'google');
    assert.equal(user.external_accounts[0].provider_user_id, person.sub);
    assert.equal(user.external_accounts[0].identification_id, user.email_addresses[0].id);
    assert.equal(user.external_accounts[0].verification.status, 'verified');
    assert.equal(await h.count('external_accounts', 'user_id = $1', [userId]), 1);

    // Signed out, the same provider account signs straight in and lands on the completed page.
    const again = h.browser();
    const landedAgain = await callback(again, await toProvider(again, 'sign_ins'));
    assert.equal(landedAgain.status, 303);
    assert.equal(landedAgain.headers.location, app('/dashboard'));
    const signedIn = await client(again);
    assert.equal(signedIn.sessions.length, 1);
    assert.equal(signedIn.sessions[0].user.id, userId);
    assert.equal(signedIn.last_active_session_id, signedIn.sessions[0].id);
  });

  it('a sign-up with the provider completes at the callback and goes to the completed page', async () => {
    const browser = h.browser();
    const landed = await callback(browser, await toProvider(browser, 'sign_ups'));
    assert.equal(landed.status, 303);
    assert.equal(landed.headers.location, app('/dashboard'));
    const c = await client(browser);
    assert.equal(c.sessions.length, 1);
    assert.equal(c.sessions[0].user.email_addresses[0].email_address, person.email);
  });

  it('a sign-up of a provider account that exists is transferable to a sign-in (external_account_exists)', async () => {
    const first = h.browser();
    await callback(first, await toProvider(first, 'sign_ups'));
    const userId = (await client(first)).sessions[0].user.id;

    const second = h.browser();
    const landed = await callback(second, await toProvider(second, 'sign_ups'));
    assert.equal(landed.headers.location, app('/sign-in#/sso-callback'));
    const external = (await client(second)).sign_up.verifications.external_account;
    assert.equal(external.status, 'transferable');
    assert.equal(external.error.code, 'external_account_exists');
    const signedIn = await second.post('/client/sign_ins', { transfer: 'true' });
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    assert.equal(signedIn.body.response.status, 'complete');
    assert.equal(signedIn.body.client.sessions[0].user.id, userId);
    assert.equal(await h.count('users', 'id = $1', [userId]), 1);
  });

  it('links to the account holding the address when the provider asserts it verified; a second factor is still asked', async () => {
    const owner = h.browser();
    const email = uniqueEmail('linked');
    const existing = await signUp(h, owner, email);
    await enrolTotp(h, owner);
    person.email = email;
    const browser = h.browser();
    const landed = await callback(browser, await toProvider(browser, 'sign_ins'));
    assert.equal(landed.headers.location, app('/sign-in#/sso-callback'));
    const signIn = (await client(browser)).sign_in;
    assert.equal(signIn.status, 'needs_second_factor');
    assert.equal(signIn.first_factor_verification.status, 'verified');
    assert.equal(await h.count('external_accounts', 'user_id = $1', [existing.userId]), 1);
    // Only the owner's own session: the provider's sign-in waits for the second factor.
    assert.equal(await h.count('sessions', 'user_id = $1', [existing.userId]), 1);
  });

  it('never links on an address the provider does not assert verified: it must be verified by a code', async () => {
    const email = uniqueEmail('unverified');
    const existing = await signUp(h, h.browser(), email);
    person = { ...person, email, email_verified: false };
    const browser = h.browser();
    await callback(browser, await toProvider(browser, 'sign_ins'));
    assert.equal((await client(browser)).sign_in.first_factor_verification.status, 'transferable');
    const transferred = await browser.post('/client/sign_ups', { transfer: 'true' });
    assert.equal(transferred.status, 200, JSON.stringify(transferred.body));
    assert.equal(transferred.body.response.status, 'missing_requirements');
    assert.deepEqual(transferred.body.response.missing_fields, ['email_address']);
    assert.equal(await h.count('external_accounts', 'user_id = $1', [existing.userId]), 0);
    assert.equal(await h.count('sessions', 'user_id = $1', [existing.userId]), 1);
  });

  it('a provider that may not create accounts refuses the unknown person, and the sign-up button too', async () => {
    await configure({ signUpAllowed: false });
    try {
      const browser = h.browser();
      const landed = await callback(browser, await toProvider(browser, 'sign_ins'));
      assert.equal(landed.status, 303);
      const verification = (await client(browser)).sign_in.first_factor_verification;
      assert.equal(verification.status, 'failed');
      assert.equal(verification.error.code, 'external_account_not_found');
      const refused = await browser.post('/client/sign_ups', { transfer: 'true' });
      assert.equal(refused.status, 422);
      const button = await h.browser().post('/client/sign_ups', {
        strategy: 'oauth_google',
        redirect_url: app('/sign-up#/sso-callback'),
      });
      assert.equal(button.status, 403);
      assert.equal(button.body.errors[0].code, 'not_allowed_to_sign_up');
      assert.equal(
        await h.count('users', 'id IN (SELECT user_id FROM email_addresses WHERE email_address = $1)', [
          person.email,
        ]),
        0,
      );
    } finally {
      await configure({ signUpAllowed: true });
    }
  });

  it('the provider refusing (access_denied) fails the attempt with oauth_access_denied; nothing is created', async () => {
    const browser = h.browser();
    const back = new URL(await toProvider(browser, 'sign_ins'));
    back.searchParams.delete('code');
    back.searchParams.set('error', 'access_denied');
    const users = await h.count('users');
    const landed = await callback(browser, back.href);
    assert.equal(landed.status, 303);
    assert.equal(landed.headers.location, app('/sign-in#/sso-callback'));
    const verification = (await client(browser)).sign_in.first_factor_verification;
    assert.equal(verification.status, 'failed');
    assert.equal(verification.error.code, 'oauth_access_denied');
    assert.equal(await h.count('users'), users);
  });

  it('a state is single use: the replayed callback is refused and creates nothing', async () => {
    const browser = h.browser();
    const back = await toProvider(browser, 'sign_ins');
    assert.equal((await callback(browser, back)).headers.location, app('/sign-in#/sso-callback'));
    const users = await h.count('users');
    const replayed = await callback(browser, back);
    assert.equal(replayed.status, 303);
    assert.equal(replayed.headers.location, app('/sign-in'));
    assert.equal(await h.count('users'), users);

    // Replayed while this browser waits for the provider again: that sign-in fails with the error shown.
    await toProvider(browser, 'sign_ins');
    assert.equal((await callback(browser, back)).headers.location, app('/sign-in'));
    const waiting = (await client(browser)).sign_in.first_factor_verification;
    assert.equal(waiting.status, 'failed');
    assert.equal(waiting.error.code, 'oauth_callback_invalid');
  });

  it("another browser's state is refused (login CSRF), and it is spent for its own browser too", async () => {
    const victim = h.browser();
    const attacker = h.browser();
    const back = await toProvider(attacker, 'sign_ups');
    await victim.post('/client/sign_ins', {});
    const users = await h.count('users');
    const landed = await callback(victim, back);
    assert.equal(landed.headers.location, app('/sign-in'));
    assert.equal((await client(victim)).sessions.length, 0);
    assert.equal((await callback(attacker, back)).headers.location, app('/sign-in'));
    assert.equal(await h.count('users'), users);
  });

  it('a tampered, unknown or expired state is refused', async () => {
    const browser = h.browser();
    const back = new URL(await toProvider(browser, 'sign_ins'));
    const tampered = new URL(back);
    tampered.searchParams.set('state', `${back.searchParams.get('state')}x`);
    assert.equal((await callback(browser, tampered.href)).headers.location, app('/sign-in'));
    const noState = new URL(back);
    noState.searchParams.delete('state');
    assert.equal((await callback(browser, noState.href)).headers.location, app('/sign-in'));

    const late = h.browser();
    const lateBack = await toProvider(late, 'sign_ins');
    h.clock.advance(11 * 60);
    try {
      assert.equal((await callback(late, lateBack)).headers.location, app('/sign-in'));
    } finally {
      h.clock.advance(-11 * 60);
    }
  });

  for (const [name, change] of [
    ['a wrong nonce', (p: Record<string, unknown>) => void (p.nonce = 'not-the-nonce')],
    ['another audience', (p: Record<string, unknown>) => void (p.aud = 'another-client')],
    [
      'an expired ID token',
      (p: Record<string, unknown>) => void (p.exp = Math.floor(Date.now() / 1000) - 3600),
    ],
    ['another issuer', (p: Record<string, unknown>) => void (p.iss = 'https://accounts.example.com')],
  ] as const) {
    it(`an ID token with ${name} is refused; nothing is created`, async () => {
      const browser = h.browser();
      const back = await toProvider(browser, 'sign_ups');
      spoil = change;
      const users = await h.count('users');
      const landed = await callback(browser, back);
      assert.equal(landed.headers.location, app('/sign-in#/sso-callback'));
      const external = (await client(browser)).sign_up.verifications.external_account;
      assert.equal(external.status, 'failed');
      assert.equal(external.error.code, 'external_account_verification_failed');
      assert.equal(await h.count('users'), users);
      assert.equal(await h.count('external_accounts', 'provider_user_id = $1', [person.sub]), 0);
    });
  }

  it('refuses a redirect_url off the allowed origins and a provider that is not configured', async () => {
    const browser = h.browser();
    const offsite = await browser.post('/client/sign_ins', {
      strategy: 'oauth_google',
      redirect_url: 'https://evil.example/sso-callback',
    });
    assert.equal(offsite.status, 422);
    const unknown = await browser.post('/client/sign_ins', {
      strategy: 'oauth_github',
      redirect_url: app('/sign-in#/sso-callback'),
    });
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.errors[0].meta.param_name, 'strategy');
  });
});
