import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { USAGE } from '../src/cli/run-cli.ts';
import type { WebhookTiming } from '../src/webhooks/timing-settings.ts';
import { newWebhookSecret } from '../src/webhooks/signing.ts';
import { forEachBackend, type Store } from './support/backends.ts';
import { cli, cliStore } from './support/cli.ts';
import { signUp } from './support/flows.ts';
import { Harness, uniqueEmail } from './support/harness.ts';
import { WebhookReceiver } from './support/webhook-receiver.ts';

const FAST: WebhookTiming = { pollMs: 50, timeoutMs: 2000, leaseMs: 4000, retryDelaysMs: [50], batch: 20 };
const SECRET_ENV = 'WEBHOOKS_CLI_SIGNING_SECRET';

forEachBackend('identity CLI: webhooks', (backend) => {
  let store: Store;
  let env: NodeJS.ProcessEnv;
  let dispose: () => Promise<void>;
  let receiver: WebhookReceiver;
  let h: Harness | null = null;
  let userId: string;
  let eventId: string;

  const start = async () => (h = await Harness.start(backend, { store, config: { webhooks: FAST } }));
  const stop = async () => {
    await h?.close();
    h = null;
  };

  before(async () => {
    ({ store, env, dispose } = await cliStore(backend));
    const secret = newWebhookSecret();
    process.env[SECRET_ENV] = secret;
    env = { ...env, [SECRET_ENV]: secret };
    receiver = await WebhookReceiver.start(secret);
    await start();
    await h!.identity.settings.set({
      ...h!.identity.settings.settings,
      webhooks: {
        endpoints: { ep_cli: { url: receiver.url, events: ['user.created'], secret: { env: SECRET_ENV } } },
      },
    });
    ({ userId } = await signUp(h!, h!.browser(), uniqueEmail('cli-hook')));
    await receiver.waitFor((r) => r.delivered.some((d) => d.data.id === userId));
    eventId = receiver.delivered.find((d) => d.data.id === userId)!.id;
    // Recorded as delivered before the server stops (a stop aborts what is in flight, to be retried).
    for (const until = Date.now() + 10_000; ;) {
      const [row] = await h!.db.query<{ status: string }>(
        'SELECT status FROM webhook_deliveries WHERE event_id = $1',
        [eventId],
      );
      if (row?.status === 'delivered') break;
      assert.ok(Date.now() < until, 'delivered');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // The command line opens the database itself: a PGlite directory only while no server holds it.
    await stop();
  });
  after(async () => {
    await stop();
    await receiver.close();
    await dispose();
  });

  it('the usage names the webhooks commands; a malformed command line is exit 2', async () => {
    assert.match(USAGE, /webhooks replay <evt_…>/);
    for (const argv of [
      ['webhooks'],
      ['webhooks', 'replay'],
      ['webhooks', 'replay', 'not-an-event'],
      ['webhooks', 'replay', '--since', 'yesterday'],
      ['webhooks', 'replay', '--since', '2026-11-28T10:00:00Z', '--until', '2026-11-28T09:00:00Z'],
      ['webhooks', 'deliveries', '--limit', '0'],
      ['webhooks', 'replay', eventId, '--endpoint', 'https://elsewhere'],
      ['webhooks', 'deliveries', '--status', 'lost'],
      ['webhooks', 'deliveries', '--type', 'user'],
      ['webhooks', 'replay', 'msg_abc', '--endpoint', 'ep_cli'],
      ['webhooks', 'replay', 'msg_a-b'],
    ]) {
      const res = await cli(argv, env);
      assert.equal(res.status, 2, argv.join(' '));
    }
  });

  it('lists the endpoints and the deliveries with their attempts', async () => {
    const endpoints = await cli(['webhooks', 'endpoints'], env);
    assert.equal(endpoints.status, 0, endpoints.err);
    assert.match(
      endpoints.out,
      /ep_cli {2}enabled .*\/webhooks {2}events: user\.created {2}secret: WEBHOOKS_CLI/,
    );
    const deliveries = await cli(['webhooks', 'deliveries', '--event', eventId], env);
    assert.equal(deliveries.status, 0, deliveries.err);
    assert.match(
      deliveries.out,
      new RegExp(`${eventId} {2}user\\.created {2}→ ep_cli {2}delivered {2}attempts: 1`),
    );
    assert.match(deliveries.out, /#1 .* 200 {2}\d+ ms {2}"answered 200"/);
    // Bodies are never printed: the user's id is in the payload only.
    assert.doesNotMatch(deliveries.out, new RegExp(userId));
    // The Backend API's filters: event type and status.
    const filtered = await cli(
      ['webhooks', 'deliveries', '--type', 'user.created', '--status', 'delivered'],
      env,
    );
    assert.equal(filtered.status, 0, filtered.err);
    assert.match(filtered.out, new RegExp(`${eventId} {2}user\\.created`));
    const none = await cli(['webhooks', 'deliveries', '--status', 'failed'], env);
    assert.equal(none.status, 0, none.err);
    assert.equal(none.out.trim(), 'No deliveries.');
  });

  it('replays one event, and a time range, with the same svix-id; an unknown event is refused', async () => {
    const missing = await cli(['webhooks', 'replay', 'evt_doesnotexist'], env);
    assert.equal(missing.status, 1);
    assert.match(missing.err, /no webhook event evt_doesnotexist/);

    const one = await cli(['webhooks', 'replay', eventId], env);
    assert.equal(one.status, 0, one.err);
    assert.match(one.out, /user\.created → ep_cli/);
    const range = await cli(
      [
        'webhooks',
        'replay',
        '--since',
        new Date(Date.now() - 3600_000).toISOString(),
        '--endpoint',
        'ep_cli',
      ],
      env,
    );
    assert.equal(range.status, 0, range.err);
    assert.match(range.out, new RegExp(`${eventId} user\\.created → ep_cli`));
    // The range holds the sign-up's session and mail too; ep_cli subscribes to user.created only.
    assert.doesNotMatch(range.out, /session\.created|email\.created/);
    const listed = await cli(['webhooks', 'deliveries', '--event', eventId, '--limit', '1'], env);
    const first = { id: /\b(msg_\w+)\b/.exec(listed.out)![1]! };
    const unknown = await cli(['webhooks', 'replay', 'msg_doesnotexist'], env);
    assert.equal(unknown.status, 1);
    assert.match(unknown.err, /no webhook delivery msg_doesnotexist/);
    const delivery = await cli(['webhooks', 'replay', first!.id], env);
    assert.equal(delivery.status, 0, delivery.err);
    assert.match(delivery.out, new RegExp(`^msg_\\w+ ${eventId} user\\.created → ep_cli`));
    await start();
    await receiver.waitFor((r) => r.delivered.filter((d) => d.id === eventId).length === 4);
    assert.deepEqual(receiver.refused, []);
  });
});
