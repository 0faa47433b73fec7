import { hash, verify } from '@node-rs/argon2';
import { passwordHashingFromEnv, type PasswordHashingSettings } from '../abuse/abuse-settings.ts';
import { ClerkError, errors } from '../errors.ts';
import { isImportedDigest, verifyImportedDigest } from './imported-passwords.ts';
import { WorkLimiter, WorkLimiterBusyError } from './work-limiter.ts';

// OWASP's argon2id baseline (19 MiB, 2 passes); fast enough for sign-in, slow enough for stolen hashes.
const OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * Still argon2id, at a cost that guards nothing (64 KiB, 1 pass): for the tests that sign up and sign in
 * hundreds of times without being about hashing. Two conditions, both set only by the test tooling:
 * NODE_ENV=test (scripts/run-tests.mjs) and IDENTITY_TEST_PASSWORD_HASH_COST=low (the identity test
 * harness, the e2e server). A server started any other way hashes at OPTIONS whatever the variable says.
 * Checks read the cost from the stored hash, so either kind verifies under either setting.
 */
const TEST_LOW_COST = { algorithm: 2 /* Argon2id */, memoryCost: 64, timeCost: 1, parallelism: 1 } as const;

/** The argon2id parameters of a new hash: OPTIONS, unless the test tooling asked for the low cost. */
export function passwordHashOptions(
  env: NodeJS.ProcessEnv = process.env,
): typeof OPTIONS | typeof TEST_LOW_COST {
  return env.NODE_ENV === 'test' && env.IDENTITY_TEST_PASSWORD_HASH_COST === 'low' ? TEST_LOW_COST : OPTIONS;
}

/**
 * Every argon2 hash and check of this process goes through here. It runs on libuv's thread pool, shared
 * with token signing: unbounded, a flood of sign-ins (each within its rate limits) would queue behind it
 * everything else the process does. One per process, as the pool is.
 */
export const passwordHashLimiter = new WorkLimiter(passwordHashingFromEnv(process.env));

export function configurePasswordHashing(settings: PasswordHashingSettings): void {
  passwordHashLimiter.configure(settings);
}

/** Argon2 work in turn; a full queue is `429 too_many_requests` (Retry-After: 1), before anything is written. */
async function limited<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await passwordHashLimiter.run(work);
  } catch (err) {
    if (err instanceof WorkLimiterBusyError) throw errors.tooManyRequests(1);
    throw err;
  }
}

/** The refusal of a full queue: work done before a transaction lets it through rather than retrying inside. */
export function isPasswordHashingBusy(err: unknown): boolean {
  return err instanceof ClerkError && err.code === 'too_many_requests';
}

/**
 * Whether a right password should replace the stored hash with our argon2id: anything else than argon2id
 * at the parameters we hash with now (an imported argon2id made cheaper than ours is replaced too).
 */
export function needsRehash(stored: string | null): boolean {
  if (stored === null) return false;
  const { memoryCost, timeCost, parallelism } = passwordHashOptions();
  return !stored.startsWith(`$argon2id$v=19$m=${memoryCost},t=${timeCost},p=${parallelism}$`);
}

export function hashPassword(password: string): Promise<string> {
  return limited(() => hash(password, passwordHashOptions()));
}

/**
 * Argon2 could not check a password at all (a stored hash it cannot decode, an internal failure): a fault
 * of ours, answered as a server error and never counted as a wrong password, which would lock the user out
 * for something they did not do. Its message names neither the password nor the hash.
 */
export class PasswordCheckError extends Error {
  constructor(reason: string) {
    super(`argon2 could not check a password: ${reason}`);
    this.name = 'PasswordCheckError';
  }
}

/** True when `password` matches (argon2, or an imported digest's scheme); false only for a mismatch; a `PasswordCheckError` when argon2 fails. */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    // Spend the same time as a real check so unknown accounts cannot be told apart by timing.
    await limited(() => hash(password, passwordHashOptions()));
    return false;
  }
  return limited(async () => {
    try {
      // A digest imported from another system (Backend API `password_digest`), in its own scheme.
      if (isImportedDigest(passwordHash)) return await verifyImportedDigest(passwordHash, password);
      return await verify(passwordHash, password);
    } catch (err) {
      // Only argon2's own code and message (e.g. `InvalidArg: Decoding failed`), which carry no input.
      const { code, message } = err as { code?: unknown; message?: unknown };
      throw new PasswordCheckError(`${String(code ?? 'error')}: ${String(message ?? '')}`);
    }
  });
}
