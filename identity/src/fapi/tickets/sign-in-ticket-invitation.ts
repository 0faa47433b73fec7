import { joinByInvitation, pendingInvitationById } from '../../organizations/invitations.ts';
import type { UserRow, VerificationState } from '../../store/rows.ts';
import { emailAddressesOf } from '../../store/users.ts';
import type { FapiContext } from '../context.ts';

/**
 * An invitation's ticket as a sign-in's first factor: the verification remembers the invitation (a key of
 * the stored JSON that the serializer never shows) so that the organisation is joined when the sign-in
 * completes — after the second factor, for a user who has one — and not when the ticket is presented.
 */
export type TicketSignInVerification = VerificationState & { invitation_id: string };

export function ticketSignInVerification(invitationId: string): TicketSignInVerification {
  return {
    status: 'verified',
    strategy: 'ticket',
    attempts: null,
    expire_at: null,
    invitation_id: invitationId,
  };
}

/**
 * Runs in the transaction that completes a sign-in: joins the remembered invitation's organisation if it
 * is still pending by then and still addressed to one of the user's verified addresses.
 */
export async function acceptTicketOfSignIn(
  ctx: FapiContext,
  firstFactor: VerificationState | null,
  user: UserRow,
): Promise<void> {
  const v = firstFactor as Partial<TicketSignInVerification> | null;
  if (v?.status !== 'verified' || v.strategy !== 'ticket' || typeof v.invitation_id !== 'string') return;
  const invitation = await pendingInvitationById(ctx.tx, v.invitation_id, ctx.now);
  if (!invitation) return;
  const emails = (await emailAddressesOf(ctx.tx, [user.id])).get(user.id) ?? [];
  const invited = invitation.email_address.toLowerCase();
  if (!emails.some((e) => e.verified_at && e.email_address.toLowerCase() === invited)) return;
  await joinByInvitation(ctx.tx, invitation, user.id, ctx.now);
}
