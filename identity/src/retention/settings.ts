import { positiveInteger } from '../abuse/abuse-settings.ts';

export interface RetentionSettings {
  /** Seconds between two purges of expired rows; 0 switches the schedule off (`npm run identity -- purge` still works). */
  intervalSeconds: number;
}

export const DEFAULT_RETENTION: RetentionSettings = { intervalSeconds: 300 };

/** `IDENTITY_PURGE_INTERVAL_SECONDS` (default 300; 0 = no scheduled purge). */
export function retentionFromEnv(env: NodeJS.ProcessEnv): RetentionSettings {
  if (env.IDENTITY_PURGE_INTERVAL_SECONDS === '0') return { intervalSeconds: 0 };
  return {
    intervalSeconds: positiveInteger(
      env,
      'IDENTITY_PURGE_INTERVAL_SECONDS',
      DEFAULT_RETENTION.intervalSeconds,
      7 * 24 * 3600,
    ),
  };
}
