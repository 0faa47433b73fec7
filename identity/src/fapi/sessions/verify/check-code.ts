import type { ClerkError } from '../../../errors.ts';
import {
  updateSessionVerification,
  type SessionVerificationRow,
} from '../../../reverification/session-verification-store.ts';
import type { VerificationState } from '../../../store/rows.ts';
import { attemptCode } from '../../code-attempt.ts';
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
  const attempt = await attemptCode(ctx, {
    subject: codeSubject(verification, step, prepared.strategy ?? ''),
    code,
    prepared,
    lockoutUserId: userId,
  });
  if (attempt.ok) return { verified: attempt.verification };
  const column = step === 'first_factor' ? 'first_factor_verification' : 'second_factor_verification';
  await updateSessionVerification(ctx.tx, verification.id, { [column]: attempt.verification }, ctx.now);
  return { error: attempt.error };
}
