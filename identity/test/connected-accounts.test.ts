import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, it } from 'node:test';
import type { OAuth2Server } from 'oauth2-mock-server';
import { startOidcStandIn } from './support/oidc-stand-in.ts';
import { purgeExpired } from '../src/retention/purge.ts';
import { forEachBackend } from './support/backends.ts';
import { signUp, type SignedIn } from './support/flows.ts';
import { BAPI, Harness, uniqueEmail, type Browser, type FapiResponse, type Json } from './support/harness.ts';

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
        email_verified: true,
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
    await h.identity.settings.set({
      ...h.identity.settings.settings,
      social: {
        oauth_google: {
          clientId: CLIENT_ID,
          clientSecret: { env: SECRET_ENV },
          issuer: provider.issuer.url!,
          signUpAllowed: true,
        },
      },
    });
  });
  after(async () => {
    await h.close();
    await provider.stop();
  });
  beforeEach(() => {
    sub = `sub-${Math.random().toString(36).slice(2)}`;
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
    const res = await fetch(authorize, { redirect: 'manual' });
    const back = res.headers.get('location');
    assert.ok(back, `the provider answered ${res.status}`);
    return back;
  }

  function callback(browser: Browser, url: string): Promise<FapiResponse> {
    const { pathname, search } = new URL(url);
    return browser.raw('GET', `${pathname}${search}`);
  }

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
});
