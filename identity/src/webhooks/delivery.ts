import { randomBytes } from 'node:crypto';
import type { Database } from '../db/database.ts';
import {
  claimDueDeliveries,
  claimEventsToFanOut,
  finishAttempt,
  insertDelivery,
  type ClaimedDelivery,
} from '../store/webhooks.ts';
import { signWebhook } from './signing.ts';
import type { WebhookTiming } from './timing-settings.ts';

/**
 * The delivery worker (docs/webhooks.md). It runs in every identity process and shares the work through
 * the database, so several instances neither send one delivery twice at once nor lose one:
 *
 * 1. fan-out: events not yet fanned out are claimed (`FOR UPDATE SKIP LOCKED`) and given one delivery per
 *    enabled endpoint subscribed to their type, in one transaction;
 * 2. delivery: due deliveries are claimed with a lease (`locked_until`, longer than a request may take)
 *    and a token; the POST happens outside any transaction; its outcome is written only by the holder of
 *    the token. A worker that dies mid-request leaves a lease that runs out; another then retries.
 *
 * A request that changes something only writes its event; the worker finds it on its next round (about a
 * second, or at once when this process made it), so a slow or dead endpoint never slows a request.
 */

/** An endpoint as the worker uses it; `secret` null when its environment variable is not set. */
export interface ResolvedEndpoint {
  id: string;
  url: string;
  /** Event types; every type when empty. */
  events: string[];
  enabled: boolean;
  secret: string | null;
}

export interface WorkerLog {
  warn(message: string): void;
}

/** How long a stopping worker lets its requests in flight finish before aborting them. */
const STOP_GRACE_MS = 2000;

/** Characters of an endpoint's answer kept in the attempt log. */
export const EXCERPT_CHARS = 500;

export function subscribes(endpoint: ResolvedEndpoint, type: string): boolean {
  return endpoint.enabled && (endpoint.events.length === 0 || endpoint.events.includes(type));
}

export class WebhookWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private again = false;
  private stopped = true;
  /** Aborts the requests in flight when the worker stops: a shutdown does not wait for a slow endpoint. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly db: Database,
    private readonly endpoints: () => ResolvedEndpoint[],
    private readonly timing: WebhookTiming,
    private readonly log: WorkerLog,
    /** Turns changes marked outside any transaction into events (emit.ts); run first each round. */
    private readonly beforeRound: () => Promise<unknown> = async () => {},
    private readonly now: () => Date = () => new Date(),
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), this.timing.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Runs a round soon (after the one in progress); cheap, and safe to call after every commit. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = null;
    });
  }

  /** Stops the schedule and waits for the round in progress (its requests end by their timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    // Requests in flight get a moment to finish (most answer in milliseconds); then they are aborted.
    const grace = new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref());
    await Promise.race([this.running?.catch(() => {}), grace]);
    this.stopping.abort();
    await this.running?.catch(() => {});
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      try {
        const { fannedOut, attempted } = await this.runOnce();
        // A full batch means more may wait: go on without waiting for the timer.
        if (attempted >= this.timing.batch || fannedOut > 0) this.again = true;
      } catch (err) {
        // The message only: it names a table or the connection, never a payload.
        this.log.warn(`identity: webhook delivery round failed, next try soon: ${(err as Error).message}`);
        return;
      }
    } while (this.again && !this.stopped);
  }

  /** One round: fan out new events, then attempt the due deliveries. */
  async runOnce(): Promise<{ fannedOut: number; attempted: number }> {
    await this.beforeRound();
    const fannedOut = await this.fanOut();
    const attempted = await this.deliverDue();
    return { fannedOut, attempted };
  }

  private async fanOut(): Promise<number> {
    const endpoints = this.endpoints();
    return this.db.transaction(async (tx) => {
      const now = this.now();
      const events = await claimEventsToFanOut(tx, now, 100);
      for (const event of events) {
        for (const endpoint of endpoints) {
          if (subscribes(endpoint, event.type)) await insertDelivery(tx, event.id, endpoint.id, now);
        }
      }
      return events.length;
    });
  }

  private async deliverDue(): Promise<number> {
    const now = this.now();
    const token = randomBytes(12).toString('hex');
    const claimed = await claimDueDeliveries(
      this.db,
      now,
      new Date(now.getTime() + this.timing.leaseMs),
      token,
      this.timing.batch,
    );
    await Promise.all(claimed.map((d) => this.attempt(d)));
    return claimed.length;
  }

  private async attempt(d: ClaimedDelivery): Promise<void> {
    const endpoint = this.endpoints().find((e) => e.id === d.endpoint_id);
    const startedAt = this.now();
    const started = performance.now();
    let statusCode: number | null = null;
    let excerpt: string | null = null;
    let error: string | null = null;
    if (!endpoint || !endpoint.enabled) {
      error = endpoint ? 'endpoint disabled' : 'endpoint no longer configured';
    } else if (!endpoint.secret) {
      error = 'signing secret not set (see the endpoint’s secret.env)';
    } else {
      try {
        const answer = await post(endpoint, d, this.timing.timeoutMs, this.stopping.signal);
        statusCode = answer.status;
        excerpt = answer.excerpt;
      } catch (err) {
        // Counted as a failed attempt and retried on schedule, by this process once restarted or another.
        error = this.stopping.signal.aborted ? 'interrupted: the worker stopped' : describeFailure(err);
      }
    }
    const latencyMs = Math.round(performance.now() - started);
    const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
    const delay = this.timing.retryDelaysMs[d.attempts - 1];
    const now = this.now();
    const next = ok
      ? ({ status: 'delivered' } as const)
      : delay === undefined || !endpoint
        ? ({ status: 'failed' } as const)
        : ({ status: 'pending', at: new Date(now.getTime() + delay) } as const);
    if (!ok && !error) error = `HTTP ${statusCode}`;
    try {
      await finishAttempt(
        this.db,
        { id: d.id, lockToken: d.lock_token, attempt: d.attempts },
        { startedAt, statusCode, latencyMs, excerpt, error: ok ? null : error, next, now },
      );
    } catch (err) {
      // The lease runs out and another round tries again: at worst the receiver sees the id twice,
      // which `svix-id` lets it recognise.
      this.log.warn(`identity: recording a webhook attempt failed: ${(err as Error).message}`);
    }
    if (next.status === 'failed') {
      this.log.warn(`identity: webhook ${d.id} to ${d.endpoint_id} failed after ${d.attempts} attempts`);
    }
  }
}

async function post(
  endpoint: ResolvedEndpoint,
  d: ClaimedDelivery,
  timeoutMs: number,
  stopping: AbortSignal,
): Promise<{ status: number; excerpt: string }> {
  const body = JSON.stringify(d.payload);
  // The signature's time is the sending time (receivers refuse one more than 5 minutes off), real time.
  const timestamp = Math.floor(Date.now() / 1000);
  const res = await fetch(endpoint.url, {
    method: 'POST',
    redirect: 'manual',
    signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), stopping]),
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Svix-Webhooks/1.0 (qoala identity)',
      'svix-id': d.event_id,
      'svix-timestamp': String(timestamp),
      'svix-signature': signWebhook(endpoint.secret!, d.event_id, timestamp, body),
    },
    body,
  });
  return { status: res.status, excerpt: await excerptOf(res) };
}

/** The start of an answer, read no further than needed. */
async function excerptOf(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < EXCERPT_CHARS) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // A body cut off is still an answer; its status counts.
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

function describeFailure(err: unknown): string {
  const e = err as Error & { cause?: { code?: string } };
  if (e.name === 'TimeoutError') return 'timeout';
  return e.cause?.code ? `connection failed: ${e.cause.code}` : `connection failed: ${e.message}`;
}
