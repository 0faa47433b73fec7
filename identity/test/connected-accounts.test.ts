import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, it } from 'node:test';
import type { OAuth2Server } from 'oauth2-mock-server';
import { startOidcStandIn } from './support/oidc-stand-in.ts';
import { purgeExpired } from '../src/retention/purge.ts';
import { forEachBackend } from './support/backends.ts';
import { signUp, type SignedIn } from './support/flows.ts';
import { BAPI, Harness, uniqueEmail, type Browser, type FapiResponse, type Json } from './support/harness.ts';
import { openCallback, redirectBackFrom, useGoogle } from './support/social-flows.ts';

/**
 * Connected accounts (<UserProfile/> → Connected accounts) against a real OpenID Connect provider on this
 * machine (oauth2-mock-server) standing in for Google: a signed-in user connects the provider's account
 * (with an additional scope), reauthorizes and removes it; its tokens are kept sealed, refreshed when
 * expired and answered only by the Backend API (`users.getUserOauthAccessToken`). The abuse cases: another
 * user's account id, a state replayed or opened by another browser, a provider account owned by another
 * user, no session, tokens in a Frontend API answer.
 */

const SECRET_ENV = 'CONNECTED_ACCOUNTS_TEST_GOOGLE_SECRET';
const CLIENT_ID = 'qoala-connect-client';
const CALENDAR = 'https://www.googleapis.com/auth/calendar.readonly';

let sub: string;
/** Whether the stand-in asserts its user's email address verified. */
let emailVerified: boolean;
/** What the stand-in's token endpoint says it granted (`scope`); null: it says nothing. */
let grantedScope: string | null;
/** Every token endpoint answer, in order (what the provider issued). */
let issued: { grant: string; access_token: string; refresh_token: string }[];

forEachBackend('connected accounts (<UserProfile/>)', (backend) => {
  let h: Harness;
  let provider: OAuth2Server;
  const app = (path: string) => `${h.config.publicUrl}${path}`;

  before(async () => {
    process.env[SECRET_ENV] = 'provider-client-secret';
    provider = await startOidcStandIn((payload) => {
      // A `jti` each: two tokens issued within one second still differ.
      Object.assign(payload, {
        sub,
        email: `${sub}@provider.example`,
        email_verified: emailVerified,
        jti: randomUUID(),
      });
    });
    provider.service.on(
      'beforeResponse',
      (res: { body: Record<string, unknown> }, req: { body: Record<string, string> }) => {
        if (typeof res.body.access_token !== 'string') return;
        if (grantedScope === null) delete res.body.scope;
        else res.body.scope = grantedScope;
        issued.push({
          grant: req.body.grant_type!,
          access_token: res.body.access_token,
          refresh_token: res.body.refresh_token as string,
        });
      },
    );
    h = await Harness.start(backend);
    await useGoogle(h, { clientId: CLIENT_ID, secretEnv: SECRET_ENV, issuer: provider.issuer.url! });
  });
  after(async () => {
    await h.close();
    await provider.stop();
  });
  beforeEach(() => {
    sub = `sub-${Math.random().toString(36).slice(2)}`;
    emailVerified = true;
    grantedScope = null;
    issued = [];
  });

  const signedIn = async (): Promise<{ browser: Browser; user: SignedIn }> => {
    const browser = h.browser();
    return { browser, user: await signUp(h, browser, uniqueEmail('connect')) };
  };

  /** Connected accounts → Connect: the pending account, and the provider's redirect back (not yet opened). */
  async function startConnect(browser: Browser, form: Record<string, string> = {}) {
    const started = await browser.post('/me/external_accounts', {
      strategy: 'oauth_google',
      redirect_url: app('/user'),
      ...form,
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    return { account: started.body.response, back: await atProvider(started.body.response), started };
  }

  /** The browser at the provider's URL of a verification; the provider sends it back. */
  async function atProvider(account: Json): Promise<string> {
    const authorize = new URL(account.verification.external_verification_redirect_url);
    assert.equal(authorize.origin, new URL(provider.issuer.url!).origin);
    return redirectBackFrom(authorize);
  }

  const callback = openCallback;

  const accountsOf = async (browser: Browser): Promise<Json[]> =>
    (await browser.get('/client')).body.response.sessions[0].user.external_accounts;

  async function connect(browser: Browser): Promise<Json> {
    const { account, back } = await startConnect(browser);
    const landed = await callback(browser, back);
    assert.equal(landed.status, 303);
    assert.equal(landed.headers.location, app('/user'));
    const connected = (await accountsOf(browser)).find((a) => a.id === account.id);
    assert.equal(connected?.verification.status, 'verified', JSON.stringify(connected));
    return connected;
  }

  /** A sign-in or sign-up with the provider's button, through the provider and back: the callback's answer. */
  async function withProvider(
    browser: Browser,
    resource: 'sign_ins' | 'sign_ups',
    beforeCallback: () => void = () => {},
  ): Promise<FapiResponse> {
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
    const back = await atProvider({ verification });
    beforeCallback();
    return callback(browser, back);
  }

  /** A new user who signed up with the provider's button (its email address verified by the provider). */
  async function signedUpWithProvider(): Promise<{ browser: Browser; userId: string; account: Json }> {
    const browser = h.browser();
    const landed = await withProvider(browser, 'sign_ups');
    assert.equal(landed.headers.location, app('/dashboard'), 'the sign-up completed at the callback');
    const user = (await browser.get('/client')).body.response.sessions[0].user;
    return { browser, userId: user.id, account: user.external_accounts[0] };
  }

  function bapi(method: 'GET' | 'DELETE', path: string) {
    return h.app.inject({
      method,
      url: `${BAPI}${path}`,
      headers: { authorization: `Bearer ${h.identity.secretKey}` },
    });
  }

  const tokensOf = async (userId: string) => {
    const res = await bapi('GET', `/v1/users/${userId}/oauth_access_tokens/oauth_google?paginated=true`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { data: Json[]; total_count: number };
  };

  it('connects the provider with an additional scope; the Backend API answers its token, sealed at rest', async () => {
    const { browser, user } = await signedIn();
    const { account, back, started } = await startConnect(browser, { additional_scope: CALENDAR });
    // What clerk-js's createExternalAccount needs: an unverified account with the provider's URL.
    assert.equal(account.object, 'external_account');
    assert.match(account.id, /^eac_/);
    assert.equal(account.provider, 'google');
    assert.equal(account.verification.status, 'unverified');
    assert.equal(account.verification.strategy, 'oauth_google');
    const authorize = new URL(account.verification.external_verification_redirect_url);
    assert.deepEqual(authorize.searchParams.get('scope')!.split(' '), [
      'openid',
      'email',
      'profile',
      CALENDAR,
    ]);
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(started.body.client, 'the client is piggy-backed');

    const landed = await callback(browser, back);
    assert.equal(landed.status, 303);
    assert.equal(landed.headers.location, app('/user'));
    const [connected] = await accountsOf(browser);
    assert.equal(connected.id, account.id);
    assert.equal(connected.provider_user_id, sub);
    assert.equal(connected.email_address, `${sub}@provider.example`);
    assert.equal(connected.verification.status, 'verified');
    assert.equal(connected.verification.strategy, 'oauth_google');
    // The provider did not say what it granted: what was asked for.
    assert.equal(connected.approved_scopes, `openid email profile ${CALENDAR}`);

    const [code] = issued;
    const tokens = await tokensOf(user.userId);
    assert.equal(tokens.total_count, 1);
    assert.equal(tokens.data[0].object, 'oauth_access_token');
    assert.equal(tokens.data[0].external_account_id, account.id);
    assert.equal(tokens.data[0].provider, 'oauth_google');
    assert.equal(tokens.data[0].token, code!.access_token);
    assert.deepEqual(tokens.data[0].scopes, ['openid', 'email', 'profile', CALENDAR]);
    assert.ok(tokens.data[0].expires_at > h.clock.now.getTime());
    // Without `paginated` (older SDKs) the bare array; and `google` as well as `oauth_google`.
    const bare = await bapi('GET', `/v1/users/${user.userId}/oauth_access_tokens/google`);
    assert.deepEqual(bare.json(), tokens.data);

    const [row] = await h.db.query<Record<string, string>>(
      'SELECT access_token_sealed, refresh_token_sealed FROM external_accounts WHERE id = $1',
      [account.id],
    );
    assert.match(row!.access_token_sealed!, /^v1\./);
    assert.ok(!row!.access_token_sealed!.includes(code!.access_token));
    assert.ok(!row!.refresh_token_sealed!.includes(code!.refresh_token));
  });

  it('never answers a provider token in the Frontend API, nor in the Backend API user', async () => {
    const { browser, user } = await signedIn();
    const { back, started } = await startConnect(browser);
    const landed = await callback(browser, back);
    const answers = [
      JSON.stringify(started.body),
      JSON.stringify(landed.body),
      JSON.stringify((await browser.get('/client')).body),
      JSON.stringify((await browser.get('/me')).body),
      JSON.stringify((await browser.get('/environment')).body),
      (await bapi('GET', `/v1/users/${user.userId}`)).body,
    ];
    const [code] = issued;
    assert.ok(code, 'the provider issued tokens');
    for (const answer of answers) {
      assert.ok(!answer.includes(code.access_token), 'an access token was answered');
      assert.ok(!answer.includes(code.refresh_token), 'a refresh token was answered');
      assert.ok(!answer.includes('v1.'), 'a sealed token was answered');
    }
  });

  it('refreshes an expired token with the refresh token before answering it', async () => {
    const { browser, user } = await signedIn();
    await connect(browser);
    const [first] = (await tokensOf(user.userId)).data;
    h.clock.advance(2 * 3600);
    const [refreshed] = (await tokensOf(user.userId)).data;
    assert.equal(issued.length, 2);
    assert.equal(issued[1]!.grant, 'refresh_token');
    assert.equal(refreshed.token, issued[1]!.access_token);
    assert.notEqual(refreshed.token, first.token);
    assert.ok(refreshed.expires_at > h.clock.now.getTime());
    // Kept: the next read answers it without asking the provider again.
    const [again] = (await tokensOf(user.userId)).data;
    assert.equal(again.token, refreshed.token);
    assert.equal(issued.length, 2);
  });

  it('removes a connected account (Frontend API), and the Backend API removes one too', async () => {
    const { browser, user } = await signedIn();
    const account = await connect(browser);
    const removed = await browser.delete(`/me/external_accounts/${account.id}`);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual(removed.body.response, { object: 'external_account', id: account.id, deleted: true });
    assert.deepEqual(await accountsOf(browser), []);
    assert.equal((await tokensOf(user.userId)).total_count, 0);

    // The same provider account connects again, then goes by the Backend API.
    const again = await connect(browser);
    const res = await bapi('DELETE', `/v1/users/${user.userId}/external_accounts/${again.id}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { object: 'external_account', id: again.id, deleted: true });
    assert.equal(await h.count('external_accounts', 'user_id = $1', [user.userId]), 0);
  });

  it('reauthorizes with an additional scope; the provider must answer for the same person', async () => {
    const { browser } = await signedIn();
    const account = await connect(browser);
    const started = await browser.patch(`/me/external_accounts/${account.id}/reauthorize`, {
      redirect_url: app('/user'),
      additional_scope: CALENDAR,
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    assert.equal(started.body.response.id, account.id);
    assert.equal(started.body.response.verification.status, 'unverified');
    grantedScope = `openid email profile ${CALENDAR}`;
    await callback(browser, await atProvider(started.body.response));
    const [reauthorized] = await accountsOf(browser);
    assert.equal(reauthorized.approved_scopes, grantedScope);
    assert.equal(reauthorized.verification.status, 'verified');

    // Someone else at the provider: the account stays as it was, with the error to show.
    const other = await browser.patch(`/me/external_accounts/${account.id}/reauthorize`, {
      redirect_url: app('/user'),
    });
    const original = sub;
    sub = `sub-other-${Math.random().toString(36).slice(2)}`;
    await callback(browser, await atProvider(other.body.response));
    const [kept] = await accountsOf(browser);
    assert.equal(kept.provider_user_id, original);
    assert.equal(kept.verification.error.code, 'external_account_verification_failed');
  });

  it("refuses another user's external account id: 404 on reauthorize, remove and the Backend API", async () => {
    const { browser: owner, user: ownerUser } = await signedIn();
    const account = await connect(owner);
    const { browser: intruder, user: intruderUser } = await signedIn();
    for (const res of [
      await intruder.delete(`/me/external_accounts/${account.id}`),
      await intruder.patch(`/me/external_accounts/${account.id}/reauthorize`, { redirect_url: app('/user') }),
    ]) {
      assert.equal(res.status, 404, JSON.stringify(res.body));
      assert.equal(res.body.errors[0].code, 'resource_not_found');
    }
    const viaBapi = await bapi('DELETE', `/v1/users/${intruderUser.userId}/external_accounts/${account.id}`);
    assert.equal(viaBapi.statusCode, 404);
    assert.equal(viaBapi.json().errors[0].code, 'resource_not_found');
    assert.equal((await accountsOf(owner)).length, 1);
    assert.equal((await tokensOf(ownerUser.userId)).total_count, 1);
    assert.equal((await tokensOf(intruderUser.userId)).total_count, 0);
  });

  it('a connect state opened by another browser, or replayed, connects nothing', async () => {
    const { browser: victim, user: victimUser } = await signedIn();
    const { account, back } = await startConnect(victim);
    // The attacker's browser (signed in as someone else) opens the victim's redirect: refused, and spent.
    const { browser: attacker, user: attackerUser } = await signedIn();
    const stolen = await callback(attacker, back);
    assert.equal(stolen.status, 303);
    assert.deepEqual(await accountsOf(attacker), []);
    await callback(victim, back);
    const [pending] = await accountsOf(victim);
    assert.equal(pending.id, account.id);
    assert.equal(pending.verification.status, 'unverified');
    assert.equal(await h.count('external_accounts', 'provider_user_id = $1', [sub]), 0);

    // A completed connection's redirect replayed changes nothing.
    sub = `sub-${Math.random().toString(36).slice(2)}`;
    const second = await startConnect(victim);
    await callback(victim, second.back);
    const replayed = await callback(victim, second.back);
    assert.equal(replayed.status, 303);
    assert.equal(await h.count('external_accounts', 'user_id = $1', [victimUser.userId]), 1);
    assert.equal(await h.count('external_accounts', 'user_id = $1', [attackerUser.userId]), 0);
  });

  it('refuses to connect a provider account owned by another user (external_account_exists)', async () => {
    const { browser: first, user: firstUser } = await signedIn();
    const owned = await connect(first);
    const { browser: second, user: secondUser } = await signedIn();
    const { account, back } = await startConnect(second);
    await callback(second, back);
    const [refused] = await accountsOf(second);
    assert.equal(refused.id, account.id);
    assert.equal(refused.verification.status, 'unverified');
    assert.equal(refused.verification.error.code, 'external_account_exists');
    assert.equal(refused.provider_user_id, '');
    assert.equal((await tokensOf(secondUser.userId)).total_count, 0);
    const [still] = await accountsOf(first);
    assert.equal(still.id, owned.id);
    assert.equal((await tokensOf(firstUser.userId)).total_count, 1);
  });

  it('refuses a browser without a session, an unknown strategy and a foreign redirect_url', async () => {
    const anonymous = h.browser();
    const res = await anonymous.post('/me/external_accounts', {
      strategy: 'oauth_google',
      redirect_url: app('/user'),
    });
    assert.equal(res.status, 404, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].code, 'resource_not_found');

    const { browser, user } = await signedIn();
    const unknown = await browser.post('/me/external_accounts', {
      strategy: 'oauth_github',
      redirect_url: app('/user'),
    });
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.errors[0].code, 'form_param_value_invalid');
    const foreign = await browser.post('/me/external_accounts', {
      strategy: 'oauth_google',
      redirect_url: 'https://evil.example/steal',
    });
    assert.equal(foreign.status, 422);
    assert.equal(foreign.body.errors[0].meta.param_name, 'redirect_url');
    assert.equal(await h.count('external_accounts', 'user_id = $1', [user.userId]), 0);
  });

  it('a connection whose session signed out meanwhile connects nothing', async () => {
    const { browser, user } = await signedIn();
    const { back } = await startConnect(browser);
    const out = await browser.post(`/client/sessions/${user.sessionId}/end`);
    assert.equal(out.status, 200, JSON.stringify(out.body));
    const landed = await callback(browser, back);
    assert.equal(landed.status, 303);
    assert.equal(await h.count('external_accounts', 'provider_user_id = $1', [sub]), 0);
  });

  it('purges a connection never completed a day after its redirect expired; a connected account stays', async () => {
    const { browser, user } = await signedIn();
    const connected = await connect(browser);
    const { account: pending } = await startConnect(browser);
    h.clock.advance(24 * 3600);
    await purgeExpired(h.db, h.clock.now);
    assert.equal(await h.count('external_accounts', 'id = $1', [pending.id]), 1);
    h.clock.advance(3600);
    await purgeExpired(h.db, h.clock.now);
    assert.equal(await h.count('external_accounts', 'id = $1', [pending.id]), 0);
    assert.equal(await h.count('external_accounts', 'user_id = $1', [user.userId]), 1);
    assert.equal(await h.count('external_accounts', 'id = $1', [connected.id]), 1);
  });
  it("refuses to remove the user's last way to sign in (identification_deletion_failed)", async () => {
    const { browser, userId, account } = await signedUpWithProvider();
    assert.equal(account.verification.status, 'verified');
    // A user whose email address is not (or no longer) verified signs in only with the provider's account:
    // no code can be sent, and there is no password, phone number or other account.
    await h.db.query('UPDATE email_addresses SET verified_at = NULL WHERE user_id = $1', [userId]);
    const refused = await browser.delete(`/me/external_accounts/${account.id}`);
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.equal(refused.body.errors[0].code, 'identification_deletion_failed');
    assert.equal(refused.body.errors[0].long_message, 'You cannot delete your last identification.');
    assert.equal(await h.count('external_accounts', 'id = $1', [account.id]), 1);
    assert.equal((await tokensOf(userId)).total_count, 1, 'its tokens stay');

    // A connection of the same provider that never completed is no way to sign in: it may go.
    const { account: pending } = await startConnect(browser);
    const dropped = await browser.delete(`/me/external_accounts/${pending.id}`);
    assert.equal(dropped.status, 200, JSON.stringify(dropped.body));
    assert.equal(await h.count('external_accounts', 'id = $1', [account.id]), 1);

    // With the address verified (a code can be sent to it), the account may go.
    await h.db.query('UPDATE email_addresses SET verified_at = $2 WHERE user_id = $1', [userId, h.clock.now]);
    const removed = await browser.delete(`/me/external_accounts/${account.id}`);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.equal(await h.count('external_accounts', 'user_id = $1', [userId]), 0);
  });

  it('keeps the tokens of a sign-up and of each sign-in with the provider: the Backend API answers the latest', async () => {
    grantedScope = 'openid email profile';
    const { userId, account } = await signedUpWithProvider();
    const [signUpToken] = (await tokensOf(userId)).data;
    assert.equal(signUpToken.external_account_id, account.id);
    assert.equal(signUpToken.token, issued[0]!.access_token);

    // Signing in again (another browser): the provider issues new tokens, with the scopes it now grants.
    grantedScope = `openid email profile ${CALENDAR}`;
    const other = h.browser();
    const landed = await withProvider(other, 'sign_ins');
    assert.equal(landed.headers.location, app('/dashboard'), 'the sign-in completed at the callback');
    assert.equal(issued.length, 2);
    const [signInToken] = (await tokensOf(userId)).data;
    assert.equal(signInToken.token, issued[1]!.access_token);
    assert.notEqual(signInToken.token, signUpToken.token);
    assert.deepEqual(signInToken.scopes, ['openid', 'email', 'profile', CALENDAR]);
    const [row] = await h.db.query<Record<string, string>>(
      'SELECT access_token_sealed, refresh_token_sealed FROM external_accounts WHERE id = $1',
      [account.id],
    );
    assert.ok(!row!.access_token_sealed!.includes(issued[1]!.access_token), 'sealed at rest');
    // The refresh token kept is the one issued last: an expired token is refreshed with it.
    h.clock.advance(2 * 3600);
    const [refreshed] = (await tokensOf(userId)).data;
    assert.equal(issued[2]!.grant, 'refresh_token');
    assert.equal(refreshed.token, issued[2]!.access_token);
  });

  it('keeps the tokens through a transfer (sign-in to sign-up, sign-up to sign-in) and a sign-up finished by a code', async () => {
    // A newcomer presses the button on <SignIn/>: transferable, then the sign-up transfer (a later request).
    const browser = h.browser();
    await withProvider(browser, 'sign_ins');
    assert.equal(
      (await browser.get('/client')).body.response.sign_in.first_factor_verification.status,
      'transferable',
    );
    const transferred = await browser.post('/client/sign_ups', { transfer: 'true' });
    assert.equal(transferred.body.response.status, 'complete', JSON.stringify(transferred.body));
    const userId = transferred.body.response.created_user_id;
    assert.equal((await tokensOf(userId)).data[0]?.token, issued[0]!.access_token);
    // The sealed tokens wait on the attempt, never in clear.
    const [attempt] = await h.db.query<{ external_identity: unknown }>(
      'SELECT external_identity FROM sign_ups WHERE id = $1',
      [transferred.body.response.id],
    );
    assert.ok(!JSON.stringify(attempt!.external_identity).includes(issued[0]!.access_token));

    // The same person presses the button on <SignUp/>: external_account_exists, then the sign-in transfer.
    const again = h.browser();
    await withProvider(again, 'sign_ups');
    const signedIn = await again.post('/client/sign_ins', { transfer: 'true' });
    assert.equal(signedIn.body.response.status, 'complete', JSON.stringify(signedIn.body));
    assert.equal((await tokensOf(userId)).data[0]?.token, issued[1]!.access_token);

    // Another newcomer whose address the provider does not vouch for: the sign-up completes by a code.
    sub = `sub-${Math.random().toString(36).slice(2)}`;
    emailVerified = false;
    const coded = h.browser();
    await withProvider(coded, 'sign_ups');
    const signUpId = (await coded.get('/client')).body.response.sign_up.id;
    await coded.post(`/client/sign_ups/${signUpId}/prepare_verification`, { strategy: 'email_code' });
    const done = await coded.post(`/client/sign_ups/${signUpId}/attempt_verification`, {
      strategy: 'email_code',
      code: await h.latestCode(`${sub}@provider.example`),
    });
    assert.equal(done.body.response.status, 'complete', JSON.stringify(done.body));
    assert.equal(
      (await tokensOf(done.body.response.created_user_id)).data[0]?.token,
      issued[2]!.access_token,
    );
  });

  it('keeps the tokens when a sign-in links the provider account to the user with its verified email', async () => {
    const browser = h.browser();
    const user = await signUp(h, browser, `${sub}@provider.example`);
    assert.equal((await tokensOf(user.userId)).total_count, 0);
    const landed = await withProvider(h.browser(), 'sign_ins');
    assert.equal(landed.headers.location, app('/dashboard'));
    const [linked] = (await tokensOf(user.userId)).data;
    assert.equal(linked.token, issued[0]!.access_token);
  });

  it('two users connecting the same provider account at once: one connects it, the other gets external_account_exists', async () => {
    const { browser: first, user: firstUser } = await signedIn();
    const { browser: second, user: secondUser } = await signedIn();
    const a = await startConnect(first);
    const b = await startConnect(second);
    const [ra, rb] = await Promise.all([callback(first, a.back), callback(second, b.back)]);
    assert.equal(ra.status, 303, JSON.stringify(ra.body));
    assert.equal(rb.status, 303, JSON.stringify(rb.body));
    const accounts = [...(await accountsOf(first)), ...(await accountsOf(second))];
    assert.equal(accounts.filter((x) => x.verification.status === 'verified').length, 1);
    const refused = accounts.filter((x) => x.verification.status !== 'verified');
    assert.equal(refused.length, 1);
    assert.equal(refused[0].verification.error.code, 'external_account_exists');
    assert.equal(await h.count('external_accounts', 'provider_user_id = $1', [sub]), 1);
    const tokens =
      (await tokensOf(firstUser.userId)).total_count + (await tokensOf(secondUser.userId)).total_count;
    assert.equal(tokens, 1);
  });

  it('a connection that lost the race for the provider account (read before the winner committed) answers external_account_exists, not a 500', async () => {
    const { browser: first, user: firstUser } = await signedIn();
    await connect(first);
    const { browser: second, user: secondUser } = await signedIn();
    const { account, back } = await startConnect(second);
    // The second request read "nobody has it" before the first committed (forced here): its write then
    // meets the unique index.
    staleProviderAccountRead(h);
    const landed = await callback(second, back);
    assert.equal(landed.status, 303, JSON.stringify(landed.body));
    assert.equal(landed.headers.location, app('/user'));
    const [refused] = await accountsOf(second);
    assert.equal(refused.id, account.id);
    assert.equal(refused.verification.status, 'unverified');
    assert.equal(refused.verification.error.code, 'external_account_exists');
    assert.equal((await tokensOf(secondUser.userId)).total_count, 0);
    assert.equal((await tokensOf(firstUser.userId)).total_count, 1);
    assert.equal(await h.count('external_accounts', 'provider_user_id = $1', [sub]), 1);
  });

  it('a sign-in that lost the race to link the provider account by email signs in to it, not a 500', async () => {
    const user = await signUp(h, h.browser(), `${sub}@provider.example`);
    assert.equal((await withProvider(h.browser(), 'sign_ins')).headers.location, app('/dashboard'));
    // Another browser's sign-in read "not linked yet" before the first committed (forced here), so it
    // links by the verified address too and meets the unique index.
    const landed = await withProvider(h.browser(), 'sign_ins', () => staleProviderAccountRead(h));
    assert.equal(landed.status, 303, JSON.stringify(landed.body));
    assert.equal(landed.headers.location, app('/dashboard'));
    assert.equal(await h.count('external_accounts', 'user_id = $1', [user.userId]), 1);
    assert.equal((await tokensOf(user.userId)).data[0]?.token, issued[1]!.access_token);
  });

  it('a sign-up whose provider account was linked to someone else meanwhile is refused (external_account_exists), nobody created', async () => {
    emailVerified = false;
    // Two browsers sign up with the same provider account; its address is unverified, so both wait for a code.
    const late = h.browser();
    const early = h.browser();
    for (const browser of [late, early]) {
      const landed = await withProvider(browser, 'sign_ups');
      assert.equal(landed.headers.location, app('/sign-in#/sso-callback'));
    }
    const verify = async (browser: Browser, email: string) => {
      const id = (await browser.get('/client')).body.response.sign_up.id;
      const prepared = await browser.post(`/client/sign_ups/${id}/prepare_verification`, {
        strategy: 'email_code',
      });
      assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
      return browser.post(`/client/sign_ups/${id}/attempt_verification`, {
        strategy: 'email_code',
        code: await h.latestCode(email),
      });
    };
    const first = await verify(early, `${sub}@provider.example`);
    assert.equal(first.body.response?.status, 'complete', JSON.stringify(first.body));
    const users = await h.count('users');

    // The other gives another address (the provider's is taken now) and verifies it.
    const other = uniqueEmail('late');
    const id = (await late.get('/client')).body.response.sign_up.id;
    const updated = await late.patch(`/client/sign_ups/${id}`, { email_address: other });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    const refused = await verify(late, other);
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.equal(refused.body.errors[0].code, 'external_account_exists');
    assert.equal(await h.count('users'), users, 'nobody was created');
    assert.equal(await h.count('external_accounts', 'provider_user_id = $1', [sub]), 1);
  });
});

/**
 * Makes the next transaction's first read of an external account by its provider account answer nothing,
 * as a read made just before another request committed that account would: the write that follows meets
 * the unique index (on either database, deterministically).
 */
function staleProviderAccountRead(h: Harness): void {
  const db = h.db as { transaction: Harness['db']['transaction'] };
  const original = h.db.transaction.bind(h.db);
  db.transaction = (fn) => {
    db.transaction = original;
    return original((tx) => {
      let stale = true;
      const query: typeof tx.query = (sql, params) => {
        if (stale && /FROM external_accounts WHERE provider = \$1 AND provider_user_id = \$2/.test(sql)) {
          stale = false;
          return Promise.resolve([]);
        }
        return tx.query(sql, params);
      };
      return fn({ ...tx, query, exec: (sql) => tx.exec(sql) });
    });
  };
}
