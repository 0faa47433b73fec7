import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { OAuth2Server } from 'oauth2-mock-server';
import { startOidcStandIn } from './support/oidc-stand-in.ts';
import { requestOriginGuard } from '../src/http/origins.ts';
import { forEachBackend } from './support/backends.ts';
import { CLERK_QUERY, FAPI, Harness, PUBLIC_URL, uniqueEmail, type Browser } from './support/harness.ts';

/**
 * `response_mode=form_post` providers (Apple) post `code` and `state` to POST /v1/oauth_callback from their
 * own site: no SameSite=Lax cookie comes with it. The POST only sends the browser on to the GET callback
 * with the posted fields, a top-level navigation that does carry the cookies, where the state is checked
 * against the client. A real OpenID Connect provider on this machine (oauth2-mock-server) plays the
 * provider; the form it would post is made from its redirect. Development keys, where the browser is
 * known by clerk-js's `__clerk_db_jwt` cookie on our origin, take the same way.
 */

const SECRET_ENV = 'SOCIAL_OAUTH_FORM_POST_TEST_SECRET';
const PROVIDER_SITE = 'https://appleid.apple.test';
let person: { sub: string; email: string; email_verified: boolean };

describe('the origin guard exempts the form-post callback, and only it', () => {
  const guard = requestOriginGuard({ publicUrl: PUBLIC_URL, allowedOrigins: [], fapiPath: FAPI });
  const foreign = { origin: PROVIDER_SITE, 'sec-fetch-site': 'cross-site' };
  const post = (url: string) => guard({ method: 'POST', url, headers: foreign });

  it('passes a cross-site POST to <fapiPath>/v1/oauth_callback', () => {
    assert.equal(post(`${FAPI}/v1/oauth_callback`), true);
  });

  it('still refuses every other cross-site POST, a tunnelled one to the callback included', () => {
    for (const url of [
      `${FAPI}/v1/client/sign_ins`,
      `${FAPI}/v1/oauth_callback?_method=DELETE`,
      `${FAPI}/v1/oauth_callback?_method=GET`,
      `${FAPI}/v1/oauth_callback/`,
      `${FAPI}//v1/oauth_callback`,
      `${FAPI}/v1/oauth_callback/../client/sign_ins`,
      `/v1/oauth_callback`,
      `${FAPI}/v1/me`,
    ]) {
      assert.equal(post(url), false, url);
    }
    assert.equal(guard({ method: 'PATCH', url: `${FAPI}/v1/oauth_callback`, headers: foreign }), false);
  });

  it('without fapiPath nothing is exempt', () => {
    const plain = requestOriginGuard({ publicUrl: PUBLIC_URL, allowedOrigins: [] });
    assert.equal(plain({ method: 'POST', url: `${FAPI}/v1/oauth_callback`, headers: foreign }), false);
  });
});

forEachBackend('social sign-in with a form_post provider (POST /v1/oauth_callback)', (backend) => {
  let h: Harness;
  let dev: Harness;
  let provider: OAuth2Server;
  const app = (path: string) => `${h.config.publicUrl}${path}`;

  before(async () => {
    process.env[SECRET_ENV] = 'provider-client-secret';
    provider = await startOidcStandIn((payload) => {
      Object.assign(payload, person);
    });
    h = await Harness.start(backend);
    dev = await h.twin({ instanceKeys: 'development' });
    for (const harness of [h, dev]) {
      await harness.identity.settings.set({
        ...harness.identity.settings.settings,
        social: {
          oauth_google: {
            clientId: 'form-post-client',
            clientSecret: { env: SECRET_ENV },
            issuer: provider.issuer.url!,
          },
        },
      });
    }
  });
  after(async () => {
    await dev.close();
    await h.close();
    await provider.stop();
  });
  beforeEach(() => {
    person = {
      sub: `sub-${Math.random().toString(36).slice(2)}`,
      email: uniqueEmail('apple'),
      email_verified: true,
    };
  });

  /** Starts a sign-up with the button and returns the fields the provider would post back. */
  async function toProvider(browser: Browser, query: Record<string, string> = {}): Promise<URLSearchParams> {
    const started = await browser.post(
      '/client/sign_ups',
      {
        strategy: 'oauth_google',
        redirect_url: app('/sign-in#/sso-callback'),
        action_complete_redirect_url: app('/dashboard'),
      },
      query,
    );
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const url = started.body.response.verifications.external_account.external_verification_redirect_url;
    const atProvider = await fetch(url, { redirect: 'manual' });
    const back = new URL(atProvider.headers.get('location')!);
    assert.equal(back.pathname, `${FAPI}/v1/oauth_callback`);
    return back.searchParams;
  }

  /** The provider's page posts the form from its own site: no cookie of ours comes with it. */
  async function formPost(harness: Harness, fields: Record<string, string>, search = '') {
    return harness.app.inject({
      method: 'POST',
      url: `${FAPI}/v1/oauth_callback${search}`,
      headers: {
        origin: PROVIDER_SITE,
        'sec-fetch-site': 'cross-site',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: new URLSearchParams(fields).toString(),
      remoteAddress: '10.9.8.7',
    });
  }

  /** The redirect's target, opened by `browser` (a top-level GET: its Lax cookies go with it). */
  function follow(browser: Browser, location: string) {
    const { origin, pathname, search } = new URL(location);
    assert.equal(origin, new URL(PUBLIC_URL).origin);
    return browser.raw('GET', `${pathname}${search}`);
  }

  it('the POST sends the browser to the GET callback with the posted fields, and the sign-up completes there', async () => {
    const browser = h.browser();
    const back = await toProvider(browser);
    const code = back.get('code')!;
    const state = back.get('state')!;
    const posted = await formPost(h, { code, state, user: '{"name":{"firstName":"Ada"}}', extra: 'x' });
    assert.equal(posted.statusCode, 303, posted.body);
    assert.equal(posted.cookies.length, 0, 'the POST sets no cookie');
    assert.equal(posted.headers['cache-control'], 'no-store');
    const location = new URL(String(posted.headers.location));
    assert.equal(`${location.origin}${location.pathname}`, `${PUBLIC_URL}${FAPI}/v1/oauth_callback`);
    assert.deepEqual([...location.searchParams.keys()].sort(), ['code', 'state']);
    assert.equal(location.searchParams.get('code'), code);
    assert.equal(location.searchParams.get('state'), state);

    const landed = await follow(browser, location.toString());
    assert.equal(landed.status, 303);
    assert.equal(landed.headers.location, app('/dashboard'));
    const c = (await browser.get('/client')).body.response;
    assert.equal(c.sessions.length, 1);
    assert.equal(c.sessions[0].user.email_addresses[0].email_address, person.email);
    assert.equal(c.sessions[0].user.external_accounts[0].provider_user_id, person.sub);
  });

  it('the POST spends and binds nothing: the GET it points to decides (bound to the browser, used once)', async () => {
    const browser = h.browser();
    const back = await toProvider(browser);
    const fields = { code: back.get('code')!, state: back.get('state')! };
    // Posted twice (a forged or repeated POST): each only points to the GET callback.
    const first = await formPost(h, fields);
    const second = await formPost(h, fields);
    assert.equal(first.statusCode, 303);
    assert.equal(second.headers.location, first.headers.location);

    // Another browser opening it is refused (the state is bound to the client) and nothing moves.
    const attacker = h.browser();
    const stolen = await follow(attacker, String(first.headers.location));
    assert.equal(stolen.status, 303);
    assert.equal(stolen.headers.location, app('/sign-in'));
    assert.equal((await attacker.get('/client')).body.response?.sessions.length ?? 0, 0);
    assert.equal(await h.count('external_accounts', 'provider_user_id = $1', [person.sub]), 0);
    // A state presented anywhere is spent: its own browser cannot use it afterwards either.
    const late = await follow(browser, String(first.headers.location));
    assert.equal(late.headers.location, app('/sign-in'));
    assert.equal(await h.count('external_accounts', 'provider_user_id = $1', [person.sub]), 0);
  });

  it("the provider's refusal posted back reaches the GET callback: the sign-up fails, nothing created", async () => {
    const browser = h.browser();
    const back = await toProvider(browser);
    const posted = await formPost(h, { error: 'access_denied', state: back.get('state')! });
    assert.equal(posted.statusCode, 303);
    const landed = await follow(browser, String(posted.headers.location));
    assert.equal(landed.status, 303);
    assert.equal(landed.headers.location, app('/sign-in#/sso-callback'));
    const signUp = (await browser.get('/client')).body.response.sign_up;
    assert.equal(signUp.verifications.external_account.status, 'failed');
    assert.equal(signUp.verifications.external_account.error.code, 'oauth_access_denied');
  });

  it('other cross-site POSTs are still refused, and a tunnelled one to the callback too', async () => {
    const browser = h.browser({ origin: PROVIDER_SITE, headers: { 'sec-fetch-site': 'cross-site' } });
    const refused = await browser.post('/client/sign_ins', { strategy: 'oauth_google' });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.errors[0].code, 'origin_invalid');
    const tunnelled = await formPost(h, { code: 'c', state: 's' }, '?_method=DELETE');
    assert.equal(tunnelled.statusCode, 403);
    assert.equal(JSON.parse(tunnelled.body).errors[0].code, 'origin_invalid');
  });

  it('development keys: the browser known by its __clerk_db_jwt cookie on our origin completes the callback', async () => {
    const token = (await dev.browser().post('/dev_browser')).body.id as string;
    // clerk-js sends the token in every FAPI URL and keeps it in a cookie on the app's origin, ours.
    const browser = dev.browser();
    browser.jar.set('__clerk_db_jwt', token);
    const back = await toProvider(browser, { __clerk_db_jwt: token });
    const posted = await formPost(dev, { code: back.get('code')!, state: back.get('state')! });
    assert.equal(posted.statusCode, 303);
    // The provider's redirect carries no `__clerk_db_jwt`: the cookie alone says which browser this is.
    const landed = await follow(browser, String(posted.headers.location));
    assert.equal(landed.status, 303);
    assert.equal(landed.headers.location, `${dev.config.publicUrl}/dashboard`);
    // The credential is replaced as at any sign-in, in the cookie clerk-js reads it from.
    const rotated = browser.jar.get('__clerk_db_jwt');
    assert.ok(rotated && rotated !== token);
    const c = (await browser.get('/client', { ...CLERK_QUERY, __clerk_db_jwt: rotated })).body.response;
    assert.equal(c.sessions.length, 1);
    assert.equal(c.sessions[0].user.email_addresses[0].email_address, person.email);
  });
});
