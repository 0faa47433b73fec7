import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildAccountsBaseUrl } from '@clerk/shared/buildAccountsBaseUrl';
import { accountsPortalOrigin } from '@app/identity';
import { startEmbeddedServer, type EmbeddedServer } from './support/embedded-server.ts';

/**
 * The popup sign-in's landing page (clerk-js `authenticateWithPopup`): served on the Account Portal host
 * clerk-js derives from the publishable key (`https://accounts.<domain>`), only there, with a CSP of its
 * own and no opener policy; it tells the opener only a session id or an allowed return URL.
 */
describe('the popup-callback page on accounts.<domain>', () => {
  let server: EmbeddedServer;
  let portalHost: string;
  before(async () => {
    server = await startEmbeddedServer();
    portalHost = `accounts.${new URL(server.origin).host}`;
  });
  after(() => server.stop());

  const get = (url: string, host: string, headers: Record<string, string> = {}) =>
    server.app.fastify.inject({ method: 'GET', url, headers: { host, accept: 'text/html', ...headers } });

  /** The JSON the page hands its script. */
  function pageData(body: string): { message: unknown; targets: string[] } {
    const json = /<script type="application\/json" id="popup-message">([^<]*)<\/script>/.exec(body)?.[1];
    assert.ok(json, body);
    return JSON.parse(json);
  }

  it('derives the portal origin exactly as clerk-js does (@clerk/shared buildAccountsBaseUrl)', () => {
    for (const host of [
      'clerk.localhost:3000',
      'clerk.app.example.com',
      'localhost-3000.clerk.accounts.dev',
      'happy-cat-12.clerk.accounts.dev',
      'clerk.accountsstage.dev',
      'auth.example.com',
      'CLERK.Example.COM',
      'x.clerk.y.clerk.accounts.dev',
      'clerk.example.com:443',
    ]) {
      // As the browser reports the popup's origin (event.origin): lower case.
      assert.equal(accountsPortalOrigin(host), new URL(buildAccountsBaseUrl(host)).origin, host);
    }
  });

  it('hands the opener the session the callback completed, to the product origin only', async () => {
    const res = await get('/popup-callback?__clerk_created_session=sess_2abcDEF123', portalHost);
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.deepEqual(pageData(res.body), {
      message: { session: 'sess_2abcDEF123' },
      targets: [server.origin],
    });
    assert.match(res.body, /<script src="\/popup-callback\.js"><\/script>/);
    assert.equal(
      res.headers['content-security-policy'],
      "default-src 'none'; script-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    // The popup must keep window.opener, a window of another origin: no opener policy here.
    assert.equal(res.headers['cross-origin-opener-policy'], undefined);
    assert.equal(res.headers['x-frame-options'], 'DENY');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['referrer-policy'], 'no-referrer');
    assert.equal(res.headers['cache-control'], 'no-store');

    const script = await get('/popup-callback.js', portalHost);
    assert.equal(script.statusCode, 200);
    assert.match(String(script.headers['content-type']), /^text\/javascript/);
    assert.match(script.body, /window\.opener\.postMessage\(data\.message, data\.targets\[i\]\)/);
    assert.equal(script.headers['content-security-policy'], res.headers['content-security-policy']);
  });

  it('hands the opener an allowed return URL (the SSO callback to go on with)', async () => {
    const returnUrl = `${server.origin}/sign-in#/sso-callback?intent=signIn&sign_in_force_redirect_url=${encodeURIComponent(`${server.origin}/dashboard`)}`;
    const res = await get(`/popup-callback?return_url=${encodeURIComponent(returnUrl)}`, portalHost);
    assert.deepEqual(pageData(res.body).message, { return_url: returnUrl });
  });

  it('tells nothing for a return URL off the allowed origins, relative or of another scheme, or a malformed session', async () => {
    const queries: Record<string, string>[] = [
      { return_url: 'https://evil.test/' },
      { return_url: `https://accounts.${new URL(server.origin).host}/popup-callback` },
      { return_url: 'javascript:alert(1)' },
      { return_url: '/dashboard' },
      { return_url: '//evil.test/' },
      { return_url: `${server.origin}@evil.test/` },
      { __clerk_created_session: 'sess_1</script><script>alert(1)</script>' },
      { __clerk_created_session: 'user_123' },
      { __clerk_created_session: '', return_url: 'https://evil.test/' },
    ];
    for (const query of queries) {
      const res = await get(`/popup-callback?${new URLSearchParams(query)}`, portalHost);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(pageData(res.body), { message: null, targets: [] }, JSON.stringify(query));
      assert.doesNotMatch(res.body, /evil|alert/, 'nothing of the query is written into the page');
    }
    // The same parameter twice is no value at all.
    const twice = await get(
      `/popup-callback?return_url=${encodeURIComponent(server.origin)}&return_url=https://evil.test/`,
      portalHost,
    );
    assert.deepEqual(pageData(twice.body).message, null);
  });

  it('serves nothing else of the product on the portal host, and the page nowhere else', async () => {
    for (const path of ['/', '/dashboard', '/app-config.json', '/__clerk/v1/environment', '/api/me']) {
      const res = await get(path, portalHost);
      assert.equal(res.statusCode, 404, path);
      assert.doesNotMatch(res.body, /publishableKey|<title>test/, path);
    }
    const post = await server.app.fastify.inject({
      method: 'POST',
      url: '/popup-callback',
      headers: { host: portalHost },
    });
    assert.equal(post.statusCode, 404);
    // Look-alike hosts and the product's own host get the product (the SPA), not the page.
    for (const host of [
      new URL(server.origin).host,
      `accounts.evil.test`,
      `evil.${portalHost}`,
      `${portalHost}.evil.test`,
      `accounts.localhost`,
    ]) {
      const res = await get('/popup-callback?__clerk_created_session=sess_1', host);
      assert.doesNotMatch(res.body, /popup-message/, host);
    }
  });

  it('behind a trusted proxy, the portal host is the one the proxy forwards', async () => {
    const proxied = await startEmbeddedServer({ env: { TRUST_PROXY: '127.0.0.1' } });
    try {
      const host = `accounts.${new URL(proxied.origin).host}`;
      const ask = (headers: Record<string, string>, remoteAddress: string) =>
        proxied.app.fastify.inject({
          method: 'GET',
          url: '/popup-callback?__clerk_created_session=sess_1',
          headers,
          remoteAddress,
        });
      const viaProxy = await ask({ host: 'upstream:3000', 'x-forwarded-host': host }, '127.0.0.1');
      assert.deepEqual(pageData(viaProxy.body).message, { session: 'sess_1' });
      // An untrusted peer cannot pick the host with the header.
      const direct = await ask({ host: new URL(proxied.origin).host, 'x-forwarded-host': host }, '10.9.8.7');
      assert.doesNotMatch(direct.body, /popup-message/);
    } finally {
      await proxied.stop();
    }
  });

  it('with development keys, on the <name>.accounts.dev host clerk-js derives from the key', async () => {
    const dev = await startEmbeddedServer({ env: { IDENTITY_KEYS: 'development' } });
    try {
      const host = `${new URL(dev.origin).host.replace(/[^a-z0-9]+/gi, '-')}.accounts.dev`;
      const res = await dev.app.fastify.inject({
        method: 'GET',
        url: '/popup-callback?__clerk_created_session=sess_1&__clerk_db_jwt=dvb_secret',
        headers: { host },
      });
      assert.deepEqual(pageData(res.body), { message: { session: 'sess_1' }, targets: [dev.origin] });
      assert.doesNotMatch(res.body, /dvb_secret/, 'the development-browser token stays out of the page');
    } finally {
      await dev.stop();
    }
  });
});
