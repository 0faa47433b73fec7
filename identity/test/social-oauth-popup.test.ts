import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import type { OAuth2Server } from 'oauth2-mock-server';
import { startOidcStandIn } from './support/oidc-stand-in.ts';
import { forEachBackend } from './support/backends.ts';
import { signUp } from './support/flows.ts';
import { Harness, uniqueEmail, type Browser } from './support/harness.ts';
import { OFF_ORIGIN_REDIRECTS, POPUP_CALLBACK_DISGUISES } from './support/redirect-attacks.ts';
import { clientOf, openCallback, redirectBackFrom, useGoogle } from './support/social-flows.ts';

/**
 * Social sign-in by popup (clerk-js `authenticateWithPopup`): the attempt's `redirect_url` and
 * `action_complete_redirect_url` point at `https://accounts.<domain>/popup-callback`, the Account Portal
 * origin clerk-js derives from the publishable key (here `clerk.localhost:3000` → `accounts.localhost:3000`).
 * That exact page, and nothing else on that origin, is accepted, only for a social strategy; the callback
 * lands there, naming the session it opened once complete.
 */

const SECRET_ENV = 'SOCIAL_OAUTH_POPUP_TEST_SECRET';
const PORTAL = 'https://accounts.localhost:3000';

let person: { sub: string; email: string; email_verified: boolean };

forEachBackend('social sign-in by popup: the accounts.<domain> popup-callback page', (backend) => {
  let h: Harness;
  let provider: OAuth2Server;
  const app = (path: string) => `${h.config.publicUrl}${path}`;
  /** What clerk-js 5.90.0 sends for a popup: the popup page, with the app's SSO callback as return_url. */
  const popupUrls = (intent: 'signIn' | 'signUp') => {
    const back = new URL(app(intent === 'signIn' ? '/sign-in' : '/sign-up'));
    back.searchParams.set('sign_in_force_redirect_url', app('/dashboard'));
    back.searchParams.set('sign_up_force_redirect_url', app('/dashboard'));
    back.searchParams.set('intent', intent);
    back.hash = '/sso-callback';
    return {
      redirect_url: `${PORTAL}/popup-callback?return_url=${encodeURIComponent(back.href)}`,
      action_complete_redirect_url: `${PORTAL}/popup-callback`,
      returnUrl: back.href,
    };
  };

  before(async () => {
    process.env[SECRET_ENV] = 'provider-client-secret';
    provider = await startOidcStandIn((payload) => Object.assign(payload, person));
    h = await Harness.start(backend);
    await useGoogle(h, {
      clientId: 'qoala-popup-client',
      secretEnv: SECRET_ENV,
      issuer: provider.issuer.url!,
    });
  });
  after(async () => {
    await h.close();
    await provider.stop();
  });
  beforeEach(() => {
    // Attempts are rate limited per IP: each test in a window of its own.
    h.clock.advance(61);
    person = {
      sub: `sub-${Math.random().toString(36).slice(2)}`,
      email: uniqueEmail('popup'),
      email_verified: true,
    };
  });

  /** The button in popup mode: the attempt is created, and the popup goes to the provider and back. */
  async function popupToProvider(browser: Browser, resource: 'sign_ins' | 'sign_ups'): Promise<string> {
    const urls = popupUrls(resource === 'sign_ins' ? 'signIn' : 'signUp');
    const started = await browser.post(`/client/${resource}`, {
      strategy: 'oauth_google',
      redirect_url: urls.redirect_url,
      action_complete_redirect_url: urls.action_complete_redirect_url,
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const verification =
      resource === 'sign_ins'
        ? started.body.response.first_factor_verification
        : started.body.response.verifications.external_account;
    return redirectBackFrom(verification.external_verification_redirect_url);
  }

  const callback = openCallback;
  const client = clientOf;

  it('a known account completes: the popup page is told the session the callback opened', async () => {
    const first = h.browser();
    await callback(first, await popupToProvider(first, 'sign_ups'));
    const userId = (await client(first)).sessions[0].user.id;

    const browser = h.browser();
    const landed = await callback(browser, await popupToProvider(browser, 'sign_ins'));
    assert.equal(landed.status, 303);
    const location = new URL(String(landed.headers.location));
    const signedIn = await client(browser);
    assert.equal(signedIn.sessions.length, 1);
    assert.equal(signedIn.sessions[0].user.id, userId);
    assert.equal(`${location.origin}${location.pathname}`, `${PORTAL}/popup-callback`);
    assert.deepEqual([...location.searchParams], [['__clerk_created_session', signedIn.sessions[0].id]]);
  });

  it('a sign-up that completes at the callback names its new session too', async () => {
    const browser = h.browser();
    const landed = await callback(browser, await popupToProvider(browser, 'sign_ups'));
    const location = new URL(String(landed.headers.location));
    const c = await client(browser);
    assert.equal(c.sessions[0].user.email_addresses[0].email_address, person.email);
    assert.equal(location.searchParams.get('__clerk_created_session'), c.sessions[0].id);
  });

  it('not complete (a new person on sign-in): the popup page gets the SSO callback to hand the opener, no session', async () => {
    const browser = h.browser();
    const landed = await callback(browser, await popupToProvider(browser, 'sign_ins'));
    assert.equal(landed.status, 303);
    assert.equal(landed.headers.location, popupUrls('signIn').redirect_url);
    assert.equal((await client(browser)).sign_in.first_factor_verification.status, 'transferable');
    assert.equal((await client(browser)).sessions.length, 0);
  });

  it('a redirect (not popup) sign-in that completes is not told anything new', async () => {
    const first = h.browser();
    await callback(first, await popupToProvider(first, 'sign_ups'));
    const browser = h.browser();
    const started = await browser.post('/client/sign_ins', {
      strategy: 'oauth_google',
      redirect_url: app('/sign-in#/sso-callback'),
      action_complete_redirect_url: app('/dashboard'),
    });
    const url = started.body.response.first_factor_verification.external_verification_redirect_url;
    const back = await redirectBackFrom(url);
    const landed = await callback(browser, back);
    assert.equal(landed.headers.location, app('/dashboard'));
  });

  it('refuses every look-alike of the popup page, and every other attack, on social sign-in and sign-up; nothing is started', async () => {
    const attacks = [...POPUP_CALLBACK_DISGUISES, ...OFF_ORIGIN_REDIRECTS];
    const before = { signIns: await h.count('sign_ins'), signUps: await h.count('sign_ups') };
    for (const resource of ['sign_ins', 'sign_ups'] as const) {
      for (const param of ['redirect_url', 'action_complete_redirect_url']) {
        for (const [label, url] of attacks) {
          h.clock.advance(61);
          const res = await h
            .browser()
            .post(`/client/${resource}`, { strategy: 'oauth_google', [param]: url });
          const what = `${resource} ${param} ${label}: ${JSON.stringify(res.body)}`;
          assert.equal(res.status, 422, what);
          assert.equal(res.body.errors[0].code, 'form_param_value_invalid', what);
          assert.equal(res.body.errors[0].meta.param_name, param, what);
        }
      }
    }
    assert.deepEqual(
      { signIns: await h.count('sign_ins'), signUps: await h.count('sign_ups') },
      before,
      'no attempt was started',
    );
  });

  it('accepts the popup page only where clerk-js sends it: not for other strategies, nor as redirect_url_complete or for connecting an account', async () => {
    const popup = popupUrls('signIn');
    const email = uniqueEmail('popup-other');
    const owner = h.browser();
    await signUp(h, owner, email);
    h.clock.advance(61);
    for (const [path, form, param] of [
      ['/client/sign_ins', { identifier: email, redirect_url: popup.redirect_url }, 'redirect_url'],
      [
        '/client/sign_ins',
        { identifier: email, strategy: 'email_link', redirect_url: popup.redirect_url },
        'redirect_url',
      ],
      [
        '/client/sign_ups',
        { email_address: uniqueEmail('x'), action_complete_redirect_url: popup.action_complete_redirect_url },
        'action_complete_redirect_url',
      ],
      [
        '/client/sign_ups',
        { strategy: 'oauth_google', redirect_url_complete: popup.action_complete_redirect_url },
        'redirect_url_complete',
      ],
    ] as const) {
      h.clock.advance(61);
      const res = await h.browser().post(path, form);
      assert.equal(res.status, 422, `${path} ${JSON.stringify(form)}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.errors[0].meta.param_name, param);
    }
    const connect = await owner.post('/me/external_accounts', {
      strategy: 'oauth_google',
      redirect_url: popup.action_complete_redirect_url,
    });
    assert.equal(connect.status, 422, JSON.stringify(connect.body));
    assert.equal(connect.body.errors[0].meta.param_name, 'redirect_url');
  });

  it('with development keys, the popup page lives on <name>.accounts.dev, as clerk-js derives it', async () => {
    const dev = await h.twin({
      instanceKeys: 'development',
      frontendApiHost: 'localhost-3000.clerk.accounts.dev',
    });
    try {
      const ok = await dev.browser().post('/client/sign_ins', {
        strategy: 'oauth_google',
        redirect_url: `https://localhost-3000.accounts.dev/popup-callback?return_url=${encodeURIComponent(app('/sign-in#/sso-callback'))}&__clerk_db_jwt=dvb_x`,
        action_complete_redirect_url:
          'https://localhost-3000.accounts.dev/popup-callback?__clerk_db_jwt=dvb_x',
      });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      for (const url of [`${PORTAL}/popup-callback`, 'https://other-3000.accounts.dev/popup-callback']) {
        dev.clock.advance(61);
        const res = await dev
          .browser()
          .post('/client/sign_ins', { strategy: 'oauth_google', redirect_url: url });
        assert.equal(res.status, 422, url);
      }
    } finally {
      await dev.close();
    }
  });
});
