import { errors } from '../../errors.ts';
import { actorTokenByTicket } from '../../impersonation/actor-tokens.ts';
import { redeemableInvitation } from '../../organizations/invitations.ts';
import type { ClientRow } from '../../store/rows.ts';
import { assertMayOpenSession } from '../../sessions/may-open-session.ts';
import { findUserByEmail, lockedForSeconds } from '../../store/users.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { firstFactorVerified } from '../sign-ins/first-factor-verified.ts';
import { signInResponse } from '../sign-ins/respond.ts';
import { createSignIn } from '../../store/sign-ins.ts';
import { signInWithActorToken } from './actor-sign-in.ts';
import { signInWithSignInToken } from './sign-in-token-sign-in.ts';
import { signInTokenByTicket } from '../../tickets/sign-in-tokens.ts';
import { ticketSignInVerification } from './sign-in-ticket-invitation.ts';

/**
 * `POST /client/sign_ins strategy=ticket` (SignInStart with `__clerk_ticket`): the ticket is the first
 * factor only. An actor token signs in as its user (see actor-sign-in.ts), a sign-in token too but as
 * any first factor (sign-in-token-sign-in.ts). An invitation's ticket signs
 * the invited address's account in like any first factor: at once, or at `needs_second_factor` for a
 * user with a second factor; the organisation is joined when the sign-in completes. An address without
 * an account answers `invitation_account_not_exists`.
 */
export async function signInWithTicket(
  ctx: FapiContext,
  client: ClientRow,
  ticket: string | undefined,
): Promise<FapiResult> {
  if (!ticket) throw errors.paramMissing('ticket');
  const actorToken = await actorTokenByTicket(ctx.tx, ticket, { lock: true });
  if (actorToken) return signInWithActorToken(ctx, client, actorToken);
  const signInToken = await signInTokenByTicket(ctx.tx, ticket, { lock: true });
  if (signInToken) return signInWithSignInToken(ctx, client, signInToken);
  await assertMayOpenSession(ctx, client.id, null);
  const invitation = await redeemableInvitation(ctx.tx, ticket, ctx.now);
  const user = await findUserByEmail(ctx.tx, invitation.email_address);
  if (!user) throw errors.invitationAccountNotExists();
  await assertMayOpenSession(ctx, client.id, user.id);
  const locked = lockedForSeconds(user, ctx.now);
  if (locked > 0) throw errors.userLocked(locked);
  const signIn = await createSignIn(ctx.tx, {
    clientId: client.id,
    status: 'needs_first_factor',
    identifier: invitation.email_address.toLowerCase(),
    userId: user.id,
    now: ctx.now,
  });
  await ctx.updateClient({ sign_in_id: signIn.id });
  const done = await firstFactorVerified(ctx, signIn, user, ticketSignInVerification(invitation.id));
  return signInResponse(ctx, done);
}
