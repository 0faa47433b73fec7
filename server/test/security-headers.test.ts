import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startEmbeddedServer, type EmbeddedServer } from './support/embedded-server.ts';

const PRODUCTION = { IDENTITY_MODE: 'production', SMTP_URL: 'smtp://127.0.0.1:1' };

describe('browser security headers', () => {
  let server: EmbeddedServer;
  before(async () => {
    server = await startEmbeddedServer();
  });
  after(() => server.stop());

  const page = (url: string, remoteAddress = '127.0.0.1') =>
    server.app.fastify.inject({ method: 'GET', url, headers: { accept: 'text/html' }, remoteAddress });

  function assertHtmlHeaders(headers: Record<string, unknown>, url: string) {
    const csp = String(headers['content-security-policy']);
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "worker-src 'self' blob:",
      "frame-ancestors 'none'",
      "object-src 'none'",
    ])
      assert.ok(csp.split(';').includes(directive), `${url}: ${directive} in ${csp}`);
    assert.doesNotMatch(csp, /script-src[^;]*'unsafe-(inline|eval)'/, url);
    assert.equal(headers['x-frame-options'], 'DENY', url);
    assert.equal(headers['x-content-type-options'], 'nosniff', url);
    assert.equal(headers['referrer-policy'], 'strict-origin-when-cross-origin', url);
    // A popup the page opens (clerk-js's popup sign-in) keeps its opener; no other window gets ours.
    assert.equal(headers['cross-origin-opener-policy'], 'same-origin-allow-popups', url);
    assert.equal(headers['strict-transport-security'], undefined, `${url}: no HSTS in development`);
  }

  /** The outbox views are plain text: stricter still (no script at all), as on the standalone provider. */
  function assertOutboxPageHeaders(headers: Record<string, unknown>, url: string) {
    assert.equal(
      headers['content-security-policy'],
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      url,
    );
    assert.equal(headers['x-frame-options'], 'DENY', url);
    assert.equal(headers['x-content-type-options'], 'nosniff', url);
    assert.equal(headers['referrer-policy'], 'no-referrer', url);
  }

  it('every HTML answer: the SPA (any route), the outbox views', async () => {
    for (const url of ['/', '/organizations/settings', '/__dev/mail.html', '/__dev/sms.html']) {
      const res = await page(url);
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers['content-type']), /^text\/html/, url);
      if (url.startsWith('/__dev/')) assertOutboxPageHeaders(res.headers, url);
      else assertHtmlHeaders(res.headers, url);
    }
  });

  it('JSON answers are nosniff too', async () => {
    for (const url of ['/app-config.json', '/api/organizations/current', '/__clerk/v1/environment']) {
      const res = await server.app.fastify.inject({ method: 'GET', url });
      assert.equal(res.headers['x-content-type-options'], 'nosniff', url);
    }
  });

  it("the Frontend API's redirects carry no opener policy (a popup passes through them); its answers do", async () => {
    // The OAuth callback with no state: a redirect to the sign-in page.
    const redirect = await server.app.fastify.inject({ method: 'GET', url: '/__clerk/v1/oauth_callback' });
    assert.ok(redirect.statusCode >= 300 && redirect.statusCode < 400, String(redirect.statusCode));
    assert.equal(redirect.headers['cross-origin-opener-policy'], undefined);
    assert.equal(redirect.headers['x-content-type-options'], 'nosniff', 'the other headers stay');
    const json = await server.app.fastify.inject({ method: 'GET', url: '/__clerk/v1/environment' });
    assert.equal(json.headers['cross-origin-opener-policy'], 'same-origin-allow-popups');
  });

  it('production sends HSTS over https only (as the trusted proxy says), never over http', async () => {
    const prod = await startEmbeddedServer({ env: { ...PRODUCTION, TRUST_PROXY: '1' } });
    try {
      const get = (headers: Record<string, string>) =>
        prod.app.fastify.inject({ method: 'GET', url: '/', headers: { accept: 'text/html', ...headers } });
      const https = await get({ 'x-forwarded-proto': 'https' });
      assert.equal(https.headers['strict-transport-security'], 'max-age=31536000');
      assertHtmlHeaders({ ...https.headers, 'strict-transport-security': undefined }, '/ over https');
      assert.equal(
        (await get({ 'x-forwarded-proto': 'http' })).headers['strict-transport-security'],
        undefined,
      );
      assert.equal((await get({})).headers['strict-transport-security'], undefined);
    } finally {
      await prod.stop();
    }
    // Development never, whatever the proxy says.
    const dev = await server.app.fastify.inject({
      method: 'GET',
      url: '/',
      headers: { 'x-forwarded-proto': 'https' },
    });
    assert.equal(dev.headers['strict-transport-security'], undefined);
  });

  it("Google's One Tap script, iframe and calls are allowed only while the instance offers One Tap", async () => {
    const gsi = /https:\/\/accounts\.google\.com/;
    const csp = async () => String((await page('/sign-in')).headers['content-security-policy']);
    assert.doesNotMatch(await csp(), gsi);
    const settings = server.app.identity!.settings;
    const before_ = settings.settings;
    const google = { clientId: 'one-tap-client', clientSecret: { env: 'ONE_TAP_CSP_TEST_SECRET' } };
    // Google without One Tap: still nothing of Google's (the redirect flow needs no script).
    await settings.set({ ...before_, social: { oauth_google: google } });
    assert.doesNotMatch(await csp(), gsi);
    await settings.set({ ...before_, social: { oauth_google: { ...google, oneTap: true } } });
    try {
      const directives = (await csp()).split(';');
      for (const directive of [
        "script-src 'self' https://accounts.google.com/gsi/client",
        "style-src 'self' 'unsafe-inline' https://accounts.google.com/gsi/style",
        "connect-src 'self' https://accounts.google.com/gsi/",
        "frame-src 'self' https://accounts.google.com/gsi/",
        "frame-ancestors 'none'",
      ])
        assert.ok(directives.includes(directive), `${directive} in ${directives.join(';')}`);
    } finally {
      await settings.set(before_);
    }
    assert.doesNotMatch(await csp(), gsi);
  });

  it("Stripe.js's script, frames and calls are allowed only while billing runs through Stripe", async () => {
    const stripe = /stripe\.com/;
    const csp = async () => String((await page('/pricing')).headers['content-security-policy']);
    const settings = server.app.identity!.settings;
    const before_ = settings.settings;
    const plans = { pro: { name: 'Pro', payerType: 'org', monthlyFee: 2900 } };
    // The offline gateway: the page's own card form, nothing of Stripe's.
    await settings.set({ ...before_, billing: { plans } });
    assert.doesNotMatch(await csp(), stripe);
    process.env.STRIPE_CSP_TEST_SECRET = 'sk_test_csp';
    process.env.STRIPE_CSP_TEST_WEBHOOK = 'whsec_csp';
    await settings.set({
      ...before_,
      billing: {
        plans,
        gateway: {
          kind: 'stripe',
          publishableKey: 'pk_test_csp',
          accountId: 'acct_csp',
          secretKey: { env: 'STRIPE_CSP_TEST_SECRET' },
          webhookSecret: { env: 'STRIPE_CSP_TEST_WEBHOOK' },
        },
      },
    });
    try {
      const directives = (await csp()).split(';');
      for (const directive of [
        "script-src 'self' https://js.stripe.com",
        "connect-src 'self' https://api.stripe.com",
        "frame-src 'self' https://js.stripe.com https://hooks.stripe.com",
      ])
        assert.ok(directives.includes(directive), `${directive} in ${directives.join(';')}`);
    } finally {
      await settings.set(before_);
    }
    assert.doesNotMatch(await csp(), stripe);
  });
});
