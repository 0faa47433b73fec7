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

/**
 * Progressive delays per account, before the lockout: after `freeAttempts` failures in a row, the next
 * attempt waits 1 s, then 2, 4, … up to `maxDelaySeconds`, whoever sends it. Reaching the lockout then takes
 * hours instead of seconds, however many addresses the guesses come from.
 */
export interface AttemptDelaySettings {
  freeAttempts: number;
  maxDelaySeconds: number;
}

/** Argon2 work at once in this process, and how many may wait (briefly) for a turn; beyond, 429. */
export interface PasswordHashingSettings {
  concurrency: number;
  maxWaiting: number;
  maxWaitMs: number;
}

/** Hosted Clerk's defaults for the lockout (100 attempts, one hour); the rate limits are our own. */
export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  signInPerIpPerMinute: 60,
  signInPerIdentifierPerMinute: 20,
  codeAttemptsPerIpPerMinute: 30,
};
export const DEFAULT_LOCKOUT: LockoutSettings = { maxFailedAttempts: 100, durationSeconds: 3600 };
// 5 free, then 1 s doubling to 10 min: the 100th failure comes after about 14 hours, not seconds.
export const DEFAULT_ATTEMPT_DELAY: AttemptDelaySettings = { freeAttempts: 5, maxDelaySeconds: 600 };

/**
 * Argon2 (@node-rs/argon2) runs on libuv's thread pool, which WebCrypto (token signing), zlib and file
 * reads share. Half the pool (2 of the default 4) leaves the rest to them however many sign-ins arrive.
 */
export function defaultHashConcurrency(env: NodeJS.ProcessEnv): number {
  const pool = Number(env.UV_THREADPOOL_SIZE);
  const threads = Number.isInteger(pool) && pool > 0 ? Math.min(pool, 1024) : 4;
  return Math.max(1, Math.floor(threads / 2));
}

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

/** `IDENTITY_LOCKOUT_FREE_ATTEMPTS` (default 5), `IDENTITY_LOCKOUT_MAX_DELAY_SECONDS` (default 600). */
export function attemptDelayFromEnv(env: NodeJS.ProcessEnv): AttemptDelaySettings {
  return {
    freeAttempts: positiveInteger(
      env,
      'IDENTITY_LOCKOUT_FREE_ATTEMPTS',
      DEFAULT_ATTEMPT_DELAY.freeAttempts,
      1_000_000,
    ),
    maxDelaySeconds: positiveInteger(
      env,
      'IDENTITY_LOCKOUT_MAX_DELAY_SECONDS',
      DEFAULT_ATTEMPT_DELAY.maxDelaySeconds,
      24 * 3600,
    ),
  };
}

/**
 * `IDENTITY_PASSWORD_HASH_CONCURRENCY` (default half of `UV_THREADPOOL_SIZE`, so 2),
 * `IDENTITY_PASSWORD_HASH_QUEUE` (waiting requests, default 8 per hash at once); a request waits 2 s at most.
 */
export function passwordHashingFromEnv(env: NodeJS.ProcessEnv): PasswordHashingSettings {
  const concurrency = positiveInteger(
    env,
    'IDENTITY_PASSWORD_HASH_CONCURRENCY',
    defaultHashConcurrency(env),
    1024,
  );
  return {
    concurrency,
    maxWaiting: positiveInteger(env, 'IDENTITY_PASSWORD_HASH_QUEUE', concurrency * 8, 100_000),
    maxWaitMs: 2000,
  };
}
