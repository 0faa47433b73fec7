import type { Capability } from '../capability.ts';

/** Abuse limits: rate limits, attempt delays, lockout. */
export const abuseCapability: Capability = {
  name: 'abuse',
  retention: [
    // Rate-limit windows are at most a day long: a window that began two days ago counts for nothing.
    { table: 'rate_limits', expired: `window_start < $1::timestamptz - interval '2 days'` },
  ],
};
