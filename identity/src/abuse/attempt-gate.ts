import { errors } from '../errors.ts';
import type { FapiContext } from '../fapi/context.ts';
import { knownBrowserFailures } from '../store/known-browsers.ts';
import type { UserRow } from '../store/rows.ts';
import { lockedForSeconds, lockLockoutState, type LockoutState } from '../store/users.ts';
import { attemptDelaySeconds } from './attempt-delay.ts';

type AttemptContext = Pick<FapiContext, 'tx' | 'deps' | 'now' | 'client'>;

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

/** Starting or continuing a sign-in on a locked account: `user_locked`, except on a trusted browser. */
export async function assertNotLockedOut(ctx: AttemptContext, user: UserRow): Promise<void> {
  const locked = lockedForSeconds(user, ctx.now);
  if (locked === 0) return;
  // An operator's lock (Backend API) holds for every browser.
  if (user.locked_by_failures && (await isTrustedBrowser(ctx, user.id))) return;
  throw errors.userLocked(locked);
}

/**
 * Before a password or code of the account is checked: `user_locked` during a lock, `429 too_many_requests`
 * (Retry-After) during the progressive delay, except on a trusted browser. The account's row is locked
 * first, so concurrent guesses take turns and each sees the failures counted before it.
 */
export async function assertMayAttempt(ctx: AttemptContext, userId: string): Promise<void> {
  const state = await lockLockoutState(ctx.tx, userId);
  if (!state) return;
  const locked = lockedForSeconds(state, ctx.now);
  const wait = locked > 0 ? 0 : attemptWaitSeconds(ctx, state);
  if (locked === 0 && wait === 0) return;
  if ((locked === 0 || state.locked_by_failures) && (await isTrustedBrowser(ctx, userId))) return;
  if (locked > 0) throw errors.userLocked(locked);
  throw errors.tooManyRequests(wait);
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
