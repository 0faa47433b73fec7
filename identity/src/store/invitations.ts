import type { Queryable } from '../db/database.ts';
import type { InvitationRow, InvitationStatus } from './rows.ts';

/** Every column but the ticket's hash, which never leaves the database. */
const COLUMNS = `id, organization_id, email_address, role, status, inviter_user_id, public_metadata,
  private_metadata, expires_at, created_at, updated_at`;
/** The same columns, with the status as callers must see it (`$1` is the current time). */
const CURRENT_COLUMNS = `id, organization_id, email_address, role,
  CASE WHEN status = 'pending' AND expires_at <= $1 THEN 'expired' ELSE status END AS status,
  inviter_user_id, public_metadata, private_metadata, expires_at, created_at, updated_at`;

export interface InvitationPage {
  data: InvitationRow[];
  total: number;
}

/** Which of `emails` (lowercased) are verified addresses of members of the organisation. */
export async function memberEmailsAmong(
  tx: Queryable,
  organizationId: string,
  emails: string[],
): Promise<string[]> {
  const rows = await tx.query<{ email: string }>(
    `SELECT lower(e.email_address) AS email FROM email_addresses e
         JOIN organization_memberships m ON m.user_id = e.user_id
         WHERE m.organization_id = $1 AND e.verified_at IS NOT NULL AND lower(e.email_address) = ANY($2)`,
    [organizationId, emails],
  );
  return rows.map((r) => r.email);
}

/** Pending invitations to these addresses that are past their expiry are settled as expired. */
export async function expireOverdueInvitations(
  tx: Queryable,
  organizationId: string,
  emails: string[],
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE organization_invitations SET status = 'expired', updated_at = $3
     WHERE organization_id = $1 AND lower(email_address) = ANY($2) AND status = 'pending' AND expires_at <= $3`,
    [organizationId, emails, now],
  );
}

/**
 * A new pending invitation, or the address's pending one refreshed: new role, ticket and expiry; the
 * inviter and metadata kept where none is given.
 */
export async function upsertPendingInvitation(
  tx: Queryable,
  input: {
    id: string;
    organizationId: string;
    email: string;
    role: string;
    ticketHash: string;
    inviterUserId: string | null;
    publicMetadata?: Record<string, unknown>;
    privateMetadata?: Record<string, unknown>;
    expiresAt: Date;
    now: Date;
  },
): Promise<InvitationRow> {
  const [row] = await tx.query<InvitationRow>(
    `INSERT INTO organization_invitations (id, organization_id, email_address, role, status, ticket_hash,
         inviter_user_id, public_metadata, private_metadata, expires_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'pending', $5, $6, COALESCE($7::jsonb, '{}'::jsonb), COALESCE($8::jsonb, '{}'::jsonb),
         $9, $10, $10)
       ON CONFLICT (organization_id, lower(email_address)) WHERE status = 'pending' DO UPDATE SET
         role = EXCLUDED.role,
         ticket_hash = EXCLUDED.ticket_hash,
         inviter_user_id = COALESCE(EXCLUDED.inviter_user_id, organization_invitations.inviter_user_id),
         public_metadata = COALESCE($7::jsonb, organization_invitations.public_metadata),
         private_metadata = COALESCE($8::jsonb, organization_invitations.private_metadata),
         expires_at = EXCLUDED.expires_at,
         updated_at = EXCLUDED.updated_at
       RETURNING ${COLUMNS}`,
    [
      input.id,
      input.organizationId,
      input.email,
      input.role,
      input.ticketHash,
      input.inviterUserId,
      input.publicMetadata === undefined ? null : JSON.stringify(input.publicMetadata),
      input.privateMetadata === undefined ? null : JSON.stringify(input.privateMetadata),
      input.expiresAt,
      input.now,
    ],
  );
  return row!;
}

/** The inviter's names and primary address, for the invitation mail; null for no such user. */
export async function inviterNameFields(
  tx: Queryable,
  userId: string,
): Promise<{ first_name: string | null; last_name: string | null; email: string | null } | null> {
  const [row] = await tx.query<{ first_name: string | null; last_name: string | null; email: string | null }>(
    `SELECT u.first_name, u.last_name, e.email_address AS email FROM users u
     LEFT JOIN email_addresses e ON e.id = u.primary_email_address_id WHERE u.id = $1`,
    [userId],
  );
  return row ?? null;
}

/** Invitations still open (pending, not expired), leaving out those to `exceptEmails` (lowercased). */
export async function countOpenInvitations(
  tx: Queryable,
  organizationId: string,
  now: Date,
  exceptEmails: string[],
): Promise<number> {
  const [row] = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM organization_invitations
     WHERE organization_id = $1 AND status = 'pending' AND expires_at > $2 AND NOT (lower(email_address) = ANY($3))`,
    [organizationId, now, exceptEmails],
  );
  return row?.n ?? 0;
}

export async function listOrganizationInvitations(
  tx: Queryable,
  organizationId: string,
  statuses: InvitationStatus[] | null,
  page: { limit: number; offset: number },
  now: Date,
): Promise<InvitationPage> {
  return listWhere(tx, 'organization_id = $2', [organizationId], statuses, page, now);
}

/** Invitations to any verified address of the user, whichever organisation sent them. */
export async function listUserInvitations(
  tx: Queryable,
  userId: string,
  statuses: InvitationStatus[] | null,
  page: { limit: number; offset: number },
  now: Date,
): Promise<InvitationPage> {
  return listWhere(
    tx,
    `lower(email_address) IN (SELECT lower(email_address) FROM email_addresses
                              WHERE user_id = $2 AND verified_at IS NOT NULL)`,
    [userId],
    statuses,
    page,
    now,
  );
}

/** Newest first; `statuses` filters on the status as callers see it (null: every status). */
async function listWhere(
  tx: Queryable,
  where: string,
  params: [string],
  statuses: InvitationStatus[] | null,
  page: { limit: number; offset: number },
  now: Date,
): Promise<InvitationPage> {
  const sql = `SELECT * FROM (SELECT ${CURRENT_COLUMNS} FROM organization_invitations WHERE ${where}) inv
               WHERE $3::text[] IS NULL OR status = ANY($3::text[])`;
  const args = [now, ...params, statuses];
  const data = await tx.query<InvitationRow>(
    `${sql} ORDER BY created_at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
    args,
  );
  const [count] = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${sql}) c`, args);
  return { data, total: count?.n ?? 0 };
}

/** The stored row, status as stored (a pending one may be past its expiry). */
export async function findInvitationOfOrganization(
  tx: Queryable,
  organizationId: string,
  invitationId: string,
  opts: { lock?: boolean } = {},
): Promise<InvitationRow | null> {
  const [row] = await tx.query<InvitationRow>(
    `SELECT ${COLUMNS} FROM organization_invitations WHERE id = $1 AND organization_id = $2${opts.lock ? ' FOR UPDATE' : ''}`,
    [invitationId, organizationId],
  );
  return row ?? null;
}

export async function setInvitationStatus(
  tx: Queryable,
  id: string,
  status: InvitationStatus,
  now: Date,
): Promise<InvitationRow> {
  const [row] = await tx.query<InvitationRow>(
    `UPDATE organization_invitations SET status = $2, updated_at = $3 WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, status, now],
  );
  return row!;
}

/** The invitation, locked, if it was sent to one of the user's verified addresses; status as stored. */
export async function lockInvitationToUser(
  tx: Queryable,
  invitationId: string,
  userId: string,
): Promise<InvitationRow | null> {
  const [row] = await tx.query<InvitationRow>(
    `SELECT ${COLUMNS} FROM organization_invitations
     WHERE id = $1 AND lower(email_address) IN (SELECT lower(email_address) FROM email_addresses
                                                WHERE user_id = $2 AND verified_at IS NOT NULL)
     FOR UPDATE`,
    [invitationId, userId],
  );
  return row ?? null;
}

/** The invitation whose ticket hashes to `ticketHash`, status as stored; `lock` holds it. */
export async function findInvitationByTicketHash(
  tx: Queryable,
  ticketHash: string,
  opts: { lock?: boolean } = {},
): Promise<InvitationRow | null> {
  const [row] = await tx.query<InvitationRow>(
    `SELECT ${COLUMNS} FROM organization_invitations WHERE ticket_hash = $1${opts.lock ? ' FOR UPDATE' : ''}`,
    [ticketHash],
  );
  return row ?? null;
}

/** The invitation, locked for this transaction; status as stored. */
export async function lockInvitation(tx: Queryable, invitationId: string): Promise<InvitationRow | null> {
  const [row] = await tx.query<InvitationRow>(
    `SELECT ${COLUMNS} FROM organization_invitations WHERE id = $1 FOR UPDATE`,
    [invitationId],
  );
  return row ?? null;
}
