import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { signUp } from './support/flows.ts';
import { startGoogleKeysStandIn, type GoogleKeysStandIn } from './support/google-keys-stand-in.ts';
import { Harness, uniqueEmail, type Browser, type FapiResponse } from './support/harness.ts';
import { enrolTotp } from './support/second-factors.ts';
import { useGoogle } from './support/social-flows.ts';

/**
 * Google One Tap as clerk-js 5.90.0 drives it (`authenticateWithGoogleOneTap`): the ID token Google's
 * prompt gives the page goes to `POST /client/sign_ins strategy=google_one_tap`, and on
 * `external_account_not_found` to `POST /client/sign_ups strategy=google_one_tap`. The token is checked
 * against a local stand-in for Google's keys (discovery and a JWKS on a loopback port, an RS256 key made
 * by jose): every forged, foreign, expired or replayed token is refused and creates nothing.
 */

const SECRET_ENV = 'GOOGLE_ONE_TAP_TEST_SECRET';
const CLIENT_ID = 'qoala-one-tap-client.apps.googleusercontent.com';

forEachBackend('Google One Tap', (backend) => {
  let h: Harness;
  let google: GoogleKeysStandIn;
  let person: {
    sub: string;
    email: string;
    email_verified: boolean;
    given_name: string;
    family_name: string;
  };

  before(async () => {
    process.env[SECRET_ENV] = 'provider-client-secret';
    google = await startGoogleKeysStandIn();
    h = await Harness.start(backend);
    await configure({});
  });
  after(async () => {
    await h.close();
    await google.stop();
  });
  beforeEach(() => {
    person = {
      sub: `sub-${randomUUID()}`,
      email: uniqueEmail('onetap'),
      email_verified: true,
      given_name: 'Ada',
      family_name: 'Lovelace',
    };
  });

  async function configure(google_: { oneTap?: boolean; signUpAllowed?: boolean }) {
    await useGoogle(h, {
      clientId: CLIENT_ID,
      secretEnv: SECRET_ENV,
      issuer: google.issuer,
      oneTap: google_.oneTap ?? true,
      signUpAllowed: google_.signUpAllowed,
    });
  }

  /** The credential Google's prompt would hand the page for `person`. */
  const credential = (claims: Record<string, unknown> = {}) =>
    google.sign({ aud: CLIENT_ID, jti: randomUUID(), ...person, ...claims });

  const signInWith = (browser: Browser, token: string) =>
    browser.post('/client/sign_ins', { strategy: 'google_one_tap', token });
  const signUpWith = (browser: Browser, token: string) =>
    browser.post('/client/sign_ups', { strategy: 'google_one_tap', token, legal_accepted: 'true' });

  /** clerk-js's authenticateWithGoogleOneTap: the sign-in, and the sign-up when nobody has the account. */
  async function oneTap(browser: Browser, token: string): Promise<FapiResponse> {
    const signedIn = await signInWith(browser, token);
    if (signedIn.body?.errors?.[0]?.code !== 'external_account_not_found') return signedIn;
    assert.equal(signedIn.status, 422);
    return signUpWith(browser, token);
  }

  const usersOf = (email: string) =>
    h.count('users', 'id IN (SELECT user_id FROM email_addresses WHERE email_address = $1)', [email]);

  function assertRefused(res: FapiResponse, code = 'form_param_value_invalid', param = 'token') {
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].code, code);
    if (param) assert.equal(res.body.errors[0].meta.param_name, param);
  }

  it('advertises the Google client id to <GoogleOneTap/> only while One Tap is on, at once after a change', async () => {
    const env = async () => (await h.browser().get('/environment')).body.display_config;
    assert.equal((await env()).google_one_tap_client_id, CLIENT_ID);
    await configure({ oneTap: false });
    try {
      assert.equal((await env()).google_one_tap_client_id, null);
      // Off, the strategy is refused as not enabled, whatever the token.
      const refused = await signInWith(h.browser(), await credential());
      assertRefused(refused, 'form_param_value_invalid', 'strategy');
      assertRefused(
        await signUpWith(h.browser(), await credential()),
        'form_param_value_invalid',
        'strategy',
      );
    } finally {
      await configure({});
    }
    assert.equal((await env()).google_one_tap_client_id, CLIENT_ID);
  });

  it('only oauth_google may offer One Tap', async () => {
    await assert.rejects(
      h.identity.settings.set({
        ...h.identity.settings.settings,
        social: {
          oauth_github: { clientId: 'gh', clientSecret: { env: SECRET_ENV }, oneTap: true },
        },
      }),
      /oneTap: Google One Tap is offered by oauth_google only/,
    );
  });

  it('a new person: the sign-in answers external_account_not_found, the sign-up with the same token completes', async () => {
    const browser = h.browser();
    const token = await credential();
    const signIn = await signInWith(browser, token);
    assertRefused(signIn, 'external_account_not_found', '');
    assert.equal(await usersOf(person.email), 0);

    const signUp_ = await signUpWith(browser, token);
    assert.equal(signUp_.status, 200, JSON.stringify(signUp_.body));
    const response = signUp_.body.response;
    assert.equal(response.status, 'complete');
    assert.equal(response.verifications.external_account.status, 'verified');
    assert.equal(response.verifications.external_account.strategy, 'google_one_tap');
    assert.equal(response.legal_accepted_at !== null, true);
    const session = signUp_.body.client.sessions.find(
      (s: { id: string }) => s.id === response.created_session_id,
    );
    const user = session.user;
    assert.equal(user.first_name, 'Ada');
    assert.equal(user.last_name, 'Lovelace');
    assert.equal(user.email_addresses[0].email_address, person.email);
    assert.equal(user.email_addresses[0].verification.status, 'verified');
    assert.equal(user.email_addresses[0].verification.strategy, 'from_oauth_google');
    // The same external account the Google button signs in with.
    assert.equal(user.external_accounts.length, 1);
    assert.equal(user.external_accounts[0].provider, 'google');
    assert.equal(user.external_accounts[0].provider_user_id, person.sub);

    // Signed out (another browser), a new credential for the same Google account signs straight in.
    const again = h.browser();
    const signedIn = await signInWith(again, await credential());
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    assert.equal(signedIn.body.response.status, 'complete');
    assert.equal(signedIn.body.response.first_factor_verification.status, 'verified');
    assert.equal(signedIn.body.response.first_factor_verification.strategy, 'google_one_tap');
    assert.equal(signedIn.body.client.sessions[0].user.id, user.id);
    assert.equal(await usersOf(person.email), 1);

    // One Tap grants no scopes: those a connection was granted stay the account's.
    const granted = 'openid email profile https://www.googleapis.com/auth/calendar.readonly';
    await h.db.query('UPDATE external_accounts SET approved_scopes = $2 WHERE provider_user_id = $1', [
      person.sub,
      granted,
    ]);
    assert.equal((await signInWith(h.browser(), await credential())).body.response.status, 'complete');
    assert.equal(
      await h.count('external_accounts', 'provider_user_id = $1 AND approved_scopes = $2', [
        person.sub,
        granted,
      ]),
      1,
    );
  });

  it('a token is single use: replayed to the sign-in or the sign-up, in any browser, it is refused', async () => {
    const token = await credential();
    const first = await oneTap(h.browser(), token);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const userId = first.body.response.created_user_id;
    const sessions = await h.count('sessions', 'user_id = $1', [userId]);
    for (const attempt of [signInWith, signUpWith]) {
      for (const browser of [h.browser(), h.browser()]) assertRefused(await attempt(browser, token));
    }
    // A token that signed in (not up) is spent the same way.
    const signInToken = await credential();
    assert.equal((await signInWith(h.browser(), signInToken)).status, 200);
    assertRefused(await signInWith(h.browser(), signInToken));
    assert.equal(await h.count('sessions', 'user_id = $1', [userId]), sessions + 1);
    assert.equal(await usersOf(person.email), 1);
  });

  it('the same token sent twice at once makes one account, and one of the two is refused', async () => {
    const token = await credential();
    const [a, b] = await Promise.all([signUpWith(h.browser(), token), signUpWith(h.browser(), token)]);
    assert.deepEqual(
      [a.status, b.status].sort(),
      [200, 422],
      `${JSON.stringify(a.body)} ${JSON.stringify(b.body)}`,
    );
    assert.equal(await usersOf(person.email), 1);
  });

  it('links to the account holding the address Google asserts verified; its second factor is still asked', async () => {
    const owner = h.browser();
    const existing = await signUp(h, owner, person.email);
    await enrolTotp(h, owner);
    const browser = h.browser();
    const signIn = await signInWith(browser, await credential());
    assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
    assert.equal(signIn.body.response.status, 'needs_second_factor');
    assert.equal(signIn.body.response.first_factor_verification.strategy, 'google_one_tap');
    assert.equal(signIn.body.client.sign_in.id, signIn.body.response.id);
    assert.equal(
      await h.count('external_accounts', 'user_id = $1 AND provider_user_id = $2', [
        existing.userId,
        person.sub,
      ]),
      1,
    );
    // Only the owner's own session: the One Tap sign-in waits for the second factor.
    assert.equal(await h.count('sessions', 'user_id = $1', [existing.userId]), 1);
    assert.equal(await usersOf(person.email), 1);
  });

  it('a sign-up of an account that exists is transferable to a sign-in (external_account_exists)', async () => {
    const created = await oneTap(h.browser(), await credential());
    const userId = created.body.response.created_user_id;
    const browser = h.browser();
    const signUp_ = await signUpWith(browser, await credential());
    assert.equal(signUp_.status, 200, JSON.stringify(signUp_.body));
    const external = signUp_.body.response.verifications.external_account;
    assert.equal(external.status, 'transferable');
    assert.equal(external.error.code, 'external_account_exists');
    const transferred = await browser.post('/client/sign_ins', { transfer: 'true' });
    assert.equal(transferred.status, 200, JSON.stringify(transferred.body));
    assert.equal(transferred.body.response.status, 'complete');
    assert.equal(transferred.body.client.sessions[0].user.id, userId);
    assert.equal(await usersOf(person.email), 1);
  });

  it('an address Google does not assert verified is refused, and links to nobody', async () => {
    const existing = await signUp(h, h.browser(), person.email);
    const token = await credential({ email_verified: false });
    const browser = h.browser();
    for (const res of [await signInWith(browser, token), await signUpWith(browser, token)]) {
      assertRefused(res);
      assert.match(res.body.errors[0].long_message, /not verified/);
    }
    assert.equal(await h.count('external_accounts', 'user_id = $1', [existing.userId]), 0);
    assert.equal(await h.count('sessions', 'user_id = $1', [existing.userId]), 1);
    assert.equal(await usersOf(person.email), 1);
  });

  const now = () => Math.floor(Date.now() / 1000);
  const unsigned = (payload: Record<string, unknown>) =>
    `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(
      JSON.stringify(payload),
    ).toString('base64url')}.`;
  const attacks: [string, () => Promise<string>][] = [
    ['for another audience', () => credential({ aud: 'someone-elses-client.apps.googleusercontent.com' })],
    ['expired', () => credential({ iat: now() - 7200, exp: now() - 3600 })],
    ['not yet valid', () => credential({ nbf: now() + 3600 })],
    ['from another issuer', () => credential({ iss: 'https://accounts.example.com' })],
    [
      'signed by a key Google does not hold',
      () => google.sign({ aud: CLIENT_ID, ...person }, { key: 'foreign' }),
    ],
    [
      'signed by a key it brings along in its header',
      () =>
        google.sign({ aud: CLIENT_ID, ...person }, { key: 'foreign', header: { kid: 'attacker', jwk: {} } }),
    ],
    [
      'with alg none',
      async () => unsigned({ iss: google.issuer, aud: CLIENT_ID, iat: now(), exp: now() + 600, ...person }),
    ],
    [
      'with its payload changed after signing',
      async () => {
        const [header, , signature] = (await credential()).split('.');
        const forged = {
          iss: google.issuer,
          aud: CLIENT_ID,
          iat: now(),
          exp: now() + 600,
          ...person,
          sub: 'victim',
        };
        return `${header}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`;
      },
    ],
    ['without a subject', () => credential({ sub: undefined })],
    ['that is not a JWT', async () => 'not-a-token'],
    ['far too large', async () => `${await credential()}${'A'.repeat(10_000)}`],
  ];
  for (const [name, make] of attacks) {
    it(`a token ${name} is refused by the sign-in and the sign-up; nothing is created`, async () => {
      const token = await make();
      const users = await h.count('users');
      const accounts = await h.count('external_accounts');
      const browser = h.browser();
      assertRefused(await signInWith(browser, token));
      assertRefused(await signUpWith(browser, token));
      assert.equal(await h.count('users'), users);
      assert.equal(await h.count('external_accounts'), accounts);
    });
  }

  it('a missing token is refused as missing', async () => {
    assertRefused(
      await h.browser().post('/client/sign_ins', { strategy: 'google_one_tap' }),
      'form_param_nil',
    );
    assertRefused(
      await h.browser().post('/client/sign_ups', { strategy: 'google_one_tap' }),
      'form_param_nil',
    );
  });

  it('a provider that may not create accounts refuses the sign-up of an unknown person', async () => {
    await configure({ signUpAllowed: false });
    try {
      const token = await credential();
      const browser = h.browser();
      assertRefused(await signInWith(browser, token), 'external_account_not_found', '');
      const refused = await signUpWith(browser, token);
      assert.equal(refused.status, 403);
      assert.equal(refused.body.errors[0].code, 'not_allowed_to_sign_up');
      assert.equal(await usersOf(person.email), 0);
    } finally {
      await configure({});
    }
  });

  it("Google's keys out of reach: external_account_verification_failed, nothing created", async () => {
    await h.identity.settings.set({
      ...h.identity.settings.settings,
      social: {
        oauth_google: {
          clientId: CLIENT_ID,
          clientSecret: { env: SECRET_ENV },
          issuer: google.issuer,
          // Nothing listens on port 1.
          jwksUri: 'http://127.0.0.1:1/jwks',
          oneTap: true,
        },
      },
    });
    try {
      const token = await credential();
      const browser = h.browser();
      const users = await h.count('users');
      assertRefused(await signInWith(browser, token), 'external_account_verification_failed', '');
      assertRefused(await signUpWith(browser, token), 'external_account_verification_failed', '');
      assert.equal(await h.count('users'), users);
    } finally {
      await configure({});
    }
  });

  it("Google's keys are fetched once and kept, not once per sign-in", async () => {
    await configure({ oneTap: true, signUpAllowed: true });
    const before_ = google.jwksRequests();
    await oneTap(h.browser(), await credential());
    await signInWith(h.browser(), await credential());
    await signInWith(h.browser(), await credential());
    assert.equal(google.jwksRequests() - before_, 1);
  });
});
