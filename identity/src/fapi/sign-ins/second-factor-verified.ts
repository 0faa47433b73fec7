import type { SignInRow, UserRow, VerificationState } from '../../store/rows.ts';
import type { FapiContext } from '../context.ts';
import { completeSignIn } from './complete-sign-in.ts';

/** The second factor (authenticator code, backup code, SMS code) is proven: the sign-in completes. */
export async function secondFactorVerified(
  ctx: FapiContext,
  signIn: SignInRow,
  user: UserRow,
  verification: VerificationState,
): Promise<SignInRow> {
  return completeSignIn(
    ctx,
    signIn,
    user,
    { secondFactor: 'verified' },
    { second_factor_verification: verification },
  );
}
