import { errors } from '../../errors.ts';
import {
  joinByInvitation,
  pendingInvitationById,
  redeemableInvitation,
} from '../../organizations/invitations.ts';
import type { SignUpRow, VerificationState } from '../../store/rows.ts';
import { markEmailVerifiedByTicket } from '../../store/email-addresses.ts';
import { emailAddressTaken } from '../../store/users.ts';
import type { FapiContext } from '../context.ts';
import type { SignUpChanges } from '../../store/sign-ups.ts';
import { acceptInstanceInvitation, redeemableInstanceInvitation } from '../../sign-up-modes/waitlist.ts';

/**
 * The invitation to the application (not to an organisation) a ticket belongs to, if it is one: pending,
 * or Clerk's ticket errors. Null when the ticket is not of that kind (then it may be an organisation's).
 */
async function redeemableInstanceTicket(ctx: FapiContext, ticket: string) {
  const found = await redeemableInstanceInvitation(ctx.tx, ticket, ctx.now);
  if (found === 'expired') throw errors.ticketExpired();
  return found;
}

/**
 * A ticket proves the invited address: the sign-up's email verification is `verified` by strategy
 * `ticket`, and remembers the invitation (a key of the stored verification JSON that the serializer
 * never shows) so that completing the sign-up also accepts it.
 */
type TicketVerification = VerificationState & { invitation_id: string };

export function ticketInvitationOf(signUp: Pick<SignUpRow, 'email_verification'> | null): string | null {
  const v = signUp?.email_verification as Partial<TicketVerification> | null | undefined;
  return v?.status === 'verified' && v.strategy === 'ticket' && typeof v.invitation_id === 'string'
    ? v.invitation_id
    : null;
}

/**
 * The sign-up changes a ticket brings (`strategy=ticket&ticket=…` on create, and again on the PATCH the
 * UI sends with the password). An email address sent along must be the invited one.
 */
export async function ticketSignUpChanges(
  ctx: FapiContext,
  ticket: string,
  email: string | undefined,
  existing: SignUpRow | null,
): Promise<SignUpChanges> {
  const invitation =
    (await redeemableInstanceTicket(ctx, ticket)) ?? (await redeemableInvitation(ctx.tx, ticket, ctx.now));
  const invited = invitation.email_address.toLowerCase();
  if (email !== undefined && email !== invited) {
    throw errors.paramValueInvalid(
      'email_address',
      'The email address must be the one the invitation was sent to.',
    );
  }
  if (ticketInvitationOf(existing) === invitation.id && existing?.email_address === invited) return {};
  if (await emailAddressTaken(ctx.tx, invited)) throw errors.identifierExists('email_address');
  const verification: TicketVerification = {
    status: 'verified',
    strategy: 'ticket',
    attempts: null,
    expire_at: null,
    invitation_id: invitation.id,
  };
  return { email_address: invited, email_verification: verification };
}

/**
 * Runs in the transaction that creates the user of a ticket sign-up: records how the address was
 * verified and joins the organisation, if the invitation is still pending by then.
 */
export async function acceptTicketOfSignUp(
  ctx: FapiContext,
  signUp: SignUpRow,
  userId: string,
): Promise<void> {
  const invitationId = ticketInvitationOf(signUp);
  if (!invitationId) return;
  await markEmailVerifiedByTicket(ctx.tx, userId, signUp.email_address);
  // An invitation to the application (a waitlist's): accepted, and its waitlist entry completed.
  if (invitationId.startsWith('inv_')) return acceptInstanceInvitation(ctx.tx, invitationId, userId, ctx.now);
  const invitation = await pendingInvitationById(ctx.tx, invitationId, ctx.now);
  if (invitation && invitation.email_address.toLowerCase() === signUp.email_address?.toLowerCase()) {
    await joinByInvitation(ctx.tx, invitation, userId, ctx.now);
  }
}
