import { errors } from '../errors.ts';
import type { Queryable } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import type { ClientRow } from '../store/rows.ts';
import { knownBrowserFailures } from '../store/known-browsers.ts';
import type { UserRow } from '../store/rows.ts';
import {
  clearFailedVerifications,
  lockedForSeconds,
  readLockoutState,
  recordFailedVerification,
  type LockoutState,
} from '../store/users.ts';
import { AttemptRaced, type AccountAttempts } from './account-attempts.ts';
import { attemptDelaySeconds } from './attempt-delay.ts';

/** What the gate reads of a request: a Frontend API request's context is one (fapi/context.ts). */
export interface AttemptContext {
  tx: Queryable;
  deps: IdentityDeps;
  now: Date;
  /** The browser's client, if it has one: a known browser is let through a lock others raised. */
  client: ClientRow | null;
  readonly attempts: AccountAttempts;
}

/**
 * A browser where the user has opened a session before and that has not been guessing itself (fewer
 * failures of its own than the free attempts, and than the lockout): a lock or a delay that others'
 * guesses raised lets it through, so an attacker who knows only the address cannot shut the owner out.
 */
export async function isTrustedBrowser(ctx: AttemptContext, userId: string): Promise<boolean> {
  if (!ctx.client) return false;
  const failures = await knownBrowserFailures(ctx.tx, userId, ctx.client.id);
  const { attemptDelay, lockout } = ctx.deps.config;
  return failures !== null && failures < Math.min(attemptDelay.freeAttempts, lockout.maxFailedAttempts);
}

/**
 * Starting or continuing a sign-in on a banned account: `user_banned`; on a locked one: `user_locked`, except
 * on a trusted browser.
 */
export async function assertNotLockedOut(ctx: AttemptContext, user: UserRow): Promise<void> {
  if (user.banned) throw errors.userBanned();
  const locked = lockedForSeconds(user, ctx.now);
  if (locked === 0) return;
  // An operator's lock (Backend API) holds for every browser.
  if (user.locked_by_failures && (await isTrustedBrowser(ctx, user.id))) return;
  throw errors.userLocked(locked);
}

/**
 * Before a password or code of the account is checked: `user_locked` during a lock, `429 too_many_requests`
 * (Retry-After) during the progressive delay, except on a trusted browser. Decided on the account's row as
 * the request read it (or on a read of its lockout state when it has only the id), which the attempt's
 * outcome confirms when it is written (account-attempts.ts): concurrent guesses each see the failures
 * counted before them.
 */
export async function assertMayAttempt(ctx: AttemptContext, account: UserRow | string): Promise<void> {
  const userId = typeof account === 'string' ? account : account.id;
  if (typeof account !== 'string' && account.banned) throw errors.userBanned();
  const state = typeof account === 'string' ? await readLockoutState(ctx.tx, account) : account;
  if (!state) return;
  ctx.attempts.decidedOn(userId, state);
  const locked = lockedForSeconds(state, ctx.now);
  const wait = locked > 0 ? 0 : attemptWaitSeconds(ctx, state);
  if (locked === 0 && wait === 0) return;
  if ((locked === 0 || state.locked_by_failures) && (await isTrustedBrowser(ctx, userId))) return;
  if (locked > 0) throw errors.userLocked(locked);
  throw errors.tooManyRequests(wait);
}

/**
 * A wrong password or code after `assertMayAttempt`: counted against the account (and this browser) if the
 * account is still in the state the attempt was decided on; otherwise the request runs again and decides
 * afresh (a concurrent failure may have locked it meanwhile: the answer is then `user_locked`).
 */
export async function countFailedAttempt(ctx: AttemptContext, userId: string): Promise<void> {
  const counted = await recordFailedVerification(
    ctx.tx,
    userId,
    ctx.deps.config.lockout,
    ctx.now,
    ctx.client?.id,
    ctx.attempts.stateOf(userId),
  );
  if (!counted) throw new AttemptRaced();
  if (counted === 'locked') ctx.deps.metrics.lockouts.inc();
  ctx.attempts.confirmed(userId);
}

/**
 * A right factor after `assertMayAttempt` outside a sign-in (re-verification): the account's run of failures
 * starts over, if it is still in the state the attempt was decided on; otherwise the request runs again.
 */
export async function clearFailedAttempts(ctx: AttemptContext, userId: string): Promise<void> {
  if (!(await clearFailedVerifications(ctx.tx, userId, ctx.attempts.stateOf(userId))))
    throw new AttemptRaced();
  ctx.attempts.confirmed(userId);
}

/** The progressive delay still to wait before the account's next attempt (0: none). */
export function attemptWaitSeconds(
  ctx: Pick<AttemptContext, 'deps' | 'now'>,
  state: Pick<LockoutState, 'failed_verification_attempts' | 'last_failed_verification_at'>,
): number {
  return attemptDelaySeconds(
    state.failed_verification_attempts,
    state.last_failed_verification_at,
    ctx.deps.config.attemptDelay,
    ctx.now,
  );
}
