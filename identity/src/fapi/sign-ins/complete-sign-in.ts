import type { SignInRow, UserRow, VerificationState } from '../../store/rows.ts';
import { openSession, type SecondFactorProof } from '../sessions/open-session.ts';
import type { FapiContext } from '../context.ts';
import { acceptTicketOfSignIn } from '../tickets/sign-in-ticket-invitation.ts';
import { saveSignIn } from '../../store/sign-ins.ts';

/**
 * The end of every sign-in: opens the session (which checks `proof` against the user's second factors)
 * and marks the sign-in complete with the verifications that got it there. An invitation's ticket joins
 * its organisation only now, so a ticket that never got past the second factor joined nobody.
 * Callers: first-factor-verified.ts (no second factor), second-factor-verified.ts, the actor token.
 */
export async function completeSignIn(
  ctx: FapiContext,
  signIn: SignInRow,
  user: UserRow,
  proof: SecondFactorProof,
  verifications: {
    first_factor_verification?: VerificationState;
    second_factor_verification?: VerificationState;
  },
): Promise<SignInRow> {
  const session = await openSession(ctx, user.id, 'sign_in_id', proof);
  await acceptTicketOfSignIn(
    ctx,
    verifications.first_factor_verification ?? signIn.first_factor_verification,
    user,
  );
  return saveSignIn(
    ctx.tx,
    signIn,
    { status: 'complete', ...verifications, created_session_id: session.id },
    ctx.now,
  );
}
