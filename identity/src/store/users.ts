import type { Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';
import type { EmailAddressRow, UserRow } from './rows.ts';
import { hitStatement, waitAfterHit, type RateLimitRule } from './rate-limits.ts';
import { countBrowserFailure } from './known-browsers.ts';

export async function findUserById(db: Queryable, id: string): Promise<UserRow | null> {
  const [row] = await db.query<UserRow>('SELECT * FROM users WHERE id = $1', [id]);
  return row ?? null;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const [row] = await db.query<UserRow>(
    `SELECT u.* FROM users u JOIN email_addresses e ON e.user_id = u.id
     WHERE lower(e.email_address) = lower($1) AND e.verified_at IS NOT NULL`,
    [email],
  );
  return row ?? null;
}

/**
 * The condition on `users u` of the account that signs in with `identifier` ($1): a verified email address,
 * a phone number (E.164) that is not only a second factor, or else a username.
 */
export function signInIdentifierCondition(identifier: string): string {
  if (identifier.includes('@')) {
    return `u.id IN (SELECT e.user_id FROM email_addresses e
                     WHERE lower(e.email_address) = lower($1) AND e.verified_at IS NOT NULL)`;
  }
  if (identifier.startsWith('+')) {
    return `u.id IN (SELECT p.user_id FROM phone_numbers p WHERE p.phone_number = $1
                     AND p.verified_at IS NOT NULL AND NOT p.reserved_for_second_factor)`;
  }
  // A web3 wallet's address (0x and 40 hex digits); a username may look like one too.
  if (/^0x[0-9a-f]{40}$/i.test(identifier)) {
    return `(lower(u.username) = lower($1) OR u.id IN (SELECT w.user_id FROM web3_wallets w
             WHERE lower(w.web3_wallet) = lower($1) AND w.verified_at IS NOT NULL))`;
  }
  return 'lower(u.username) = lower($1)';
}

/** The account that signs in with `identifier` (signInIdentifierCondition), or null. */
export async function findUserByIdentifier(db: Queryable, identifier: string): Promise<UserRow | null> {
  const [row] = await db.query<UserRow>(
    `SELECT * FROM users u WHERE ${signInIdentifierCondition(identifier)}`,
    [identifier],
  );
  return row ?? null;
}

/**
 * Before a sign-in's transaction, in one statement: the attempt counted against its address's limit
 * (`counted`: the seconds to wait, 0 within it), the account of `identifier` (null: none), and whether the
 * identifier's rate limit (`limit`) is already full.
 */
export async function signInCandidate(
  db: Queryable,
  identifier: string,
  rules: { counted: RateLimitRule; limit: RateLimitRule },
  now: Date,
): Promise<{ wait: number; user: UserRow | null; limitReached: boolean }> {
  const { counted, limit } = rules;
  const [row] = await db.query<UserRow & { limit_reached: boolean; c_count: number; c_window_start: Date }>(
    `WITH counted AS (${hitStatement('$6', '$3', '$7')})
     SELECT u.*, counted.count AS c_count, counted.window_start AS c_window_start,
            EXISTS (SELECT 1 FROM rate_limits r WHERE r.key = $2 AND r.count >= $5
                    AND r.window_start > $3::timestamptz - make_interval(secs => $4)) AS limit_reached
     FROM counted
     LEFT JOIN LATERAL (SELECT * FROM users u WHERE ${signInIdentifierCondition(identifier)}) u ON true`,
    [identifier, limit.key, now, limit.windowSeconds, limit.limit, counted.key, counted.windowSeconds],
  );
  const { limit_reached, c_count, c_window_start, ...user } = row!;
  return {
    wait: waitAfterHit({ count: c_count, window_start: c_window_start }, counted, now),
    user: user.id ? user : null,
    limitReached: limit_reached,
  };
}

/** Whether an account owns the address: only a verified address is owned (see 005_user_profile.sql). */
export async function emailAddressTaken(db: Queryable, email: string): Promise<boolean> {
  const rows = await db.query(
    'SELECT 1 FROM email_addresses WHERE lower(email_address) = lower($1) AND verified_at IS NOT NULL',
    [email],
  );
  return rows.length > 0;
}

/** Once an address is verified by one account, unverified copies of it on other accounts go. */
export async function dropUnverifiedCopies(db: Queryable, email: string, ownerId: string): Promise<void> {
  await db.query(
    `DELETE FROM email_addresses
     WHERE lower(email_address) = lower($1) AND user_id <> $2 AND verified_at IS NULL`,
    [email, ownerId],
  );
}

export async function emailAddressesOf(
  db: Queryable,
  userIds: string[],
): Promise<Map<string, EmailAddressRow[]>> {
  const map = new Map<string, EmailAddressRow[]>();
  if (userIds.length === 0) return map;
  const rows = await db.query<EmailAddressRow>(
    'SELECT * FROM email_addresses WHERE user_id = ANY($1) ORDER BY created_at',
    [userIds],
  );
  for (const row of rows) map.set(row.user_id, [...(map.get(row.user_id) ?? []), row]);
  return map;
}

export interface NewUser {
  email: string;
  username: string | null;
  passwordHash: string | null;
  firstName: string | null;
  lastName: string | null;
  unsafeMetadata: Record<string, unknown>;
  legalAcceptedAt: Date | null;
  /** How the address was verified, as its JSON says (`from_oauth_google`, …); `email_code` if not said. */
  emailVerificationStrategy?: string;
  /** The operator's id for the person, given to the sign-up through the Backend API. */
  externalId?: string | null;
  now: Date;
}

export async function createUserWithVerifiedEmail(db: Queryable, input: NewUser): Promise<UserRow> {
  const userId = newId('user');
  const emailId = newId('idn');
  const [user] = await db.query<UserRow>(
    `INSERT INTO users (id, first_name, last_name, password_hash, password_updated_at, primary_email_address_id,
                        unsafe_metadata, legal_accepted_at, username, external_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, CASE WHEN $4::text IS NULL THEN NULL ELSE $7::timestamptz END, $5, $6, $8, $9, $10, $7, $7)
     RETURNING *`,
    [
      userId,
      input.firstName,
      input.lastName,
      input.passwordHash,
      emailId,
      JSON.stringify(input.unsafeMetadata),
      input.now,
      input.legalAcceptedAt,
      input.username,
      input.externalId ?? null,
    ],
  );
  await dropUnverifiedCopies(db, input.email, userId);
  await db.query(
    `INSERT INTO email_addresses (id, user_id, email_address, verified_at, verification_strategy, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $4, $4)`,
    [emailId, userId, input.email, input.now, input.emailVerificationStrategy ?? 'email_code'],
  );
  return user!;
}

/**
 * The account's lockout columns are still as `state` has them (parameters $n to $n+3, all null for no
 * condition: `lockoutParams`). Compared on the row's own columns, so that PostgreSQL compares them again on
 * the row as a concurrent writer left it once that writer commits (an UPDATE waits, then checks its WHERE
 * again). Timestamps to the millisecond: what a JavaScript Date holds, and every writer writes one.
 */
function lockoutUnchanged(n: number): string {
  return `($${n}::integer IS NULL OR (failed_verification_attempts = $${n}::integer
    AND date_trunc('milliseconds', last_failed_verification_at) IS NOT DISTINCT FROM $${n + 1}::timestamptz
    AND date_trunc('milliseconds', locked_until) IS NOT DISTINCT FROM $${n + 2}::timestamptz
    AND locked_by_failures = $${n + 3}::boolean))`;
}

function lockoutParams(state: LockoutState | undefined): unknown[] {
  if (!state) return [null, null, null, null];
  return [
    state.failed_verification_attempts,
    state.last_failed_verification_at,
    state.locked_until,
    state.locked_by_failures,
  ];
}

/**
 * A lock or a delay raised by failed attempts is running (SQL on the row's own columns: $2 now, $3 free
 * attempts, $4 the longest delay in seconds; the formula of abuse/attempt-delay.ts).
 */
const UNDER_ATTACK = `(locked_until > $2
  OR (failed_verification_attempts >= $3 AND last_failed_verification_at
      + make_interval(secs => LEAST($4::double precision, power(2, LEAST(failed_verification_attempts - $3, 30)))) > $2))`;

/**
 * A session opened for the user on this browser: the browser becomes known to the account (see
 * abuse/attempt-gate.ts) and its own failures are forgiven. The account's failures start again from zero,
 * unless a lock or a delay raised by failed attempts is running: then a known browser got through it, and
 * the attack it let the owner past goes on where it was. With `lockout` (the state a password or code
 * attempt was decided on) nothing is written unless the account is still in that state: null then.
 * Answers the account's columns it wrote.
 */
export async function recordSignIn(
  db: Queryable,
  userId: string,
  now: Date,
  opts: {
    clientId: string;
    attemptDelay: { freeAttempts: number; maxDelaySeconds: number };
    lockout?: LockoutState;
  },
): Promise<SignInColumns | null> {
  const delay = opts.attemptDelay;
  // The account and this browser, now known to it (its failures start over), in one statement. The SET
  // expressions read the row as updated last, not as this transaction's snapshot saw it.
  const [row] = await db.query<SignInColumns>(
    `WITH account AS (
       UPDATE users SET last_sign_in_at = $2, last_active_at = $2,
         failed_verification_attempts = CASE WHEN ${UNDER_ATTACK} THEN failed_verification_attempts ELSE 0 END,
         locked_until = CASE WHEN ${UNDER_ATTACK} THEN locked_until ELSE NULL END
       WHERE id = $1 AND ${lockoutUnchanged(6)}
       RETURNING id, last_sign_in_at, last_active_at, failed_verification_attempts, locked_until),
     browser AS (
       INSERT INTO known_browsers (user_id, client_id, failed_attempts, created_at, updated_at)
       SELECT id, $5, 0, $2, $2 FROM account
       ON CONFLICT (user_id, client_id) DO UPDATE SET failed_attempts = 0, updated_at = $2)
     SELECT last_sign_in_at, last_active_at, failed_verification_attempts, locked_until FROM account`,
    [userId, now, delay.freeAttempts, delay.maxDelaySeconds, opts.clientId, ...lockoutParams(opts.lockout)],
  );
  return row ?? null;
}

/** What recording a sign-in writes to the account's row. */
export type SignInColumns = Pick<
  UserRow,
  'last_sign_in_at' | 'last_active_at' | 'failed_verification_attempts' | 'locked_until'
>;

/**
 * Counts a failed password or code attempt against the account (whoever sent it, so that guesses spread
 * over many addresses still add up) and, from a known browser, against that browser too; locks the
 * account once the limit is reached. With `lockout`, only if the account is still in the state the
 * attempt was decided on: false, and nothing counted, otherwise.
 */
export async function recordFailedVerification(
  db: Queryable,
  userId: string,
  limits: { maxFailedAttempts: number; durationSeconds: number },
  now: Date,
  clientId: string | null = null,
  lockout?: LockoutState,
): Promise<false | 'counted' | 'locked'> {
  // A lock that has run out starts a fresh count. Computed on the row as updated last (never from a
  // snapshot read before), so that concurrent failures each add one.
  const n = `(CASE WHEN locked_until IS NOT NULL AND locked_until <= $3 THEN 0 ELSE failed_verification_attempts END + 1)`;
  const rows = await db.query(
    `UPDATE users SET failed_verification_attempts = ${n}, last_failed_verification_at = $3,
       locked_until = CASE WHEN ${n} >= $2 THEN $3::timestamptz + make_interval(secs => $4) ELSE NULL END,
       locked_by_failures = ${n} >= $2
     WHERE id = $1 AND ${lockoutUnchanged(5)}
     RETURNING failed_verification_attempts`,
    [userId, limits.maxFailedAttempts, now, limits.durationSeconds, ...lockoutParams(lockout)],
  );
  const [row] = rows as { failed_verification_attempts: number }[];
  if (!row) return false;
  if (clientId) await countBrowserFailure(db, userId, clientId, now);
  // The failure that reached the limit locks the account; those after it extend the lock.
  return row.failed_verification_attempts === limits.maxFailedAttempts ? 'locked' : 'counted';
}

export function lockedForSeconds(user: Pick<UserRow, 'locked_until'>, now: Date): number {
  if (!user.locked_until) return 0;
  return Math.max(0, Math.ceil((user.locked_until.getTime() - now.getTime()) / 1000));
}

export type LockoutState = Pick<
  UserRow,
  'failed_verification_attempts' | 'last_failed_verification_at' | 'locked_until' | 'locked_by_failures'
>;

/**
 * The user's lockout counters, read without a lock; null: no such user. An attempt decided on them has
 * them confirmed by the statement that writes its outcome (`lockout` of recordSignIn,
 * recordFailedVerification, clearFailedVerifications) or at commit (lockoutStateIs): locking the row
 * instead made every sign-in of one account wait for the whole transaction of the one before it.
 */
export async function readLockoutState(tx: Queryable, userId: string): Promise<LockoutState | null> {
  const [state] = await tx.query<LockoutState>(
    `SELECT failed_verification_attempts, last_failed_verification_at, locked_until, locked_by_failures
     FROM users WHERE id = $1`,
    [userId],
  );
  return state ?? null;
}

/** Whether the account's lockout columns are still as `state` has them. */
export async function lockoutStateIs(tx: Queryable, userId: string, state: LockoutState): Promise<boolean> {
  const rows = await tx.query(`SELECT 1 FROM users WHERE id = $1 AND ${lockoutUnchanged(2)}`, [
    userId,
    ...lockoutParams(state),
  ]);
  return rows.length > 0;
}

export async function findUsersByIds(db: Queryable, ids: string[]): Promise<UserRow[]> {
  return db.query<UserRow>('SELECT * FROM users WHERE id = ANY($1)', [ids]);
}

/**
 * A factor proven again (re-verification): the account's run of failures starts over. With `lockout`,
 * only if the account is still in the state the attempt was decided on: false, and nothing written, otherwise.
 */
export async function clearFailedVerifications(
  db: Queryable,
  userId: string,
  lockout?: LockoutState,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE users SET failed_verification_attempts = 0 WHERE id = $1 AND ${lockoutUnchanged(2)} RETURNING id`,
    [userId, ...lockoutParams(lockout)],
  );
  return rows.length > 0;
}
