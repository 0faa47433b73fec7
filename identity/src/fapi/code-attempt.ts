import { errors, type ClerkError } from '../errors.ts';
import type { VerificationState } from '../store/rows.ts';
import { assertMayAttempt, countFailedAttempt } from '../abuse/attempt-gate.ts';
import { checkCode, type CodeCheck } from '../store/verification-codes.ts';
import { spendSecondFactorCode } from '../second-factors/spend-second-factor.ts';
import type { FapiContext, FapiResult } from './context.ts';

/** Maps a failed code check to the verification's new state and Clerk's error code. */
export function codeFailure(
  prepared: VerificationState,
  result: Extract<CodeCheck, { ok: false }>,
): { verification: VerificationState; error: ClerkError } {
  switch (result.reason) {
    case 'not_prepared':
      return { verification: prepared, error: errors.verificationNotPrepared() };
    case 'expired':
      return { verification: { ...prepared, status: 'expired' }, error: errors.verificationExpired() };
    case 'too_many_attempts':
      return {
        verification: { ...prepared, status: 'failed', attempts: result.attempts },
        error: errors.verificationFailed(),
      };
    case 'incorrect':
      return { verification: { ...prepared, attempts: result.attempts }, error: errors.codeIncorrect() };
  }
}

export type CodeAttempt =
  | { ok: true; verification: VerificationState }
  | { ok: false; verification: VerificationState; error: ClerkError };

/**
 * One attempt at a mailed or texted code, counted the same way everywhere: the code is single use and
 * dies after `maxCodeAttempts`; a wrong code also counts towards the account's lockout when the attempt
 * is made for an existing account (`lockoutUserId`: sign-in, re-verification; not a sign-up or a profile
 * address, whose owner is already signed in or does not exist yet). Either way the caller stores the
 * returned verification state on its resource, and answers the error on failure.
 */
export async function attemptCode(
  ctx: FapiContext,
  input: { subject: string; code: string; prepared: VerificationState; lockoutUserId?: string },
): Promise<CodeAttempt> {
  const { prepared } = input;
  // A code that died of its wrong guesses is said to be dead, never delayed: nothing is left to guess.
  if (prepared.status === 'failed')
    return { ok: false, verification: prepared, error: errors.verificationFailed() };
  if (input.lockoutUserId) await assertMayAttempt(ctx, input.lockoutUserId);
  const result = await checkCode(ctx.tx, {
    subject: input.subject,
    code: input.code,
    pepper: ctx.deps.keys.codePepper,
    maxAttempts: ctx.deps.config.maxCodeAttempts,
    now: ctx.now,
  });
  if (result.ok) {
    return {
      ok: true,
      verification: { ...prepared, status: 'verified', attempts: (prepared.attempts ?? 0) + 1 },
    };
  }
  if (input.lockoutUserId && (result.reason === 'incorrect' || result.reason === 'too_many_attempts')) {
    await countFailedAttempt(ctx, input.lockoutUserId);
  }
  return { ok: false, ...codeFailure(prepared, result) };
}

/** Where the code of a factor is checked: sent ones in the code store, the others spent from the account. */
export type FactorCodeSource =
  /** An email or SMS code sent for `subject`, prepared with the step's strategy. */
  | { sent: string }
  /** An authenticator-app code or a backup code of the account. */
  | { spent: 'totp' | 'backup_code' };

export interface FactorCodeStep {
  code: string;
  /** The strategy named by the attempt; a sent code must have been prepared with it. */
  strategy: string;
  source: FactorCodeSource;
  /** The factor's verification as stored on its sign-in or re-verification (none if never prepared). */
  prepared: VerificationState | null | undefined;
  /** The account the attempt is for: wrong codes count towards its lockout. */
  userId: string;
  /** Stores the factor's state after a wrong code; the answer commits, so it is kept. */
  keep(state: VerificationState): Promise<unknown>;
  /** The right code: what follows (the session opened, the next factor asked, the step recorded). */
  verified(state: VerificationState): Promise<FapiResult>;
}

/**
 * The one "check the code, count a failure, go on when right" step of every factor attempted by an
 * existing account: sign-in first and second factors, password reset codes and re-verification. A sent
 * code counts as `attemptCode` says; an authenticator or backup code counts its attempts on the stored
 * verification, which fails after `maxCodeAttempts`. Either way a wrong code counts towards the lockout.
 */
export async function attemptFactorCode(ctx: FapiContext, step: FactorCodeStep): Promise<FapiResult> {
  const { prepared, userId } = step;
  if ('sent' in step.source) {
    if (prepared?.strategy !== step.strategy) throw errors.verificationNotPrepared();
    const attempt = await attemptCode(ctx, {
      subject: step.source.sent,
      code: step.code,
      prepared,
      lockoutUserId: userId,
    });
    if (!attempt.ok) {
      await step.keep(attempt.verification);
      return { error: attempt.error };
    }
    return step.verified(attempt.verification);
  }

  const attempts = (prepared?.attempts ?? 0) + 1;
  const state = (status: VerificationState['status']): VerificationState => ({
    status,
    strategy: step.strategy,
    attempts,
    expire_at: null,
  });
  await assertMayAttempt(ctx, userId);
  const spent = await spendSecondFactorCode(ctx.tx, ctx.deps.keys, {
    userId,
    strategy: step.source.spent,
    code: step.code,
    now: ctx.now,
  });
  if (!spent) {
    await countFailedAttempt(ctx, userId);
    const failed = attempts >= ctx.deps.config.maxCodeAttempts;
    await step.keep(state(failed ? 'failed' : 'unverified'));
    return { error: failed ? errors.verificationFailed() : errors.codeIncorrect() };
  }
  return step.verified(state('verified'));
}
