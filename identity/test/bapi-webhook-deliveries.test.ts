// The Backend API's webhook endpoints and deliveries (our extension, docs/webhooks.md § The Backend API):
// lists filtered and paged, a delivery with its payload and attempts and never a secret, a replay sent
// anew to a real receiver that verifies it with @clerk/backend's verifyWebhook, audited; unknown ids,
// another instance's delivery and bad filters refused, changing nothing.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { BAPI, Harness, uniqueEmail, type Json } from './support/harness.ts';
import { WebhookReceiver } from './support/webhook-receiver.ts';
import { newWebhookSecret } from '../src/webhooks/signing.ts';
import type { WebhookTiming } from '../src/webhooks/timing-settings.ts';

const FAST: WebhookTiming = { pollMs: 50, timeoutMs: 2000, leaseMs: 4000, retryDelaysMs: [50], batch: 20 };
const SECRET_ENV = 'BAPI_DELIVERIES_TEST_SECRET';
const OTHER_SECRET_KEY = 'sk_live_otherwebhookdeliveries000000000000000';

async function call(h: Harness, method: 'GET' | 'POST', path: string, payload?: unknown) {
  const res = await h.app.inject({
    method,
    url: `${BAPI}${path}`,
    headers: {
      authorization: `Bearer ${h.identity.secretKey}`,
      'user-agent': 'deliveries-test/1.0',
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    payload: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return { status: res.statusCode, body: res.body ? (res.json() as Json) : null };
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

forEachBackend('Backend API: webhook endpoints and deliveries', (backend) => {
  let h: Harness;
  let other: Harness;
  let receiver: WebhookReceiver;
  let secret: string;
  let userId: string;
  let delivery: Json;
  const deliveriesCount = () => h.count('webhook_deliveries');

  before(async () => {
    secret = newWebhookSecret();
    process.env[SECRET_ENV] = secret;
    receiver = await WebhookReceiver.start(secret);
    h = await Harness.start(backend, { config: { webhooks: FAST } });
    other = await Harness.start(backend, { config: { webhooks: FAST, secretKey: OTHER_SECRET_KEY } });
    for (const instance of [h, other]) {
      await instance.identity.settings.set({
        ...instance.identity.settings.settings,
        webhooks: {
          endpoints: {
            ep_crm: { url: receiver.url, events: ['user.created'], secret: { env: SECRET_ENV } },
            ep_off: { url: receiver.url, enabled: false, secret: { env: 'BAPI_DELIVERIES_UNSET' } },
          },
        },
      });
    }
    const created = await call(h, 'POST', '/v1/users', {
      email_address: [uniqueEmail('hooked')],
      password: 'Correct-Horse-Battery-9',
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    userId = created.body.id;
    await receiver.waitFor(() => receiver.delivered.some((r) => r.data.id === userId));
    delivery = await until('the delivery recorded as delivered', async () => {
      const list = await call(h, 'GET', '/v1/webhook_deliveries?status=delivered&endpoint_id=ep_crm');
      return (list.body.data as Json[]).find((d) => d.event_type === 'user.created');
    });
  });
  after(async () => {
    await other?.close();
    await h?.close();
    await receiver?.close();
  });

  it('lists the endpoints with the name of their secret’s variable, never the secret', async () => {
    const res = await call(h, 'GET', '/v1/webhook_endpoints');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.total_count, 2);
    const crm = (res.body.data as Json[]).find((e) => e.id === 'ep_crm');
    assert.deepEqual(crm, {
      object: 'webhook_endpoint',
      id: 'ep_crm',
      url: receiver.url,
      events: ['user.created'],
      enabled: true,
      description: null,
      source: 'settings',
      secret_env: SECRET_ENV,
      secret_set: true,
    });
    const off = (res.body.data as Json[]).find((e) => e.id === 'ep_off');
    assert.equal(off.enabled, false);
    assert.equal(off.secret_set, false);
    assert.equal(JSON.stringify(res.body).includes(secret), false);
  });

  it('lists deliveries newest first, filtered by endpoint, event type and status, and paged', async () => {
    assert.equal(delivery.object, 'webhook_delivery');
    assert.match(delivery.id, /^msg_/);
    assert.equal(delivery.endpoint_id, 'ep_crm');
    assert.equal(delivery.status, 'delivered');
    assert.equal(delivery.attempt_count, 1);
    assert.equal(delivery.last_status_code, 200);
    assert.equal(delivery.next_attempt_at, null);
    const filtered = async (query: string) => (await call(h, 'GET', `/v1/webhook_deliveries?${query}`)).body;
    assert.equal((await filtered('event_type=user.created')).total_count, 1);
    assert.equal((await filtered('event_type=session.created')).total_count, 0);
    assert.equal((await filtered('endpoint_id=ep_other')).total_count, 0);
    assert.equal((await filtered('status=failed')).total_count, 0);
    assert.equal((await filtered(`event_id=${delivery.event_id}`)).data[0].id, delivery.id);
    const page = await filtered('limit=1&offset=1');
    assert.deepEqual(page.data, []);
    assert.equal(page.total_count, 1);
  });

  it('shows one delivery with the payload sent and every attempt, and no signing secret', async () => {
    const res = await call(h, 'GET', `/v1/webhook_deliveries/${delivery.id}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.payload.type, 'user.created');
    assert.equal(res.body.payload.data.id, userId);
    assert.equal(res.body.payload.object, 'event');
    assert.equal(res.body.attempts.length, 1);
    const [attempt] = res.body.attempts;
    assert.equal(attempt.attempt, 1);
    assert.equal(attempt.status_code, 200);
    assert.equal(attempt.error, null);
    assert.equal(typeof attempt.started_at, 'number');
    assert.equal(attempt.response_excerpt, 'answered 200');
    assert.equal(JSON.stringify(res.body).includes(secret), false);
    assert.equal(JSON.stringify(res.body).includes(secret.slice('whsec_'.length)), false);
  });

  it('a replay is queued, sent anew to the same endpoint, verified by the receiver and audited', async () => {
    const received = receiver.delivered.filter((r) => r.data.id === userId).length;
    const res = await call(h, 'POST', `/v1/webhook_deliveries/${delivery.id}/replay`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.notEqual(res.body.id, delivery.id);
    assert.equal(res.body.event_id, delivery.event_id);
    assert.equal(res.body.endpoint_id, 'ep_crm');
    await receiver.waitFor(() => receiver.delivered.filter((r) => r.data.id === userId).length > received);
    const replayed = receiver.delivered.filter((r) => r.data.id === userId).at(-1)!;
    // Same svix-id (the event's), a fresh signature that verifyWebhook accepted.
    assert.equal(replayed.id, delivery.event_id);
    assert.deepEqual(receiver.refused, []);
    const after = await until('the replay recorded as delivered', async () => {
      const one = await call(h, 'GET', `/v1/webhook_deliveries/${res.body.id}`);
      return one.body.status === 'delivered' && one.body;
    });
    assert.equal(after.attempts[0].status_code, 200);
    const [event] = await h.db.query<Json>(
      `SELECT action, object_type, object_id, actor_kind, user_agent FROM audit_events
        WHERE action = 'webhook_delivery.replay'`,
    );
    assert.deepEqual(event, {
      action: 'webhook_delivery.replay',
      object_type: 'webhook_delivery',
      object_id: delivery.id,
      actor_kind: 'secret_key',
      user_agent: 'deliveries-test/1.0',
    });
  });

  it('unknown, malformed and another instance’s delivery ids are 404, changing nothing on either', async () => {
    // The other instance has deliveries of its own, with ids of the same shape.
    const theirs = await call(other, 'POST', '/v1/users', { email_address: [uniqueEmail('theirs')] });
    assert.equal(theirs.status, 200);
    await until('the other instance’s delivery', async () => (await other.count('webhook_deliveries')) > 0);
    const before = [await deliveriesCount(), await other.count('webhook_deliveries')];
    for (const id of [
      'msg_2unknowndelivery000000000000',
      'msg_',
      '..%2F..%2Fusers',
      `msg_${'a'.repeat(90)}`,
      'evt_2notadelivery000000000000000',
    ]) {
      for (const [method, path] of [
        ['GET', `/v1/webhook_deliveries/${id}`],
        ['POST', `/v1/webhook_deliveries/${id}/replay`],
      ] as const) {
        const res = await call(h, method, path);
        assert.equal(res.status, 404, `${method} ${path.slice(0, 80)}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.errors[0].code, 'resource_not_found');
      }
    }
    // This instance's delivery, asked of the other with its own key: not found there, and not replayed.
    for (const [method, path] of [
      ['GET', `/v1/webhook_deliveries/${delivery.id}`],
      ['POST', `/v1/webhook_deliveries/${delivery.id}/replay`],
    ] as const) {
      const res = await call(other, method, path);
      assert.equal(res.status, 404, JSON.stringify(res.body));
      assert.equal(res.body.errors[0].code, 'resource_not_found');
    }
    const listed = await call(other, 'GET', `/v1/webhook_deliveries?event_id=${delivery.event_id}`);
    assert.deepEqual(listed.body, { data: [], total_count: 0 });
    assert.equal(
      JSON.stringify((await call(other, 'GET', '/v1/webhook_deliveries')).body).includes(userId),
      false,
    );
    assert.deepEqual([await deliveriesCount(), await other.count('webhook_deliveries')], before);
  });

  it('a replay to an endpoint disabled or no longer configured is refused; bad filters are refused', async () => {
    const count = await deliveriesCount();
    await h.identity.settings.set({
      ...h.identity.settings.settings,
      webhooks: { endpoints: { ep_crm: { url: receiver.url, enabled: false, secret: { env: SECRET_ENV } } } },
    });
    const disabled = await call(h, 'POST', `/v1/webhook_deliveries/${delivery.id}/replay`);
    assert.equal(disabled.status, 422, JSON.stringify(disabled.body));
    assert.equal(disabled.body.errors[0].code, 'form_param_value_invalid');
    assert.match(disabled.body.errors[0].long_message, /ep_crm is disabled/);
    await h.identity.settings.set({ ...h.identity.settings.settings, webhooks: { endpoints: {} } });
    const gone = await call(h, 'POST', `/v1/webhook_deliveries/${delivery.id}/replay`);
    assert.equal(gone.status, 422, JSON.stringify(gone.body));
    assert.match(gone.body.errors[0].long_message, /no longer configured/);
    assert.equal(await deliveriesCount(), count);
    for (const query of [
      'status=nonsense',
      'endpoint_id=crm',
      'event_type=user',
      'event_id=msg_x',
      'limit=abc',
      'limit=0',
      'offset=-1',
    ]) {
      const res = await call(h, 'GET', `/v1/webhook_deliveries?${query}`);
      assert.equal(res.status, 422, `${query}: ${JSON.stringify(res.body)}`);
      assert.match(res.body.errors[0].code, /^form_param_(value|format)_invalid$/);
    }
  });
});
