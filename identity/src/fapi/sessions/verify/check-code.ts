import type { ClerkError } from '../../../errors.ts';
import {
  updateSessionVerification,
  type SessionVerificationRow,
} from '../../../reverification/session-verification-store.ts';
import type { VerificationState } from '../../../store/rows.ts';
import { recordFailedVerification } from '../../../store/users.ts';
import { checkCode } from '../../../store/verification-codes.ts';
import { codeFailure } from '../../code-failure.ts';
import type { FapiContext } from '../../context.ts';
import { codeSubject } from './factor-verified.ts';

/**
 * Checks a code sent for one step of a re-verification (email or SMS). Right: the verified state to
 * record. Wrong: counted on the code (single use, `maxCodeAttempts`) and towards the account lockout,
 * kept on the verification, and the error to answer.
 */
export async function checkStepCode(
  ctx: FapiContext,
  verification: SessionVerificationRow,
  userId: string,
  step: 'first_factor' | 'second_factor',
  prepared: VerificationState,
  code: string,
): Promise<{ verified: VerificationState } | { error: ClerkError }> {
  const result = await checkCode(ctx.tx, {
    subject: codeSubject(verification, step, prepared.strategy ?? ''),
    code,
    pepper: ctx.deps.keys.codePepper,
    maxAttempts: ctx.deps.config.maxCodeAttempts,
    now: ctx.now,
  });
  if (result.ok)
    return { verified: { ...prepared, status: 'verified', attempts: (prepared.attempts ?? 0) + 1 } };
  if (result.reason === 'incorrect' || result.reason === 'too_many_attempts') {
    await recordFailedVerification(ctx.tx, userId, ctx.deps.config.lockout, ctx.now);
  }
  const failure = codeFailure(prepared, result);
  const column = step === 'first_factor' ? 'first_factor_verification' : 'second_factor_verification';
  await updateSessionVerification(ctx.tx, verification.id, { [column]: failure.verification }, ctx.now);
  return { error: failure.error };
}
