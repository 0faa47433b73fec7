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
});
