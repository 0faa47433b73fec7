import type { AttemptDelaySettings } from './abuse-settings.ts';

/**
 * Seconds the next password or code attempt on an account must wait: none for the first `freeAttempts`
 * failures in a row, then 1 s doubling with each failure up to `maxDelaySeconds`, counted from the last one.
 */
export function attemptDelaySeconds(
  failures: number,
  lastFailedAt: Date | null,
  settings: AttemptDelaySettings,
  now: Date,
): number {
  if (!lastFailedAt || failures < settings.freeAttempts) return 0;
  const delay = Math.min(settings.maxDelaySeconds, 2 ** Math.min(failures - settings.freeAttempts, 30));
  return Math.max(0, Math.ceil((lastFailedAt.getTime() + delay * 1000 - now.getTime()) / 1000));
}
