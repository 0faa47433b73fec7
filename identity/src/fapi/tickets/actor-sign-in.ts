import { errors } from '../../errors.ts';
import { acceptActorToken, assertRedeemable } from '../../impersonation/actor-tokens.ts';
import type { ActorTokenRow, ClientRow } from '../../store/rows.ts';
import { endSessionsOfClient } from '../../store/sessions.ts';
import { findUserById, lockedForSeconds } from '../../store/users.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { openTicketSignIn } from './ticket-sign-in.ts';
import { completeSignIn } from '../sign-ins/complete-sign-in.ts';
import { signInResponse } from '../sign-ins/respond.ts';

/**
 * `POST /client/sign_ins strategy=ticket` with an actor token: the token is the first factor, and the
 * sign-in completes at once as its user, in a session that carries the actor and ends after the token's
 * `session_max_duration_in_seconds`. The token is spent in the same transaction (locked by the caller,
 * and accepted only if still pending), so it opens one session at most.
 *
 * Single-session instance: whoever is signed in on this browser (usually the operator) is replaced by
 * the impersonation, as in Clerk's own impersonation flow, where the admin's browser redeems the token.
 * Multi-session: it opens beside the others, and replaces only a session of the same user (<SignIn/>
 * would otherwise switch to that one, which is not the impersonation).
 */
export async function signInWithActorToken(
  ctx: FapiContext,
  client: ClientRow,
  actorToken: ActorTokenRow,
): Promise<FapiResult> {
  assertRedeemable(actorToken, ctx.now);
  const user = await findUserById(ctx.tx, actorToken.user_id);
  if (!user) throw errors.actorTokenInvalid();
  const locked = lockedForSeconds(user, ctx.now);
  if (locked > 0) throw errors.userLocked(locked);

  await endSessionsOfClient(
    ctx.tx,
    client.id,
    ctx.now,
    'replaced',
    ctx.deps.config.multiSession ? user.id : null,
  );
  const signIn = await openTicketSignIn(ctx, client, user);
  // Impersonation is the operator's Backend API privilege: as on hosted Clerk, no factor of the user is
  // asked, their second factor included. This is the one sign-in that opens a session without it, and
  // the session shows it: `fva` has no second factor, and credential changes are refused (me/actor-guard.ts).
  const done = await completeSignIn(
    ctx,
    signIn,
    user,
    {
      secondFactor: 'impersonation',
      impersonation: { actor: actorToken.actor, lifetimeSeconds: actorToken.session_max_duration_seconds },
    },
    {
      first_factor_verification: { status: 'verified', strategy: 'ticket', attempts: null, expire_at: null },
    },
  );
  await acceptActorToken(ctx.tx, actorToken.id, done.created_session_id!, ctx.now);
  return signInResponse(ctx, done);
}
