import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { PASSWORD, signInWithPassword, signUp } from './support/flows.ts';
import { BAPI, FAPI, Harness, uniqueEmail, type Browser } from './support/harness.ts';
import { metricsAccessFrom } from '../src/observability/metrics-access.ts';

/** The value of one sample of the exposition (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelPart = line.slice(name.length).split(' ')[0]!;
    if (wanted.every((w) => labelPart.includes(w))) return Number(line.split(' ').at(-1));
  }
  return 0;
}

forEachBackend('observability of the identity provider', (backend) => {
  let h: Harness;
  const logs: string[] = [];
  before(async () => {
    h = await Harness.start(backend, {
      logs,
      config: {
        lockout: { maxFailedAttempts: 3, durationSeconds: 3600 },
        attemptDelay: { freeAttempts: 100, maxDelaySeconds: 1 },
      },
    });
  });
  after(() => h.close());

  const scrape = async () => {
    const res = await h.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    assert.equal(res.statusCode, 200, res.body);
    return res.body;
  };

  const failPassword = (browser: Browser, signInId: string) =>
    browser.post(`/client/sign_ins/${signInId}/attempt_first_factor`, {
      strategy: 'password',
      password: 'not the password',
    });

  describe('/metrics', () => {
    it('answers loopback in Prometheus text format, with the process and the provider', async () => {
      const res = await h.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
      assert.equal(res.headers['cache-control'], 'no-store');
      for (const name of [
        'process_cpu_user_seconds_total',
        'nodejs_eventloop_lag_seconds',
        'http_requests_total',
        'database_connections',
        'identity_webhook_queue_depth',
        'identity_password_hash_queue',
      ])
        assert.match(res.body, new RegExp(`^# TYPE ${name} `, 'm'), name);
      assert.ok(sample(res.body, 'database_connections', { database: 'identity', state: 'open' }) >= 1);
      assert.equal(sample(res.body, 'identity_webhook_queue_depth', { stage: 'delivery' }), 0);
    });

    it('is the 404 of a path that does not exist for any other address', async () => {
      const missing = await h.app.inject({ method: 'GET', url: '/nothing-here', remoteAddress: '10.1.2.3' });
      for (const remoteAddress of ['10.1.2.3', '203.0.113.7', '2001:db8::1']) {
        const res = await h.app.inject({ method: 'GET', url: '/metrics', remoteAddress });
        assert.equal(res.statusCode, 404, remoteAddress);
        assert.doesNotMatch(res.body, /http_requests_total/);
        assert.deepEqual(Object.keys(res.json()), Object.keys(missing.json()));
      }
      // Loopback through a proxy the server does not trust is not loopback.
      const forwarded = await h.app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': '203.0.113.7' },
      });
      assert.equal(forwarded.statusCode, 404);
    });

    it('counts requests under their route pattern, never the path with its ids', async () => {
      const browser = h.browser();
      const email = uniqueEmail('metrics');
      await signUp(h, browser, email);
      const other = h.browser();
      const created = await other.post('/client/sign_ins', { identifier: email });
      const signInId: string = created.body.response.id;
      await failPassword(other, signInId);
      const text = await scrape();
      const route = `${FAPI}/v1/client/sign_ins/:id/attempt_first_factor`;
      assert.equal(sample(text, 'http_requests_total', { method: 'POST', route, status: '422' }), 1, text);
      assert.ok(
        sample(text, 'http_request_duration_seconds_count', { method: 'POST', route, status: '422' }) >= 1,
      );
      assert.equal(text.includes(signInId), false, 'no sign-in id in a label');
      assert.equal(text.includes(email), false);
      // Backend API routes are Fastify's own patterns.
      await h.app.inject({ method: 'GET', url: `${BAPI}/v1/users/user_nobody`, remoteAddress: '127.0.0.1' });
      const after = await scrape();
      assert.ok(sample(after, 'http_requests_total', { route: `${BAPI}/v1/users/:id` }) >= 1, after);
      assert.equal(after.includes('user_nobody'), false);
    });

    it('counts sign-in attempts by strategy and outcome, lockouts and session tokens', async () => {
      const before = await scrape();
      const failures = sample(before, 'identity_sign_in_attempts_total', {
        strategy: 'password',
        outcome: 'failure',
      });
      const successes = sample(before, 'identity_sign_in_attempts_total', {
        strategy: 'password',
        outcome: 'success',
      });
      const lockouts = sample(before, 'identity_lockouts_total');
      const minted = sample(before, 'identity_session_tokens_minted_total');

      const email = uniqueEmail('attempts');
      await signUp(h, h.browser(), email);
      await signInWithPassword(h.browser(), email, PASSWORD);
      const attacker = h.browser();
      const created = await attacker.post('/client/sign_ins', { identifier: email });
      for (let i = 0; i < 3; i++) await failPassword(attacker, created.body.response.id);
      const locked = await failPassword(attacker, created.body.response.id);
      assert.equal(locked.body.errors[0].code, 'user_locked');

      const now = await scrape();
      assert.equal(
        sample(now, 'identity_sign_in_attempts_total', { strategy: 'password', outcome: 'success' }),
        successes + 1,
      );
      assert.equal(
        sample(now, 'identity_sign_in_attempts_total', { strategy: 'password', outcome: 'failure' }),
        failures + 4,
      );
      assert.equal(sample(now, 'identity_lockouts_total'), lockouts + 1);
      assert.ok(sample(now, 'identity_session_tokens_minted_total') >= minted + 2, 'sign-up and sign-in');
    });
  });

  describe('request ids', () => {
    it('are on every answer, taken from a well-formed X-Request-Id, and are the error envelope’s clerk_trace_id', async () => {
      const given = 'c0ffee00-1234-4abc-8def-0123456789ab';
      const kept = await h.app.inject({
        method: 'GET',
        url: `${FAPI}/v1/nothing`,
        headers: { 'x-request-id': given },
      });
      assert.equal(kept.statusCode, 404);
      assert.equal(kept.headers['x-request-id'], given);
      assert.equal(kept.json().clerk_trace_id, given);
      assert.equal(kept.json().errors[0].code, 'resource_not_found');

      for (const bad of [
        'short',
        'has space in it ok',
        '"quoted"-id-123',
        'x'.repeat(200),
        'a\u00e9bcdefghij',
      ]) {
        const res = await h.app.inject({
          method: 'GET',
          url: `${BAPI}/v1/users`,
          headers: { 'x-request-id': bad },
        });
        assert.equal(res.statusCode, 401, bad);
        const id = res.headers['x-request-id'];
        assert.match(
          String(id),
          /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
          bad,
        );
        assert.equal(res.json().clerk_trace_id, id);
      }
      const ok = await h.app.inject({ method: 'GET', url: '/healthz' });
      assert.equal(ok.statusCode, 200);
      assert.ok(ok.headers['x-request-id']);
      assert.deepEqual(ok.json(), { status: 'ok' });
    });

    it('are on every log line of a request, and no token, cookie or ticket is logged', async () => {
      const from = logs.length;
      const secret = 'sk_live_never_in_logs_0000000000';
      const ticket = 'ticket_secret_value_never_logged';
      const res = await h.app.inject({
        method: 'POST',
        url: `${FAPI}/v1/client/sign_ins?__clerk_ticket=${ticket}&_clerk_js_version=5.90.0`,
        headers: {
          authorization: `Bearer ${secret}`,
          cookie: `__client=${secret}; __session=${secret}`,
          'content-type': 'application/x-www-form-urlencoded',
          'x-request-id': 'trace-for-the-log-test-1',
        },
        payload: `strategy=ticket&ticket=${ticket}`,
      });
      assert.ok(res.statusCode >= 400);
      const lines = logs.slice(from).map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.ok(lines.length >= 2, 'the request and its answer are logged');
      for (const line of lines) assert.equal(line.reqId, 'trace-for-the-log-test-1', JSON.stringify(line));
      const text = logs.slice(from).join('\n');
      assert.equal(text.includes(secret), false, text);
      assert.equal(text.includes(ticket), false, text);
    });
  });

  describe('readiness', () => {
    it('/readyz names the provider’s database', async () => {
      const res = await h.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { status: 'ready', dependencies: { identity_database: 'up' }, down: [] });
    });
  });
});

describe('METRICS_ALLOWED_FROM', () => {
  it('defaults to loopback in development and to no one in production', () => {
    assert.deepEqual(metricsAccessFrom(undefined, false), ['127.0.0.0/8', '::1/128']);
    assert.equal(metricsAccessFrom(undefined, true), 'off');
    assert.equal(metricsAccessFrom('off', false), 'off');
    assert.deepEqual(metricsAccessFrom('10.0.0.0/8, loopback,192.0.2.1', true), [
      '10.0.0.0/8',
      '127.0.0.0/8',
      '::1/128',
      '192.0.2.1/32',
    ]);
  });

  it('refuses what is not an address or a CIDR', () => {
    for (const bad of ['yes', '10.0.0.0/33', '10.0.0/8', '::1/129', '*', '10.0.0.0/8/1'])
      assert.throws(() => metricsAccessFrom(bad, false), /METRICS_ALLOWED_FROM/, bad);
  });
});
