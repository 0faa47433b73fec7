/** Fixed-window limits per minute, counted in the database (shared by every instance). */
export interface RateLimitSettings {
  /** `POST /client/sign_ins` from one IP address. */
  signInPerIpPerMinute: number;
  /** `POST /client/sign_ins` naming one identifier, from anywhere. */
  signInPerIdentifierPerMinute: number;
  /** Passwords and codes tried from one IP address (sign-in, sign-up, profile, re-verification). */
  codeAttemptsPerIpPerMinute: number;
}

/** Clerk's user lockout: after this many failed passwords or codes in a row, the account is locked. */
export interface LockoutSettings {
  maxFailedAttempts: number;
  durationSeconds: number;
}

/** Hosted Clerk's defaults for the lockout (100 attempts, one hour); the rate limits are our own. */
export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  signInPerIpPerMinute: 60,
  signInPerIdentifierPerMinute: 20,
  codeAttemptsPerIpPerMinute: 30,
};
export const DEFAULT_LOCKOUT: LockoutSettings = { maxFailedAttempts: 100, durationSeconds: 3600 };

export function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new Error(`${name} must be a whole number from 1 to ${max}.`);
  }
  return value;
}

/**
 * `IDENTITY_RATE_LIMIT_SIGN_IN_PER_IP`, `IDENTITY_RATE_LIMIT_SIGN_IN_PER_IDENTIFIER`,
 * `IDENTITY_RATE_LIMIT_CODE_ATTEMPTS_PER_IP` (requests a minute).
 */
export function rateLimitsFromEnv(env: NodeJS.ProcessEnv): RateLimitSettings {
  const max = 100_000;
  return {
    signInPerIpPerMinute: positiveInteger(
      env,
      'IDENTITY_RATE_LIMIT_SIGN_IN_PER_IP',
      DEFAULT_RATE_LIMITS.signInPerIpPerMinute,
      max,
    ),
    signInPerIdentifierPerMinute: positiveInteger(
      env,
      'IDENTITY_RATE_LIMIT_SIGN_IN_PER_IDENTIFIER',
      DEFAULT_RATE_LIMITS.signInPerIdentifierPerMinute,
      max,
    ),
    codeAttemptsPerIpPerMinute: positiveInteger(
      env,
      'IDENTITY_RATE_LIMIT_CODE_ATTEMPTS_PER_IP',
      DEFAULT_RATE_LIMITS.codeAttemptsPerIpPerMinute,
      max,
    ),
  };
}

/** `IDENTITY_LOCKOUT_MAX_ATTEMPTS` (default 100), `IDENTITY_LOCKOUT_DURATION_SECONDS` (default 3600). */
export function lockoutFromEnv(env: NodeJS.ProcessEnv): LockoutSettings {
  return {
    maxFailedAttempts: positiveInteger(
      env,
      'IDENTITY_LOCKOUT_MAX_ATTEMPTS',
      DEFAULT_LOCKOUT.maxFailedAttempts,
      1_000_000,
    ),
    durationSeconds: positiveInteger(
      env,
      'IDENTITY_LOCKOUT_DURATION_SECONDS',
      DEFAULT_LOCKOUT.durationSeconds,
      365 * 24 * 3600,
    ),
  };
}
