import { errors } from '../../errors.ts';
import { joinByInvitation, redeemableInvitation } from '../../organizations/invitations.ts';
import { updateClient } from '../../store/clients.ts';
import type { ClientRow } from '../../store/rows.ts';
import { findUserByEmail, lockedForSeconds } from '../../store/users.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { completeSignIn } from '../sign-ins/complete-sign-in.ts';
import { signInResponse } from '../sign-ins/respond.ts';
import { createSignIn } from '../sign-ins/sign-in-store.ts';

/**
 * `POST /client/sign_ins strategy=ticket` (SignInStart with `__clerk_ticket`): the ticket is the first
 * factor. The invited address's account is signed in at once and joins the organisation, in one
 * transaction; an address without an account answers `invitation_account_not_exists`.
 */
export async function signInWithTicket(
  ctx: FapiContext,
  client: ClientRow,
  ticket: string | undefined,
): Promise<FapiResult> {
  if (!ticket) throw errors.paramMissing('ticket');
  const invitation = await redeemableInvitation(ctx.tx, ticket, ctx.now);
  const user = await findUserByEmail(ctx.tx, invitation.email_address);
  if (!user) throw errors.invitationAccountNotExists();
  const locked = lockedForSeconds(user, ctx.now);
  if (locked > 0) throw errors.userLocked(locked);
  const signIn = await createSignIn(ctx.tx, {
    clientId: client.id,
    status: 'needs_first_factor',
    identifier: invitation.email_address.toLowerCase(),
    userId: user.id,
    now: ctx.now,
  });
  await updateClient(ctx.tx, client.id, { sign_in_id: signIn.id }, ctx.now);
  await joinByInvitation(ctx.tx, invitation, user.id, ctx.now);
  const done = await completeSignIn(ctx, signIn, user, {
    status: 'verified',
    strategy: 'ticket',
    attempts: null,
    expire_at: null,
  });
  return signInResponse(ctx, done);
}
