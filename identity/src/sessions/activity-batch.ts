import type { Database } from '../db/database.ts';
import {
  advanceUsersLastActive,
  recordSessionActivities,
  type SessionRequest,
} from '../store/session-activities.ts';
import { advanceSessionsLastActive, lockSessionsWithoutWaiting } from '../store/sessions.ts';

/** A session in use: a token was minted for it at `at`, from `request`. */
export interface SessionUse {
  sessionId: string;
  userId: string;
  at: Date;
  request: SessionRequest;
}

export interface ActivityBatchOptions {
  /** How often what was recorded is written; a crash loses at most this much activity. */
  intervalMs: number;
  /** Written at once when this many sessions wait, so memory stays bounded. */
  maxPending: number;
  /** A failed write (the database away): its activity waits for the next one. */
  onError?: (err: Error) => void;
}

export const ACTIVITY_BATCH_DEFAULTS: ActivityBatchOptions = { intervalMs: 5_000, maxPending: 10_000 };

/**
 * Activity timestamps kept in memory and written in bulk: a session's and its user's `last_active_at` and
 * the session's device and IP (Active devices). Token minting, the hot path, writes nothing itself: it
 * records here, and one transaction every `intervalMs` writes what this process saw, the latest use of
 * each session. Only timestamps and where a session is used from wait here, nothing a check depends on:
 * a session ended, revoked or expired is refused by the next request whatever waits (requests read the
 * session itself). A crash loses at most one interval of activity; `stop()` writes what waits.
 */
export class SessionActivityBatch {
  private pending = new Map<string, SessionUse>();
  private writing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Database,
    private readonly options: ActivityBatchOptions = ACTIVITY_BATCH_DEFAULTS,
  ) {}

  /** Starts the periodic writes (the timer does not keep the process alive). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.pending.size) this.flush().catch(() => {});
    }, this.options.intervalMs);
    this.timer.unref();
  }

  record(use: SessionUse): void {
    const waiting = this.pending.get(use.sessionId);
    if (waiting && waiting.at > use.at) return;
    this.pending.set(use.sessionId, use);
    if (this.pending.size >= this.options.maxPending) this.flush().catch(() => {});
  }

  /**
   * The session's latest use not yet written, if any: a check that reads `last_active_at` (an inactivity
   * timeout) must take the later of this and the stored value.
   */
  pendingLastActiveAt(sessionId: string): Date | null {
    return this.pending.get(sessionId)?.at ?? null;
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /** Writes what waits now, after a write in progress; rejects when the write failed (it is kept for the next). */
  flush(): Promise<void> {
    const run = this.writing.then(() => this.writeOnce());
    this.writing = run.catch(() => {});
    return run;
  }

  /** Stops the timer and writes what waits. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush().catch(() => {});
  }

  private async writeOnce(): Promise<void> {
    if (!this.pending.size) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    let again: SessionUse[];
    try {
      again = await this.db.transaction(async (tx) => {
        const { exists, locked } = await lockSessionsWithoutWaiting(
          tx,
          batch.map((u) => u.sessionId),
        );
        const now = batch.filter((u) => locked.has(u.sessionId));
        await advanceSessionsLastActive(tx, now);
        await recordSessionActivities(tx, now);
        const busyUsers = new Set(await advanceUsersLastActive(tx, now));
        // Sessions gone meanwhile are dropped; rows another transaction held are written next time.
        return batch.filter(
          (u) => (exists.has(u.sessionId) && !locked.has(u.sessionId)) || busyUsers.has(u.userId),
        );
      });
    } catch (err) {
      this.requeue(batch);
      this.options.onError?.(err as Error);
      throw err;
    }
    this.requeue(again);
  }

  /** Puts uses back, unless a later use of the same session was recorded meanwhile. */
  private requeue(uses: SessionUse[]): void {
    for (const use of uses) {
      const newer = this.pending.get(use.sessionId);
      if (!newer || newer.at < use.at) this.pending.set(use.sessionId, use);
    }
  }
}
