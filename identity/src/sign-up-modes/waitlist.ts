import { randomToken, sha256 } from '../crypto/secrets.ts';
import type { Queryable } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import { errors } from '../errors.ts';
import { newId } from '../ids.ts';
import { isTestEmail } from '../instance/test-mode.ts';
import { chargeRecipients } from '../mail/send-limits.ts';
import { waitlistInvitationMail } from '../mail/templates.ts';
import { ticketUrl } from '../tickets/ticket-url.ts';
import { ms } from '../serializers/verification.ts';
import { lockUserMetadata, setUserMetadata } from '../store/user-admin-changes.ts';
import {
  findInstanceInvitation,
  findInstanceInvitationByTicketHash,
  findWaitlistEntry,
  findWaitlistEntryByInvitation,
  insertInstanceInvitation,
  insertWaitlistEntryIfAbsent,
  lockInstanceInvitation,
  revokeOpenInstanceInvitations,
  setInstanceInvitationStatus,
  setWaitlistEntryStatus,
  type InstanceInvitationRow,
  type WaitlistEntryRow,
} from '../store/waitlist.ts';
import { recordWebhookEvent, type EventRequest } from '../webhooks/record-event.ts';

/** Clerk's invitations last a month (docs: "Invitations expire after a month"). */
const INVITATION_TTL_MS = 30 * 24 * 3600 * 1000;
/** Tickets are 43 base64url characters; anything far longer is not one of ours. */
const MAX_TICKET_LENGTH = 200;

const currentInvitationStatus = (inv: InstanceInvitationRow, now: Date) =>
  inv.status === 'pending' && inv.expires_at.getTime() <= now.getTime() ? 'expired' : inv.status;

/** `@clerk/backend` 2.10.1's InvitationJSON (an invitation to the application: no organisation). */
export function instanceInvitationJSON(inv: InstanceInvitationRow, now: Date, url: string | null = null) {
  const status = currentInvitationStatus(inv, now);
  return {
    object: 'invitation',
    id: inv.id,
    email_address: inv.email_address,
    public_metadata: inv.public_metadata,
    revoked: status === 'revoked',
    status,
    url,
    expires_at: ms(inv.expires_at),
    created_at: ms(inv.created_at),
    updated_at: ms(inv.updated_at),
  };
}

/** `@clerk/backend` 2.10.1's WaitlistEntryJSON: the Backend API's answer and the webhook's `data`. */
export async function waitlistEntryJSON(
  tx: Queryable,
  entry: WaitlistEntryRow,
  now: Date,
  invitation?: { row: InstanceInvitationRow; url: string | null },
) {
  const inv =
    invitation ??
    (entry.invitation_id
      ? await findInstanceInvitation(tx, entry.invitation_id).then((row) => row && { row, url: null })
      : null);
  return {
    object: 'waitlist_entry',
    id: entry.id,
    email_address: entry.email_address,
    status: entry.status,
    invitation: inv ? instanceInvitationJSON(inv.row, now, inv.url) : null,
    is_locked: false,
    created_at: ms(entry.created_at),
    updated_at: ms(entry.updated_at),
  };
}

/** The Frontend API's WaitlistJSON (clerk-js core/resources/Waitlist.ts reads only these). */
export function waitlistJSON(entry: WaitlistEntryRow) {
  return {
    object: 'waitlist',
    id: entry.id,
    created_at: ms(entry.created_at),
    updated_at: ms(entry.updated_at),
  };
}

async function recordEntryEvent(
  tx: Queryable,
  type: 'waitlistEntry.created' | 'waitlistEntry.updated',
  entry: WaitlistEntryRow,
  now: Date,
  request?: EventRequest,
) {
  await recordWebhookEvent(tx, { type, data: await waitlistEntryJSON(tx, entry, now), request }, now);
}

/**
 * Puts an address on the waitlist. An address joins once: joining again answers the same entry and
 * changes nothing (hosted Clerk answers the existing entry too), so the answer never says whether the
 * address was there already, nor whether it has an account.
 */
export async function joinWaitlist(
  tx: Queryable,
  email: string,
  now: Date,
  request?: EventRequest,
): Promise<{ entry: WaitlistEntryRow; created: boolean }> {
  const joined = await insertWaitlistEntryIfAbsent(tx, { id: newId('wle'), email, now });
  if (joined.created) await recordEntryEvent(tx, 'waitlistEntry.created', joined.entry, now, request);
  return joined;
}

/**
 * Invites an entry: a new invitation to the application (any earlier one to the address stops working),
 * mailed with its ticket link (except Clerk test-mode addresses in development), and the entry `invited`.
 * A completed entry has an account already; a rejected one may be invited after all.
 */
export async function inviteWaitlistEntry(
  tx: Queryable,
  deps: IdentityDeps,
  id: string,
  now: Date,
  opts: { ignoreExisting?: boolean } = {},
) {
  const entry = await findWaitlistEntry(tx, id, { lock: true });
  if (!entry) throw errors.notFound('waitlist entry');
  if (entry.status === 'completed') {
    throw errors.paramValueInvalid('id', 'This waitlist entry has already signed up.');
  }
  if (entry.status === 'invited' && entry.invitation_id) {
    const open = await findInstanceInvitation(tx, entry.invitation_id);
    if (open && currentInvitationStatus(open, now) === 'pending') {
      if (opts.ignoreExisting) return waitlistEntryJSON(tx, entry, now);
      throw errors.paramValueInvalid('id', 'This waitlist entry already has a pending invitation.');
    }
  }
  const mailed = !(deps.config.mode === 'development' && isTestEmail(entry.email_address));
  if (mailed) await chargeRecipients(tx, deps.config.sendLimits, 'mail', [entry.email_address], now);
  await revokeOpenInstanceInvitations(tx, entry.email_address, now);
  const ticket = randomToken(32);
  const invitation = await insertInstanceInvitation(tx, {
    id: newId('inv'),
    email: entry.email_address,
    ticketHash: sha256(ticket),
    expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
    now,
  });
  const url = ticketUrl(deps, ticket);
  if (mailed) {
    await deps.mailer.send(
      tx,
      waitlistInvitationMail(entry.email_address, {
        url,
        expiresAt: invitation.expires_at,
        appName: deps.config.applicationName,
        // An operator's invitation, sent from the Backend API: no browser of the recipient's to ask.
        language: deps.config.defaultMailLanguage,
      }),
    );
  }
  const invited = await setWaitlistEntryStatus(tx, entry.id, 'invited', invitation.id, now);
  await recordEntryEvent(tx, 'waitlistEntry.updated', invited, now);
  return waitlistEntryJSON(tx, invited, now, { row: invitation, url });
}

/** Rejects an entry: its invitation, if one is open, stops working. A completed entry cannot be. */
export async function rejectWaitlistEntry(tx: Queryable, id: string, now: Date) {
  const entry = await findWaitlistEntry(tx, id, { lock: true });
  if (!entry) throw errors.notFound('waitlist entry');
  if (entry.status === 'completed') {
    throw errors.paramValueInvalid('id', 'This waitlist entry has already signed up.');
  }
  if (entry.status === 'rejected') return waitlistEntryJSON(tx, entry, now);
  if (entry.invitation_id) {
    const inv = await lockInstanceInvitation(tx, entry.invitation_id);
    if (inv?.status === 'pending') await setInstanceInvitationStatus(tx, inv.id, 'revoked', now);
  }
  const rejected = await setWaitlistEntryStatus(tx, entry.id, 'rejected', undefined, now);
  await recordEntryEvent(tx, 'waitlistEntry.updated', rejected, now);
  return waitlistEntryJSON(tx, rejected, now);
}

/** The pending (not expired) invitation to the application a ticket belongs to, locked; null if none. */
export async function redeemableInstanceInvitation(
  tx: Queryable,
  ticket: string,
  now: Date,
): Promise<InstanceInvitationRow | 'expired' | null> {
  if (!ticket || ticket.length > MAX_TICKET_LENGTH) return null;
  const inv = await findInstanceInvitationByTicketHash(tx, sha256(ticket), { lock: true });
  if (!inv) return null;
  const status = currentInvitationStatus(inv, now);
  if (status === 'expired') return 'expired';
  return status === 'pending' ? inv : null;
}

/** The invitation behind a ticket, whatever its state (the ticket link's landing page). */
export async function instanceInvitationOfTicket(
  tx: Queryable,
  ticket: string,
  now: Date,
): Promise<{ invitation: InstanceInvitationRow; pending: boolean } | null> {
  if (!ticket || ticket.length > MAX_TICKET_LENGTH) return null;
  const inv = await findInstanceInvitationByTicketHash(tx, sha256(ticket));
  return inv ? { invitation: inv, pending: currentInvitationStatus(inv, now) === 'pending' } : null;
}

/**
 * In the transaction that creates the user of a sign-up made with an invitation to the application:
 * the invitation is accepted, its public metadata becomes the user's (Clerk: "once the user accepts the
 * invitation and signs up, these metadata will end up in the user's public metadata"), and its waitlist
 * entry, if any, is `completed`.
 */
export async function acceptInstanceInvitation(
  tx: Queryable,
  invitationId: string,
  userId: string,
  now: Date,
) {
  const inv = await lockInstanceInvitation(tx, invitationId);
  if (!inv || currentInvitationStatus(inv, now) !== 'pending') return;
  await setInstanceInvitationStatus(tx, inv.id, 'accepted', now);
  if (Object.keys(inv.public_metadata).length > 0) {
    const current = await lockUserMetadata(tx, userId);
    if (current) {
      const merged = { ...current.public_metadata, ...inv.public_metadata };
      await setUserMetadata(tx, userId, 'public_metadata', merged, now);
    }
  }
  const entry = await findWaitlistEntryByInvitation(tx, inv.id);
  if (entry && entry.status === 'invited') {
    const completed = await setWaitlistEntryStatus(tx, entry.id, 'completed', undefined, now);
    await recordEntryEvent(tx, 'waitlistEntry.updated', completed, now);
  }
}
