// run-tests: alone
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { backends } from './support/backends.ts';
import { Harness } from './support/harness.ts';
import { WebhookReceiver } from './support/webhook-receiver.ts';
import { newWebhookSecret } from '../src/webhooks/signing.ts';
import { recordWebhookEvent } from '../src/webhooks/record-event.ts';

/**
 * A worker killed mid-delivery loses nothing (PostgreSQL: several processes on one database). A child
 * identity process claims the delivery and POSTs it; the receiver holds the request; the child is killed
 * with SIGKILL. Its lease runs out, this process's worker takes the delivery again, and the receiver gets
 * it, signed, once answered.
 */
const SECRET_ENV = 'WEBHOOKS_CRASH_SIGNING_SECRET';
const postgres = backends.find((b) => b.name === 'postgres');

describe(
  'webhooks: a worker killed mid-delivery [postgres]',
  { skip: !postgres && 'needs TEST_DATABASE_URL' },
  () => {
    let h: Harness;
    let receiver: WebhookReceiver;
    let child: ChildProcess | null = null;
    before(async () => {
      const secret = newWebhookSecret();
      process.env[SECRET_ENV] = secret;
      receiver = await WebhookReceiver.start(secret);
      // This process's worker looks only when told (runOnce), so the child claims first.
      h = await Harness.start(postgres!, {
        config: {
          webhooks: { pollMs: 600_000, timeoutMs: 2000, leaseMs: 3000, retryDelaysMs: [100, 100], batch: 20 },
        },
      });
      const current = h.identity.settings.settings;
      await h.identity.settings.set({
        ...current,
        webhooks: {
          endpoints: {
            ep_crash: { url: receiver.url, events: [], enabled: true, secret: { env: SECRET_ENV } },
          },
        },
      });
    });
    after(async () => {
      child?.kill('SIGKILL');
      await h.close();
      await receiver.close();
    });

    it('retakes the lease of a killed worker and delivers the event once', async () => {
      let held: (() => void) | null = null;
      const arrived = new Promise<void>((resolve) => {
        let first = true;
        receiver.answer = () => {
          if (!first) return 200;
          first = false;
          resolve();
          // Never answered: the sender dies while waiting.
          return new Promise<number>((release) => (held = () => release(599)));
        };
      });
      const options = h.store.options as { url: string; schema: string };
      child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          fileURLToPath(new URL('./support/webhook-worker-child.ts', import.meta.url)),
          options.url,
          options.schema,
        ],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      await new Promise<void>((resolve, reject) => {
        child!.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
        child!.once('exit', (code) => reject(new Error(`child exited ${code}`)));
      });
      const eventId = await recordWebhookEvent(h.identity.webhooks.db, {
        type: 'user.updated',
        data: { object: 'user', id: 'user_crash' },
      });
      await arrived;
      const [claimed] = await h.db.query<{ attempts: number; locked_until: Date | null }>(
        'SELECT attempts, locked_until FROM webhook_deliveries WHERE event_id = $1',
        [eventId],
      );
      assert.equal(claimed!.attempts, 1);
      assert.ok(claimed!.locked_until, 'the child holds a lease');
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      child = null;
      // While the dead worker's lease runs, nobody else sends it.
      await h.identity.webhooks.worker.runOnce();
      assert.equal(receiver.received.length, 0);
      // Then it is taken again and delivered.
      const until = Date.now() + 15_000;
      while (!receiver.delivered.some((r) => r.id === eventId)) {
        assert.ok(Date.now() < until, 'delivered after the lease ran out');
        await new Promise((resolve) => setTimeout(resolve, 200));
        await h.identity.webhooks.worker.runOnce();
      }
      (held as (() => void) | null)?.();
      assert.equal(receiver.delivered.filter((r) => r.id === eventId).length, 1);
      const [delivery] = await h.db.query<{ status: string; attempts: number }>(
        'SELECT status, attempts FROM webhook_deliveries WHERE event_id = $1',
        [eventId],
      );
      assert.deepEqual(delivery, { status: 'delivered', attempts: 2 });
    });
  },
);
