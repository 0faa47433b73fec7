import { updateClient } from '../../store/clients.ts';
import type { SignInRow, UserRow, VerificationState } from '../../store/rows.ts';
import { createSession } from '../../store/sessions.ts';
import { recordSignIn } from '../../store/users.ts';
import type { FapiContext } from '../context.ts';
import { updateSignIn } from './sign-in-store.ts';

/** First factor verified and no second factor configured: open the session and make it the active one. */
export async function completeSignIn(
  ctx: FapiContext,
  signIn: SignInRow,
  user: UserRow,
  verification: VerificationState,
) {
  const client = await ctx.ensureClient();
  const session = await createSession(ctx.tx, {
    clientId: client.id,
    userId: user.id,
    lifetimeSeconds: ctx.deps.config.sessionLifetimeSeconds,
    now: ctx.now,
  });
  await recordSignIn(ctx.tx, user.id, ctx.now);
  // The finished attempt is returned once; the client no longer carries it.
  await updateClient(ctx.tx, client.id, { sign_in_id: null, last_active_session_id: session.id }, ctx.now);
  ctx.signInStateChanged();
  return updateSignIn(
    ctx.tx,
    signIn.id,
    { status: 'complete', first_factor_verification: verification, created_session_id: session.id },
    ctx.now,
  );
}
