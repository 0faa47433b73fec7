import { secondFactorStateOf, twoFactorEnabled } from '../../second-factors/second-factor-state.ts';
import type { SignInRow, UserRow, VerificationState } from '../../store/rows.ts';
import type { FapiContext } from '../context.ts';
import { completeSignIn } from './complete-sign-in.ts';
import { updateSignIn } from './sign-in-store.ts';

/**
 * A first factor (password, code, email link, reset password, ticket) is verified: the sign-in
 * completes, unless the user has turned on two-factor sign-in; then it waits in `needs_second_factor`
 * and no session exists until that is passed (second-factor-verified.ts).
 */
export async function firstFactorVerified(
  ctx: FapiContext,
  signIn: SignInRow,
  user: UserRow,
  verification: VerificationState,
): Promise<SignInRow> {
  if (!twoFactorEnabled(await secondFactorStateOf(ctx.tx, user.id))) {
    return completeSignIn(
      ctx,
      signIn,
      user,
      { secondFactor: 'not_enrolled' },
      { first_factor_verification: verification },
    );
  }
  return updateSignIn(
    ctx.tx,
    signIn.id,
    {
      status: 'needs_second_factor',
      first_factor_verification: verification,
      second_factor_verification: null,
    },
    ctx.now,
  );
}
