import { errors, type ClerkError } from '../errors.ts';
import type { VerificationState } from '../store/rows.ts';
import { recordFailedVerification } from '../store/users.ts';
import { assertMayAttempt } from '../abuse/attempt-gate.ts';
import { checkCode, type CodeCheck } from '../store/verification-codes.ts';
import type { FapiContext } from './context.ts';

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
    await recordFailedVerification(
      ctx.tx,
      input.lockoutUserId,
      ctx.deps.config.lockout,
      ctx.now,
      ctx.client?.id,
    );
  }
  return { ok: false, ...codeFailure(prepared, result) };
}
