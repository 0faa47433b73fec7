import type { Queryable } from '../db/database.ts';
import { purgeExpired } from './purge.ts';

export interface RetentionJob {
  /** Runs the purge now (after the one in progress, if any). */
  runOnce(): Promise<Record<string, number>>;
  /** Stops the schedule and waits for a purge in progress. */
  stop(): Promise<void>;
}

/**
 * Purges expired rows every `intervalSeconds` (0: never on its own). The timer does not keep the process
 * alive, and a run never overlaps the previous one; a failed run (the database away) waits for the next.
 */
export function startRetention(
  db: Queryable,
  clock: () => Date,
  intervalSeconds: number,
  onError: (err: Error) => void = () => {},
): RetentionJob {
  let running: Promise<Record<string, number>> | null = null;
  const runOnce = async (): Promise<Record<string, number>> => {
    while (running) await running.catch(() => {});
    running = purgeExpired(db, clock());
    try {
      return await running;
    } finally {
      running = null;
    }
  };
  const timer =
    intervalSeconds > 0
      ? setInterval(() => {
          if (!running) runOnce().catch((err: Error) => onError(err));
        }, intervalSeconds * 1000)
      : null;
  timer?.unref();
  return {
    runOnce,
    async stop() {
      if (timer) clearInterval(timer);
      await running?.catch(() => {});
    },
  };
}
