import type { Queryable } from '../db/database.ts';
import { ownValue } from '../util/own-value.ts';

/** Migration 026. */
export type WaitlistEntryStatus = 'pending' | 'invited' | 'completed' | 'rejected';
export const WAITLIST_ENTRY_STATUSES: readonly WaitlistEntryStatus[] = [
  'pending',
  'invited',
  'completed',
  'rejected',
];

export interface WaitlistEntryRow {
  id: string;
  email_address: string;
  status: WaitlistEntryStatus;
  invitation_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** pending | accepted | revoked as stored; `expired` is read from `expires_at`. */
export type InstanceInvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

export interface InstanceInvitationRow {
  id: string;
  email_address: string;
  status: InstanceInvitationStatus;
  public_metadata: Record<string, unknown>;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
}

const INVITATION_COLUMNS = `id, email_address, status, public_metadata, expires_at, created_at, updated_at`;

/**
 * The address's entry, made now if it has none. `created` says which: a second join changes nothing
 * (the unique index on the lowercased address decides between two joining at once).
 */
export async function insertWaitlistEntryIfAbsent(
  tx: Queryable,
  input: { id: string; email: string; now: Date },
): Promise<{ entry: WaitlistEntryRow; created: boolean }> {
  const [inserted] = await tx.query<WaitlistEntryRow>(
    `INSERT INTO waitlist_entries (id, email_address, status, created_at, updated_at)
     VALUES ($1, $2, 'pending', $3, $3)
     ON CONFLICT (lower(email_address)) DO NOTHING RETURNING *`,
    [input.id, input.email, input.now],
  );
  if (inserted) return { entry: inserted, created: true };
  const existing = await findWaitlistEntryByEmail(tx, input.email);
  return { entry: existing!, created: false };
}

export async function findWaitlistEntryByEmail(
  tx: Queryable,
  email: string,
): Promise<WaitlistEntryRow | null> {
  const [row] = await tx.query<WaitlistEntryRow>(
    `SELECT * FROM waitlist_entries WHERE lower(email_address) = lower($1)`,
    [email],
  );
  return row ?? null;
}

export async function findWaitlistEntry(
  tx: Queryable,
  id: string,
  opts: { lock?: boolean } = {},
): Promise<WaitlistEntryRow | null> {
  const [row] = await tx.query<WaitlistEntryRow>(
    `SELECT * FROM waitlist_entries WHERE id = $1${opts.lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return row ?? null;
}

export async function findWaitlistEntryByInvitation(
  tx: Queryable,
  invitationId: string,
): Promise<WaitlistEntryRow | null> {
  const [row] = await tx.query<WaitlistEntryRow>(
    `SELECT * FROM waitlist_entries WHERE invitation_id = $1 FOR UPDATE`,
    [invitationId],
  );
  return row ?? null;
}

export async function setWaitlistEntryStatus(
  tx: Queryable,
  id: string,
  status: WaitlistEntryStatus,
  invitationId: string | null | undefined,
  now: Date,
): Promise<WaitlistEntryRow> {
  const [row] = await tx.query<WaitlistEntryRow>(
    `UPDATE waitlist_entries SET status = $2, updated_at = $3,
       invitation_id = CASE WHEN $4::boolean THEN $5 ELSE invitation_id END
     WHERE id = $1 RETURNING *`,
    [id, status, now, invitationId !== undefined, invitationId ?? null],
  );
  return row!;
}

/** The order a list may ask for (`order_by`, `-` for descending), as columns; the id breaks ties. */
const ORDERS: Record<string, string> = {
  created_at: 'w.created_at ASC, w.id ASC',
  '-created_at': 'w.created_at DESC, w.id DESC',
  '+created_at': 'w.created_at ASC, w.id ASC',
  invited_at: 'i.created_at ASC NULLS LAST, w.id ASC',
  '-invited_at': 'i.created_at DESC NULLS LAST, w.id DESC',
  '+invited_at': 'i.created_at ASC NULLS LAST, w.id ASC',
  email_address: 'lower(w.email_address) ASC, w.id ASC',
  '-email_address': 'lower(w.email_address) DESC, w.id DESC',
  '+email_address': 'lower(w.email_address) ASC, w.id ASC',
};
export const WAITLIST_ORDERS = Object.keys(ORDERS);

/** A page of entries and how many match in all: `query` matches the address (substring) or the id. */
export async function listWaitlistEntries(
  tx: Queryable,
  input: {
    query: string | null;
    status: WaitlistEntryStatus | null;
    orderBy: string;
    limit: number;
    offset: number;
  },
): Promise<{ data: WaitlistEntryRow[]; total: number }> {
  const where = `($1::text IS NULL OR w.id = $1 OR strpos(lower(w.email_address), lower($1)) > 0)
     AND ($2::text IS NULL OR w.status = $2)`;
  const rows = await tx.query<WaitlistEntryRow & { total: number }>(
    `SELECT w.*, count(*) OVER ()::int AS total FROM waitlist_entries w
       LEFT JOIN instance_invitations i ON i.id = w.invitation_id
     WHERE ${where} ORDER BY ${ownValue(ORDERS, input.orderBy) ?? ORDERS['-created_at']} LIMIT $3 OFFSET $4`,
    [input.query, input.status, input.limit, input.offset],
  );
  if (rows.length || input.offset === 0) {
    return { data: rows.map(({ total: _t, ...r }) => r), total: rows[0]?.total ?? 0 };
  }
  // An offset past the end: the count still answers how many there are.
  const [count] = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM waitlist_entries w WHERE ${where}`,
    [input.query, input.status],
  );
  return { data: [], total: count?.n ?? 0 };
}

// ---------------------------------------------------------------------------------------------------------
// Invitations to the application

export async function insertInstanceInvitation(
  tx: Queryable,
  input: {
    id: string;
    email: string;
    ticketHash: string;
    expiresAt: Date;
    now: Date;
    publicMetadata?: Record<string, unknown>;
  },
): Promise<InstanceInvitationRow> {
  const [row] = await tx.query<InstanceInvitationRow>(
    `INSERT INTO instance_invitations
       (id, email_address, status, ticket_hash, public_metadata, expires_at, created_at, updated_at)
     VALUES ($1, $2, 'pending', $3, $4, $5, $6, $6) RETURNING ${INVITATION_COLUMNS}`,
    [
      input.id,
      input.email,
      input.ticketHash,
      JSON.stringify(input.publicMetadata ?? {}),
      input.expiresAt,
      input.now,
    ],
  );
  return row!;
}

/** The invitations still open to an address are revoked (a new one replaces them: one live link). */
export async function revokeOpenInstanceInvitations(tx: Queryable, email: string, now: Date): Promise<void> {
  await tx.query(
    `UPDATE instance_invitations SET status = 'revoked', updated_at = $2
     WHERE lower(email_address) = lower($1) AND status = 'pending'`,
    [email, now],
  );
}

export async function findInstanceInvitation(
  tx: Queryable,
  id: string,
): Promise<InstanceInvitationRow | null> {
  const [row] = await tx.query<InstanceInvitationRow>(
    `SELECT ${INVITATION_COLUMNS} FROM instance_invitations WHERE id = $1`,
    [id],
  );
  return row ?? null;
}

export async function findInstanceInvitationByTicketHash(
  tx: Queryable,
  ticketHash: string,
  opts: { lock?: boolean } = {},
): Promise<InstanceInvitationRow | null> {
  const [row] = await tx.query<InstanceInvitationRow>(
    `SELECT ${INVITATION_COLUMNS} FROM instance_invitations WHERE ticket_hash = $1${opts.lock ? ' FOR UPDATE' : ''}`,
    [ticketHash],
  );
  return row ?? null;
}

export async function lockInstanceInvitation(
  tx: Queryable,
  id: string,
): Promise<InstanceInvitationRow | null> {
  const [row] = await tx.query<InstanceInvitationRow>(
    `SELECT ${INVITATION_COLUMNS} FROM instance_invitations WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return row ?? null;
}

export async function setInstanceInvitationStatus(
  tx: Queryable,
  id: string,
  status: 'accepted' | 'revoked',
  now: Date,
): Promise<InstanceInvitationRow> {
  const [row] = await tx.query<InstanceInvitationRow>(
    `UPDATE instance_invitations SET status = $2, updated_at = $3 WHERE id = $1 RETURNING ${INVITATION_COLUMNS}`,
    [id, status, now],
  );
  return row!;
}

/** Whether an address has an invitation to the application still open (pending and not past its expiry). */
export async function hasOpenInstanceInvitation(tx: Queryable, email: string, now: Date): Promise<boolean> {
  const [row] = await tx.query<{ id: string }>(
    `SELECT id FROM instance_invitations
     WHERE lower(email_address) = lower($1) AND status = 'pending' AND expires_at > $2 LIMIT 1`,
    [email, now],
  );
  return row !== undefined;
}

/**
 * Two invitations to one address created at once are decided one after the other (PostgreSQL; PGlite
 * has one connection): the check for an open invitation and the insert hold this lock to the commit.
 */
export async function lockInstanceInvitationAddress(tx: Queryable, email: string): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('identity:instance_invitation:' || lower($1)))`, [
    email,
  ]);
}

/** The order a list may ask for (`order_by`, `-` for descending), as columns; the id breaks ties. */
const INVITATION_ORDERS: Record<string, string> = {
  created_at: 'created_at ASC, id ASC',
  '+created_at': 'created_at ASC, id ASC',
  '-created_at': 'created_at DESC, id DESC',
  email_address: 'lower(email_address) ASC, id ASC',
  '+email_address': 'lower(email_address) ASC, id ASC',
  '-email_address': 'lower(email_address) DESC, id DESC',
  expires_at: 'expires_at ASC, id ASC',
  '+expires_at': 'expires_at ASC, id ASC',
  '-expires_at': 'expires_at DESC, id DESC',
};
export const INSTANCE_INVITATION_ORDERS = Object.keys(INVITATION_ORDERS);

/**
 * A page of invitations to the application and how many match in all. `statuses` are read as the
 * caller sees them: `expired` is a pending row past its expiry, `pending` one before it. `query`
 * matches the address (substring) or the id.
 */
export async function listInstanceInvitations(
  tx: Queryable,
  input: {
    query: string | null;
    statuses: InstanceInvitationStatus[] | null;
    orderBy: string;
    limit: number;
    offset: number;
    now: Date;
  },
): Promise<{ data: InstanceInvitationRow[]; total: number }> {
  const where = `($1::text IS NULL OR id = $1 OR strpos(lower(email_address), lower($1)) > 0)
     AND ($2::text[] IS NULL OR (CASE WHEN status = 'pending' AND expires_at <= $3 THEN 'expired' ELSE status END) = ANY($2))`;
  const params = [input.query, input.statuses, input.now];
  const rows = await tx.query<InstanceInvitationRow & { total: number }>(
    `SELECT ${INVITATION_COLUMNS}, count(*) OVER ()::int AS total FROM instance_invitations
     WHERE ${where}
     ORDER BY ${ownValue(INVITATION_ORDERS, input.orderBy) ?? INVITATION_ORDERS['-created_at']} LIMIT $4 OFFSET $5`,
    [...params, input.limit, input.offset],
  );
  if (rows.length || input.offset === 0) {
    return { data: rows.map(({ total: _t, ...r }) => r), total: rows[0]?.total ?? 0 };
  }
  const [count] = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM instance_invitations WHERE ${where}`,
    params,
  );
  return { data: [], total: count?.n ?? 0 };
}
