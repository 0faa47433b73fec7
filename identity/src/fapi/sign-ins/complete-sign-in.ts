import type { SignInRow, UserRow, VerificationState } from '../../store/rows.ts';
import { openSession, type Impersonation } from '../sessions/open-session.ts';
import type { FapiContext } from '../context.ts';
import { updateSignIn } from './sign-in-store.ts';

/** First factor verified and no second factor configured: open the session and make it the active one. */
export async function completeSignIn(
  ctx: FapiContext,
  signIn: SignInRow,
  user: UserRow,
  verification: VerificationState,
  impersonation: Impersonation | null = null,
) {
  const session = await openSession(ctx, user.id, 'sign_in_id', impersonation);
  return updateSignIn(
    ctx.tx,
    signIn.id,
    { status: 'complete', first_factor_verification: verification, created_session_id: session.id },
    ctx.now,
  );
}
