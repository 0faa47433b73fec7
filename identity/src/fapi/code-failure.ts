import { errors, type ClerkError } from '../errors.ts';
import type { VerificationState } from '../store/rows.ts';
import type { CodeCheck } from '../store/verification-codes.ts';

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
