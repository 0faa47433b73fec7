import type { IdentityConfig } from '../config.ts';
import { randomToken, sha256 } from '../crypto/secrets.ts';
import type { Queryable } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import { errors } from '../errors.ts';
import { invitedEmail } from '../users/email-format.ts';
import { isAllowedRedirect } from '../http/redirects.ts';
import { newId } from '../ids.ts';
import { isTestEmail } from '../instance/test-mode.ts';
import { chargeRecipients } from '../mail/send-limits.ts';
import { organizationInvitationMail } from '../mail/templates.ts';
import { roleName } from '../serializers/organization.ts';
import { organizationMailLanguage } from '../mail/recipient-language.ts';
import {
  countOpenInvitations,
  expireOverdueInvitations,
  findInvitationByTicketHash,
  findInvitationOfOrganization,
  inviterNameFields,
  lockInvitation,
  lockInvitationToUser,
  memberEmailsAmong,
  setInvitationStatus,
  upsertPendingInvitation,
} from '../store/invitations.ts';
import { countMembers, findOrganization, insertMembership, membershipOf } from '../store/organizations.ts';
import type { InvitationRow, InvitationStatus, OrganizationRow } from '../store/rows.ts';
import { findUserByEmail } from '../store/users.ts';
import { assertMayManageRoles } from './role-management.ts';
import { ticketUrl } from '../tickets/ticket-url.ts';
import { instanceInvitationOfTicket } from '../sign-up-modes/waitlist.ts';
import { roleByKey } from './roles.ts';

/**
 * Organisation invitations, shared by the Frontend API (admins in the Clerk UI, the invitee's own list)
 * and the Backend API. Every invitation carries a one-time ticket, mailed as a link to
 * `GET /v1/tickets/accept`; only its SHA-256 is stored. A pending invitation reads as `expired` once
 * past `expires_at`; the stored row changes when the address is invited again.
 */

export const INVITATION_TTL_DAYS = 30;
export const MAX_INVITATION_TTL_DAYS = 365;
export const INVITATION_STATUSES: readonly InvitationStatus[] = ['pending', 'accepted', 'revoked', 'expired'];

const DAY_MS = 24 * 3600 * 1000;
const MAX_PAGE = 500;
/** Far beyond any list here, and within PostgreSQL's bigint. */
const MAX_OFFSET = 1_000_000_000;
/** Tickets are 43 base64url characters; anything far longer is not one of ours. */
const MAX_TICKET_LENGTH = 200;

export function currentStatus(inv: InvitationRow, now: Date): InvitationStatus {
  return inv.status === 'pending' && inv.expires_at.getTime() <= now.getTime() ? 'expired' : inv.status;
}

function current(inv: InvitationRow, now: Date): InvitationRow {
  return { ...inv, status: currentStatus(inv, now) };
}

// ---------------------------------------------------------------------------------------------------------
// Query parameters shared by the FAPI and BAPI lists

export interface Page {
  limit: number;
  offset: number;
}

/**
 * `limit` (1 to 500, default 10) and `offset` (default 0), whole numbers as the SDKs send them; absent
 * or empty means the default. Anything else is refused rather than read as the default: `limit=abc`
 * is a mistake the caller should hear about, and a huge offset must not reach the database.
 */
export function pageOf(query: Record<string, unknown>): Page {
  return {
    limit: pageNumber(query, 'limit', 1, MAX_PAGE) ?? 10,
    offset: pageNumber(query, 'offset', 0, MAX_OFFSET) ?? 0,
  };
}

function pageNumber(query: Record<string, unknown>, name: string, min: number, max: number) {
  const raw = query[name];
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw))
    throw errors.paramFormatInvalid(name, 'a whole number');
  const n = Number(raw);
  if (n < min || n > max) throw errors.paramValueInvalid(name, `${name} must be between ${min} and ${max}.`);
  return n;
}

/** The repeated `status` filter; `fallback` when none is given (null: every status). */
export function statusFilterOf(
  value: unknown,
  fallback: InvitationStatus[] | null,
): InvitationStatus[] | null {
  const raw = (Array.isArray(value) ? value : value === undefined ? [] : [value])
    .map((v) => String(v).trim())
    .filter(Boolean);
  if (!raw.length) return fallback;
  for (const s of raw) {
    if (!INVITATION_STATUSES.includes(s as InvitationStatus)) {
      throw errors.paramValueInvalid('status', `status must be one of ${INVITATION_STATUSES.join(', ')}.`);
    }
  }
  return [...new Set(raw)] as InvitationStatus[];
}

// ---------------------------------------------------------------------------------------------------------
// Creating (and re-sending)

export interface InvitationRequest {
  emailAddress: string | undefined;
  role: string | undefined;
  inviterUserId?: string | null;
  /** The inviting member's role on the Frontend API, which must cover `role`; the Backend API has none. */
  inviterRole?: string;
  publicMetadata?: Record<string, unknown>;
  privateMetadata?: Record<string, unknown>;
  /** Where the ticket link lands instead of the sign-in/sign-up page (must be on an allowed origin). */
  redirectUrl?: string;
  expiresInDays?: number;
}

export interface IssuedInvitation {
  invitation: InvitationRow;
  /** The accept link with the ticket; it exists only here and in the email. */
  url: string;
}

interface ValidRequest {
  email: string;
  role: string;
  inviterUserId: string | null;
  publicMetadata?: Record<string, unknown>;
  privateMetadata?: Record<string, unknown>;
  redirectUrl?: string;
  expiresInDays: number;
}

function validateRequest(r: InvitationRequest, config: IdentityConfig): ValidRequest {
  const email = invitedEmail(r.emailAddress);
  const role = r.role?.trim();
  if (!role) throw errors.paramMissing('role');
  if (!roleByKey(role)) throw errors.paramValueInvalid('role', `${role} is not a role of this application.`);
  assertMayManageRoles(r.inviterRole, role);
  const expiresInDays = r.expiresInDays ?? INVITATION_TTL_DAYS;
  if (!Number.isInteger(expiresInDays) || expiresInDays < 1 || expiresInDays > MAX_INVITATION_TTL_DAYS) {
    throw errors.paramValueInvalid(
      'expires_in_days',
      `expires_in_days must be a whole number from 1 to ${MAX_INVITATION_TTL_DAYS}.`,
    );
  }
  if (r.redirectUrl !== undefined && !isAllowedRedirect(r.redirectUrl, config)) {
    throw errors.paramValueInvalid(
      'redirect_url',
      'redirect_url must point to an allowed origin of this application.',
    );
  }
  return {
    email,
    role,
    inviterUserId: r.inviterUserId ?? null,
    publicMetadata: r.publicMetadata,
    privateMetadata: r.privateMetadata,
    redirectUrl: r.redirectUrl,
    expiresInDays,
  };
}

/**
 * Invites every address (all or nothing: validation runs before anything is written). An address that
 * already has a pending invitation gets it refreshed (new role, ticket and expiry; the old link stops
 * working) rather than a second one. Each address is mailed its link, except Clerk test-mode addresses
 * on development instances. At most `invitationsPerBulkRequest` addresses a request (Clerk's 10), each
 * within its per-recipient sending limit.
 */
export async function createInvitations(
  tx: Queryable,
  deps: IdentityDeps,
  organization: OrganizationRow,
  requests: InvitationRequest[],
  now: Date,
): Promise<IssuedInvitation[]> {
  if (!requests.length) throw errors.paramMissing('email_address');
  const maxPerRequest = deps.config.sendLimits.invitationsPerBulkRequest;
  if (requests.length > maxPerRequest) {
    throw errors.paramValueInvalid(
      'email_address',
      `At most ${maxPerRequest} invitations can be sent in one request.`,
    );
  }
  const valid = requests.map((r) => validateRequest(r, deps.config));
  // One invitation per address; the last request for an address wins.
  const byEmail = new Map(valid.map((v) => [v.email, v]));
  const emails = [...byEmail.keys()];

  const members = new Set(await memberEmailsAmong(tx, organization.id, emails));
  const member = emails.find((e) => members.has(e));
  if (member) throw errors.alreadyMemberEmail(member);
  await assertRoomFor(tx, organization, emails, now);
  // Every address is charged before the first mail goes out, so a refusal never follows a sent mail.
  const mailed = emails.filter((e) => !(deps.config.mode === 'development' && isTestEmail(e)));
  await chargeRecipients(tx, deps.config.sendLimits, 'mail', mailed, now);

  // A pending invitation past its expiry is settled as expired, so the address gets a fresh one.
  await expireOverdueInvitations(tx, organization.id, emails, now);

  const inviterNames = new Map<string, string | null>();
  const issued: IssuedInvitation[] = [];
  for (const v of byEmail.values()) {
    const ticket = randomToken(32);
    const invitation = await upsertPendingInvitation(tx, {
      id: newId('orginv'),
      organizationId: organization.id,
      email: v.email,
      role: v.role,
      ticketHash: sha256(ticket),
      inviterUserId: v.inviterUserId,
      publicMetadata: v.publicMetadata,
      privateMetadata: v.privateMetadata,
      expiresAt: new Date(now.getTime() + v.expiresInDays * DAY_MS),
      now,
    });
    const url = ticketUrl(deps, ticket, v.redirectUrl);
    if (!(deps.config.mode === 'development' && isTestEmail(invitation.email_address))) {
      if (v.inviterUserId && !inviterNames.has(v.inviterUserId)) {
        inviterNames.set(v.inviterUserId, await displayNameOf(tx, v.inviterUserId));
      }
      await deps.mailer.send(
        tx,
        organizationInvitationMail(invitation.email_address, {
          organizationName: organization.name,
          inviterName: v.inviterUserId ? (inviterNames.get(v.inviterUserId) ?? null) : null,
          role: { key: invitation.role, name: roleName(invitation.role) },
          url,
          expiresAt: invitation.expires_at,
          appName: deps.config.applicationName,
          language: organizationMailLanguage(deps.config, organization),
        }),
      );
    }
    issued.push({ invitation, url });
  }
  return issued;
}

async function displayNameOf(tx: Queryable, userId: string): Promise<string | null> {
  const row = await inviterNameFields(tx, userId);
  if (!row) return null;
  const name = [row.first_name, row.last_name].filter(Boolean).join(' ');
  return name || row.email;
}

/** `max_allowed_memberships` (0: unlimited) counts members plus the invitations still open. */
async function assertRoomFor(
  tx: Queryable,
  org: OrganizationRow,
  emails: string[],
  now: Date,
): Promise<void> {
  const max = org.max_allowed_memberships;
  if (max <= 0) return;
  const open = await countOpenInvitations(tx, org.id, now, emails);
  if ((await countMembers(tx, org.id)) + open + emails.length > max) {
    throw errors.organizationMembershipQuotaExceeded(max);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Reading

export async function findOrganizationInvitation(
  tx: Queryable,
  organizationId: string,
  invitationId: string,
  now: Date,
  opts: { lock?: boolean } = {},
): Promise<InvitationRow | null> {
  const row = await findInvitationOfOrganization(tx, organizationId, invitationId, opts);
  return row ? current(row, now) : null;
}

// ---------------------------------------------------------------------------------------------------------
// Revoking and accepting

/** `actorRole`: the revoking member's role on the Frontend API, which must cover the invitation's role. */
export async function revokeInvitation(
  tx: Queryable,
  organizationId: string,
  invitationId: string,
  now: Date,
  actorRole?: string,
): Promise<InvitationRow> {
  const invitation = await findOrganizationInvitation(tx, organizationId, invitationId, now, { lock: true });
  if (!invitation) throw errors.notFound('organization invitation');
  assertMayManageRoles(actorRole, invitation.role);
  if (invitation.status !== 'pending') throw errors.organizationInvitationNotPending();
  return setInvitationStatus(tx, invitation.id, 'revoked', now);
}

/**
 * Makes the user a member with the invitation's role and marks the invitation accepted. Someone who is
 * already a member keeps their membership and role; the invitation is settled all the same.
 */
export async function joinByInvitation(
  tx: Queryable,
  invitation: InvitationRow,
  userId: string,
  now: Date,
): Promise<{ invitation: InvitationRow; organization: OrganizationRow }> {
  const organization = await findOrganization(tx, invitation.organization_id);
  if (!organization) throw errors.notFound('organization');
  if (!(await membershipOf(tx, organization.id, userId))) {
    const max = organization.max_allowed_memberships;
    if (max > 0 && (await countMembers(tx, organization.id)) >= max) {
      throw errors.organizationMembershipQuotaExceeded(max);
    }
    await insertMembership(tx, { organizationId: organization.id, userId, role: invitation.role, now });
  }
  return { invitation: await setInvitationStatus(tx, invitation.id, 'accepted', now), organization };
}

/** `POST /me/organization_invitations/:id/accept`: only invitations to the user's verified addresses. */
export async function acceptInvitationAsUser(
  tx: Queryable,
  userId: string,
  invitationId: string,
  now: Date,
): Promise<{ invitation: InvitationRow; organization: OrganizationRow }> {
  const row = await lockInvitationToUser(tx, invitationId, userId);
  if (!row) throw errors.notFound('organization invitation');
  if (currentStatus(row, now) !== 'pending') throw errors.organizationInvitationNotPending();
  return joinByInvitation(tx, row, userId, now);
}

// ---------------------------------------------------------------------------------------------------------
// Tickets

/** The invitation a ticket belongs to (any status), or null. */
export async function invitationByTicket(
  tx: Queryable,
  ticket: string,
  now: Date,
  opts: { lock?: boolean } = {},
): Promise<InvitationRow | null> {
  if (!ticket || ticket.length > MAX_TICKET_LENGTH) return null;
  const row = await findInvitationByTicketHash(tx, sha256(ticket), opts);
  return row ? current(row, now) : null;
}

/** The pending invitation behind a ticket, locked for this transaction; otherwise Clerk's ticket errors. */
export async function redeemableInvitation(tx: Queryable, ticket: string, now: Date): Promise<InvitationRow> {
  const invitation = await invitationByTicket(tx, ticket, now, { lock: true });
  if (!invitation) throw errors.ticketInvalid();
  if (invitation.status === 'expired') throw errors.ticketExpired();
  if (invitation.status !== 'pending') throw errors.ticketInvalid();
  return invitation;
}

/** Same invitation by id, if it can still be accepted (used when a ticket sign-up completes). */
export async function pendingInvitationById(
  tx: Queryable,
  invitationId: string,
  now: Date,
): Promise<InvitationRow | null> {
  const row = await lockInvitation(tx, invitationId);
  return row && currentStatus(row, now) === 'pending' ? row : null;
}

/**
 * Where `GET /v1/tickets/accept` sends the browser. clerk-js reads `__clerk_ticket` and `__clerk_status`
 * from the page's real query string (not the hash), so they go on the sign-in/sign-up page URL:
 * `<SignIn/>` redeems the ticket (strategy=ticket) unless the status is `sign_up`, `<SignUp/>` creates a
 * ticket sign-up. A ticket that cannot be used still travels to the sign-in page with status `expired`:
 * `<SignIn/>` then tries it and shows our ticket error on its card.
 */
export async function ticketLanding(
  tx: Queryable,
  config: IdentityConfig,
  input: { ticket: string | undefined; redirectUrl: string | undefined },
  now: Date,
): Promise<string> {
  // The app's own pages, as in the environment's display_config.
  const page = (path: string) => new URL(`${config.publicUrl}${path}`);
  const withParams = (url: URL, params: Record<string, string>) => {
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return url.toString();
  };
  const { ticket } = input;
  if (!ticket) return withParams(page('/sign-in'), { __clerk_status: 'expired' });
  // An invitation to the application (a waitlist's) opens sign-up like an organisation's does.
  const instanceInvitation = await instanceInvitationOfTicket(tx, ticket, now);
  const invitation = instanceInvitation
    ? {
        email_address: instanceInvitation.invitation.email_address,
        status: instanceInvitation.pending ? 'pending' : 'expired',
      }
    : await invitationByTicket(tx, ticket, now);
  if (!invitation || invitation.status !== 'pending') {
    return withParams(page('/sign-in'), { __clerk_ticket: ticket, __clerk_status: 'expired' });
  }
  const hasAccount = (await findUserByEmail(tx, invitation.email_address)) !== null;
  const target =
    input.redirectUrl && isAllowedRedirect(input.redirectUrl, config)
      ? new URL(input.redirectUrl, config.publicUrl)
      : page(hasAccount ? '/sign-in' : '/sign-up');
  return withParams(target, { __clerk_ticket: ticket, __clerk_status: hasAccount ? 'sign_in' : 'sign_up' });
}
