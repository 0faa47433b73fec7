export interface WebhookTiming {
  /** How often the worker looks for work when nothing woke it. */
  pollMs: number;
  /** How long one POST may take. */
  timeoutMs: number;
  /** How long a claim holds: longer than `timeoutMs`, so a live worker always finishes inside it. */
  leaseMs: number;
  /** The waits after each failed attempt; a failure after the last one marks the delivery failed. */
  retryDelaysMs: number[];
  /** Deliveries attempted at once per round. */
  batch: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Svix's schedule: 8 attempts over about 28 hours. */
export const DEFAULT_WEBHOOK_TIMING: WebhookTiming = {
  pollMs: SECOND,
  timeoutMs: 15 * SECOND,
  leaseMs: 60 * SECOND,
  retryDelaysMs: [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR],
  batch: 20,
};

/**
 * `IDENTITY_WEBHOOK_RETRY_DELAYS`: the waits after each failed attempt, in seconds, comma-separated
 * (default Svix's `5,300,1800,7200,18000,36000,36000`); `IDENTITY_WEBHOOK_TIMEOUT_SECONDS` (15) and
 * `IDENTITY_WEBHOOK_POLL_MS` (1000). Tests shorten the schedule here rather than faking time.
 */
export function webhookTimingFromEnv(env: NodeJS.ProcessEnv): WebhookTiming {
  const timing = { ...DEFAULT_WEBHOOK_TIMING };
  if (env.IDENTITY_WEBHOOK_RETRY_DELAYS) {
    const delays = env.IDENTITY_WEBHOOK_RETRY_DELAYS.split(',').map((s) => Number(s.trim()));
    if (delays.length > 20 || delays.some((d) => !Number.isFinite(d) || d < 0 || d > 7 * 24 * 3600)) {
      throw new Error(
        'IDENTITY_WEBHOOK_RETRY_DELAYS must be up to 20 comma-separated waits in seconds (0 to 604800).',
      );
    }
    timing.retryDelaysMs = delays.map((d) => Math.round(d * 1000));
  }
  if (env.IDENTITY_WEBHOOK_TIMEOUT_SECONDS) {
    const t = Number(env.IDENTITY_WEBHOOK_TIMEOUT_SECONDS);
    if (!Number.isFinite(t) || t <= 0 || t > 300) {
      throw new Error('IDENTITY_WEBHOOK_TIMEOUT_SECONDS must be a number of seconds from 0 to 300.');
    }
    timing.timeoutMs = Math.round(t * 1000);
    timing.leaseMs = Math.max(timing.leaseMs, timing.timeoutMs * 2);
  }
  if (env.IDENTITY_WEBHOOK_POLL_MS) {
    const p = Number(env.IDENTITY_WEBHOOK_POLL_MS);
    if (!Number.isInteger(p) || p < 10 || p > 600_000) {
      throw new Error('IDENTITY_WEBHOOK_POLL_MS must be a whole number of milliseconds from 10 to 600000.');
    }
    timing.pollMs = p;
  }
  return timing;
}
