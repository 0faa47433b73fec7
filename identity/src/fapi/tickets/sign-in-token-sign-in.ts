import { errors } from '../../errors.ts';
import { assertMayOpenSession } from '../../sessions/may-open-session.ts';
import type { ClientRow, SignInTokenRow } from '../../store/rows.ts';
import { findUserById } from '../../store/users.ts';
import { assertNotLockedOut } from '../../abuse/attempt-gate.ts';
import { spendSignInToken } from '../../tickets/sign-in-tokens.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { openTicketSignIn } from './ticket-sign-in.ts';
import { firstFactorVerified } from '../sign-ins/first-factor-verified.ts';
import { signInResponse } from '../sign-ins/respond.ts';

/**
 * `POST /client/sign_ins strategy=ticket` with a sign-in token (Backend API `signInTokens`): the token is
 * the user's first factor, like a password. The sign-in completes at once, or waits at
 * `needs_second_factor` for a user with a second factor. The token is spent in this transaction (locked
 * by the caller, and accepted only if still pending) whatever comes next, so it is presented once.
 */
export async function signInWithSignInToken(
  ctx: FapiContext,
  client: ClientRow,
  token: SignInTokenRow,
): Promise<FapiResult> {
  // Refused before anything else: a spent, revoked or expired ticket tells nothing about its user.
  await spendSignInToken(ctx.tx, token, ctx.now);
  const user = await findUserById(ctx.tx, token.user_id);
  if (!user) throw errors.signInTokenInvalid();
  await assertMayOpenSession(ctx, client.id, user.id);
  await assertNotLockedOut(ctx, user);
  const signIn = await openTicketSignIn(ctx, client, user);
  const done = await firstFactorVerified(ctx, signIn, user, {
    status: 'verified',
    strategy: 'ticket',
    attempts: null,
    expire_at: null,
  });
  return signInResponse(ctx, done);
}
