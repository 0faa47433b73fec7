import type { SignInRow, UserRow, VerificationState } from '../../store/rows.ts';
import type { FapiContext } from '../context.ts';
import { SecondFactorNotProvenError } from '../sessions/open-session.ts';
import { completeSignIn } from './complete-sign-in.ts';
import { saveSignIn } from '../../store/sign-ins.ts';
import type { SecondFactorState } from '../../second-factors/second-factor-state.ts';

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
  /** The user's second factors as this transaction read them (else openSession reads them). */
  secondFactors?: SecondFactorState,
): Promise<SignInRow> {
  // openSession reads the user's second factors and refuses, before writing anything, to open a session
  // with the first factor alone for a user who has one: that refusal is the answer "ask for it", so the
  // factors are read once and by the same check that guards every other path.
  try {
    return await completeSignIn(
      ctx,
      signIn,
      user,
      { secondFactor: 'not_enrolled', readNow: secondFactors },
      { first_factor_verification: verification },
    );
  } catch (err) {
    if (!(err instanceof SecondFactorNotProvenError)) throw err;
  }
  return saveSignIn(
    ctx.tx,
    signIn,
    {
      status: 'needs_second_factor',
      first_factor_verification: verification,
      second_factor_verification: null,
    },
    ctx.now,
  );
}
