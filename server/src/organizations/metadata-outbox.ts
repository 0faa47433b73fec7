import { randomBytes } from 'node:crypto';
import type { Database, Queryable } from '@app/identity';
import type { BackendApi } from '../api/backend-api.ts';
import { projectionOf } from './metadata-projection.ts';

/**
 * The durable outbox of metadata projections. A hierarchy change queues its organisations in its own
 * transaction (enqueueProjection); a worker then writes each one's hierarchy fields through the Backend API,
 * recomputed from the relational state at that moment, and retries with a growing delay until the Backend
 * API accepts. Because each write is the whole current state, writing twice or late is harmless.
 */

/** Queues the projection of `organizationIds`; call inside the transaction that changed them. */
export async function enqueueProjection(tx: Queryable, organizationIds: readonly string[]): Promise<void> {
  await tx.query(
    `INSERT INTO metadata_outbox (organization_id)
       SELECT DISTINCT unnest($1::text[])
     ON CONFLICT (organization_id) DO UPDATE
       SET version = metadata_outbox.version + 1, attempts = 0, next_attempt_at = now(), last_error = NULL,
           enqueued_at = now()`,
    [organizationIds],
  );
}

/** Where failed projections are reported (Fastify's logger fits). No token or secret is ever passed. */
export interface OutboxLog {
  warn(details: object, message: string): void;
}

export interface OutboxTiming {
  /** The first retry's delay; each further one doubles it, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** How often an idle worker looks for rows queued by other processes or left by a dead one. */
  pollMs: number;
  /** How long a claim lasts: a worker that dies mid-write frees its rows after this. */
  leaseMs: number;
}

export const DEFAULT_OUTBOX_TIMING: OutboxTiming = {
  baseDelayMs: 1000,
  maxDelayMs: 5 * 60 * 1000,
  pollMs: 5000,
  leaseMs: 60 * 1000,
};

export interface DrainResult {
  written: number;
  failed: number;
}

interface Claimed {
  organization_id: string;
  version: string;
  attempts: number;
}

export class MetadataOutbox {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private draining: Promise<DrainResult> | null = null;
  private readonly token = randomBytes(12).toString('hex');

  constructor(
    private readonly db: Database,
    private readonly organizations: () => BackendApi['organizations'],
    private readonly log: OutboxLog,
    private readonly timing: OutboxTiming = DEFAULT_OUTBOX_TIMING,
  ) {}

  /** Starts the background worker. */
  start(): void {
    this.running = true;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.draining?.catch(() => undefined);
  }

  /** Asks the background worker to look now (after a commit in this process). */
  kick(): void {
    if (this.running) this.schedule(0);
  }

  /**
   * Writes the due projections once — only `only`'s when given — and answers how it went. Failures are
   * scheduled for a retry, never thrown: the outbox row stays until a write succeeds.
   */
  async drainOnce(only?: readonly string[]): Promise<DrainResult> {
    const claimed = await this.claim(only);
    const result: DrainResult = { written: 0, failed: 0 };
    for (const row of claimed) {
      if (await this.project(row)) result.written += 1;
      else result.failed += 1;
    }
    return result;
  }

  /** Rows still queued (due or not), for the CLI and tests. */
  async pending(): Promise<{ organizationId: string; attempts: number; lastError: string | null }[]> {
    const rows = await this.db.query<{
      organization_id: string;
      attempts: number;
      last_error: string | null;
    }>('SELECT organization_id, attempts, last_error FROM metadata_outbox ORDER BY organization_id');
    return rows.map((r) => ({
      organizationId: r.organization_id,
      attempts: r.attempts,
      lastError: r.last_error,
    }));
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.timer = null;
    if (!this.running) return;
    if (this.draining) return this.schedule(this.timing.pollMs);
    this.draining = this.drainOnce().catch((error: unknown) => {
      // The product database itself is away: try again later.
      this.log.warn({ err: error }, 'metadata outbox: could not read the queue');
      return { written: 0, failed: 1 };
    });
    try {
      await this.draining;
    } finally {
      this.draining = null;
    }
    if (this.running) this.schedule(await this.nextDelay());
  }

  /** Until the next row is due, at most pollMs. */
  private async nextDelay(): Promise<number> {
    try {
      const [row] = await this.db.query<{ ms: number | null }>(
        `SELECT (extract(epoch FROM min(greatest(next_attempt_at, coalesce(lease_until, next_attempt_at))) - now()) * 1000)::float8 AS ms
           FROM metadata_outbox`,
      );
      const ms = row?.ms;
      return ms === null || ms === undefined
        ? this.timing.pollMs
        : Math.min(Math.max(ms, 0), this.timing.pollMs);
    } catch {
      return this.timing.pollMs;
    }
  }

  private async claim(only?: readonly string[]): Promise<Claimed[]> {
    return this.db.transaction((tx) =>
      tx.query<Claimed>(
        `UPDATE metadata_outbox o SET lease_until = now() + make_interval(secs => $1::float8 / 1000), lease_token = $2
          WHERE o.organization_id IN (
            SELECT organization_id FROM metadata_outbox
             WHERE next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())
               AND ($3::text[] IS NULL OR organization_id = ANY($3::text[]))
             ORDER BY next_attempt_at LIMIT 50
             FOR UPDATE SKIP LOCKED)
          RETURNING o.organization_id, o.version::text AS version, o.attempts`,
        [this.timing.leaseMs, this.token, only ? [...only] : null],
      ),
    );
  }

  /** Writes one organisation's projection; true when done (written, or the organisation is gone). */
  private async project(row: Claimed): Promise<boolean> {
    const organizationId = row.organization_id;
    try {
      const projection = await projectionOf(this.db, organizationId);
      try {
        await this.organizations().updateOrganizationMetadata(organizationId, {
          publicMetadata: { ...projection },
        });
      } catch (error) {
        // An organisation deleted since has no metadata left to correct.
        if ((error as { status?: unknown }).status !== 404) throw error;
      }
      const done = await this.db.query(
        'DELETE FROM metadata_outbox WHERE organization_id = $1 AND version = $2::bigint RETURNING 1',
        [organizationId, row.version],
      );
      // Queued again meanwhile: free it at once, so the newer state is written next.
      if (!done.length) await this.release(organizationId);
      return true;
    } catch (error) {
      const delay = Math.min(this.timing.baseDelayMs * 2 ** row.attempts, this.timing.maxDelayMs);
      const message = error instanceof Error ? error.message.slice(0, 500) : 'unknown error';
      this.log.warn(
        { organizationId, attempts: row.attempts + 1, retryInMs: delay, reason: message },
        'metadata outbox: writing the projected metadata failed; will retry',
      );
      await this.db
        .query(
          `UPDATE metadata_outbox SET attempts = attempts + 1, last_error = $3,
                  next_attempt_at = now() + make_interval(secs => $4::float8 / 1000),
                  lease_until = NULL, lease_token = NULL
            WHERE organization_id = $1 AND lease_token = $2`,
          [organizationId, this.token, message, delay],
        )
        .catch(() => undefined);
      return false;
    }
  }

  private async release(organizationId: string): Promise<void> {
    await this.db.query(
      'UPDATE metadata_outbox SET lease_until = NULL, lease_token = NULL WHERE organization_id = $1 AND lease_token = $2',
      [organizationId, this.token],
    );
  }
}
