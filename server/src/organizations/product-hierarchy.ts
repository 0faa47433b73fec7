import type { Database } from '@app/identity';
import type { BackendApi } from '../api/backend-api.ts';
import { ApiError } from '../api/errors.ts';
import { adoptMetadataHierarchy } from './hierarchy-adoption.ts';
import {
  DEFAULT_OUTBOX_TIMING,
  MetadataOutbox,
  type OutboxLog,
  type OutboxTiming,
} from './metadata-outbox.ts';

/** How long a change waits for its projections to be written by another worker before answering. */
const AFTER_COMMIT_WAIT_MS = 2000;

/** How long a hierarchy request waits for the first start's adoption before answering 503. */
const READY_TIMEOUT_MS = 10_000;

/**
 * The product's hierarchy at run time: its database, the outbox worker, and the one-time adoption of a
 * hierarchy found in metadata (hierarchy-adoption.ts), which must finish before the first change.
 */
export class ProductHierarchy {
  readonly outbox: MetadataOutbox;
  private adoption: Promise<void> | null = null;
  private running = false;
  private wake: (() => void) | null = null;

  constructor(
    readonly db: Database,
    readonly organizations: () => BackendApi['organizations'],
    private readonly log: OutboxLog,
    private readonly timing: OutboxTiming = DEFAULT_OUTBOX_TIMING,
  ) {
    this.outbox = new MetadataOutbox(db, organizations, log, timing);
  }

  /** Adopts (retrying until the Backend API answers), then runs the outbox worker. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.adoption = this.adopt();
    void this.adoption.then(() => {
      if (this.running) this.outbox.start();
    });
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.adoption?.catch(() => undefined);
    await this.outbox.stop();
  }

  /** Resolves once the hierarchy may be read and changed; 503 while the adoption cannot finish. */
  async ready(): Promise<void> {
    if (!this.adoption) throw new ApiError('service_unavailable');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ApiError('service_unavailable')), READY_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.adoption, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * After a committed change: writes its organisations' projections now, so the caller's next read of
   * metadata shows the change, and leaves any failure to the worker's retries.
   */
  async afterCommit(organizationIds: readonly string[]): Promise<void> {
    const until = Date.now() + AFTER_COMMIT_WAIT_MS;
    try {
      for (;;) {
        await this.outbox.drainOnce(organizationIds);
        // A row another worker is writing right now (claimed, never failed) is worth a short wait; a
        // failing one is left to the retries.
        const waiting = (await this.outbox.pending()).filter(
          (row) => organizationIds.includes(row.organizationId) && row.attempts === 0,
        );
        if (!waiting.length || Date.now() > until) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    } catch (error) {
      this.log.warn({ err: error }, 'metadata outbox: immediate projection failed; the worker retries');
    }
    this.outbox.kick();
  }

  private async adopt(): Promise<void> {
    for (let attempt = 0; this.running; attempt += 1) {
      try {
        const report = await adoptMetadataHierarchy(this.db, this.organizations());
        for (const refused of report.refused) {
          this.log.warn(
            refused,
            'vCISO hierarchy adoption: a link found in metadata breaks the rules; left out',
          );
        }
        return;
      } catch (error) {
        const delay = Math.min(this.timing.baseDelayMs * 2 ** attempt, this.timing.maxDelayMs);
        this.log.warn(
          { reason: error instanceof Error ? error.message : String(error), retryInMs: delay },
          'vCISO hierarchy adoption from metadata failed; will retry',
        );
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
  }
}
