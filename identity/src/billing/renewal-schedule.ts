import { randomBytes } from 'node:crypto';
import type { IdentityDeps } from '../deps.ts';
import { runDueBillingWork } from './renewals.ts';

export interface BillingSchedule {
  /** One round now (after the one in progress); answers how many items it handled. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Runs the renewal schedule every `intervalMs` with jitter (several processes spread out; the leases keep
 * them off each other's items anyway). Does nothing while billing is off. The timer does not keep the
 * process alive; a round never overlaps the previous one.
 */
export function startBillingSchedule(deps: IdentityDeps, intervalMs = 60_000): BillingSchedule {
  const owner = `worker_${randomBytes(6).toString('hex')}`;
  let running: Promise<number> | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const runOnce = async (): Promise<number> => {
    while (running) await running.catch(() => 0);
    if (!deps.billing.catalogue()) return 0;
    running = runDueBillingWork(deps, deps.clock(), { owner });
    try {
      return await running;
    } finally {
      running = null;
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(
      () => {
        runOnce()
          .catch((err: Error) =>
            console.warn(`identity: billing renewals failed, next try soon: ${err.message}`),
          )
          .finally(schedule);
      },
      intervalMs * (0.75 + Math.random() * 0.5),
    );
    timer.unref();
  };
  schedule();
  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => 0);
    },
  };
}
