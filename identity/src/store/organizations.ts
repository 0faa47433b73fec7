import type { Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';
import type { MembershipRow, OrganizationRow } from './rows.ts';
import { ownValue } from '../util/own-value.ts';

/** Every column but the logo bytes, which are read only by the image route. */
export const ORG_COLUMNS = `id, name, slug, image_type, public_metadata, private_metadata, max_allowed_memberships,
  admin_delete_enabled, created_by, created_at, updated_at`;

/**
 * The condition on `organizations` that finds the organisation `idOrSlug` names, its value in `placeholder`.
 * Clerk's rule (spec §5): an identifier starting with org_ is an id, anything else a slug.
 */
export function organizationCondition(idOrSlug: string, placeholder: string): string {
  return idOrSlug.startsWith('org_') ? `id = ${placeholder}` : `lower(slug) = lower(${placeholder})`;
}

export async function findOrganization(db: Queryable, idOrSlug: string): Promise<OrganizationRow | null> {
  const [row] = await db.query<OrganizationRow>(
    `SELECT ${ORG_COLUMNS} FROM organizations WHERE ${organizationCondition(idOrSlug, '$1')}`,
    [idOrSlug],
  );
  return row ?? null;
}

export async function organizationsByIds(
  db: Queryable,
  ids: string[],
): Promise<Map<string, OrganizationRow>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await db.query<OrganizationRow>(
    `SELECT ${ORG_COLUMNS} FROM organizations WHERE id = ANY($1)`,
    [unique],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

export async function slugTaken(db: Queryable, slug: string, exceptId?: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM organizations WHERE lower(slug) = lower($1) AND id <> $2', [
    slug,
    exceptId ?? '',
  ]);
  return rows.length > 0;
}

export async function insertOrganization(
  db: Queryable,
  input: {
    /** An id kept from another system (an import); a new one otherwise. */
    id?: string;
    name: string;
    slug: string;
    createdBy: string | null;
    publicMetadata?: Record<string, unknown>;
    privateMetadata?: Record<string, unknown>;
    maxAllowedMemberships?: number;
    createdAt?: Date;
    now: Date;
  },
): Promise<OrganizationRow> {
  const [row] = await db.query<OrganizationRow>(
    `INSERT INTO organizations (id, name, slug, created_by, public_metadata, private_metadata, max_allowed_memberships,
                                created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${ORG_COLUMNS}`,
    [
      input.id ?? newId('org'),
      input.name,
      input.slug,
      input.createdBy,
      JSON.stringify(input.publicMetadata ?? {}),
      JSON.stringify(input.privateMetadata ?? {}),
      input.maxAllowedMemberships ?? 0,
      input.createdAt ?? input.now,
      input.now,
    ],
  );
  return row!;
}

/** Every organisation, oldest first, with its members' user ids and roles (`organizations export`). */
export async function allOrganizationsWithMembers(
  db: Queryable,
): Promise<{ organization: OrganizationRow; members: { user_id: string; role: string }[] }[]> {
  const organizations = await db.query<OrganizationRow>(
    `SELECT ${ORG_COLUMNS} FROM organizations ORDER BY created_at, id`,
  );
  const memberships = await db.query<{ organization_id: string; user_id: string; role: string }>(
    'SELECT organization_id, user_id, role FROM organization_memberships ORDER BY created_at, id',
  );
  const members = new Map(organizations.map((o) => [o.id, [] as { user_id: string; role: string }[]]));
  for (const m of memberships) members.get(m.organization_id)?.push({ user_id: m.user_id, role: m.role });
  return organizations.map((organization) => ({ organization, members: members.get(organization.id)! }));
}

export type OrganizationChanges = Partial<
  Pick<
    OrganizationRow,
    | 'name'
    | 'slug'
    | 'public_metadata'
    | 'private_metadata'
    | 'max_allowed_memberships'
    | 'admin_delete_enabled'
  >
>;

export async function updateOrganization(
  db: Queryable,
  id: string,
  changes: OrganizationChanges,
  now: Date,
): Promise<OrganizationRow> {
  const keys = Object.keys(changes) as (keyof OrganizationChanges)[];
  const values = keys.map((k) => (k.endsWith('_metadata') ? JSON.stringify(changes[k]) : changes[k]));
  const [row] = await db.query<OrganizationRow>(
    `UPDATE organizations SET ${[...keys.map((k, i) => `${k} = $${i + 3}`), 'updated_at = $2'].join(', ')}
     WHERE id = $1 RETURNING ${ORG_COLUMNS}`,
    [id, now, ...values],
  );
  return row!;
}

export async function deleteOrganization(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM organizations WHERE id = $1', [id]);
  // A session whose active organisation is gone falls back to the personal workspace.
  await db.query(
    'UPDATE sessions SET last_active_organization_id = NULL WHERE last_active_organization_id = $1',
    [id],
  );
}

export async function membershipOf(
  db: Queryable,
  organizationId: string,
  userId: string,
): Promise<MembershipRow | null> {
  const [row] = await db.query<MembershipRow>(
    'SELECT * FROM organization_memberships WHERE organization_id = $1 AND user_id = $2',
    [organizationId, userId],
  );
  return row ?? null;
}

/** Memberships of the given users, oldest first (the order "first membership" refers to). */
export async function membershipsOfUsers(db: Queryable, userIds: string[]): Promise<MembershipRow[]> {
  if (!userIds.length) return [];
  return db.query<MembershipRow>(
    'SELECT * FROM organization_memberships WHERE user_id = ANY($1) ORDER BY created_at, id',
    [[...new Set(userIds)]],
  );
}

export async function insertMembership(
  db: Queryable,
  input: { organizationId: string; userId: string; role: string; now: Date },
): Promise<MembershipRow> {
  const [row] = await db.query<MembershipRow>(
    `INSERT INTO organization_memberships (id, organization_id, user_id, role, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $5) RETURNING *`,
    [newId('orgmem'), input.organizationId, input.userId, input.role, input.now],
  );
  return row!;
}

export async function countMembers(db: Queryable, organizationId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM organization_memberships WHERE organization_id = $1',
    [organizationId],
  );
  return row?.n ?? 0;
}

export async function countAdmins(
  db: Queryable,
  organizationId: string,
  adminRoles: readonly string[],
): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM organization_memberships WHERE organization_id = $1 AND role = ANY($2)',
    [organizationId, [...adminRoles]],
  );
  return row?.n ?? 0;
}

/** Organisations created by a user, for `create_organizations_limit`. */
export async function countCreatedBy(db: Queryable, userId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM organizations WHERE created_by = $1',
    [userId],
  );
  return row?.n ?? 0;
}

/** Removing a member also clears the organisation from their sessions, so the next token drops it. */
export async function deleteMembership(
  db: Queryable,
  organizationId: string,
  userId: string,
  now: Date,
): Promise<void> {
  await db.query('DELETE FROM organization_memberships WHERE organization_id = $1 AND user_id = $2', [
    organizationId,
    userId,
  ]);
  await db.query(
    `UPDATE sessions SET last_active_organization_id = NULL, updated_at = $3
     WHERE user_id = $1 AND last_active_organization_id = $2`,
    [userId, organizationId, now],
  );
}

/**
 * Locks the organisation row for the rest of the transaction, so membership changes that check the
 * last-admin rule (or the member quota) run one at a time per organisation.
 */
export async function lockOrganization(db: Queryable, organizationId: string): Promise<boolean> {
  const rows = await db.query('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [organizationId]);
  return rows.length > 0;
}

export async function updateMembershipRole(
  db: Queryable,
  organizationId: string,
  userId: string,
  role: string,
  now: Date,
): Promise<MembershipRow> {
  const [row] = await db.query<MembershipRow>(
    `UPDATE organization_memberships SET role = $3, updated_at = $4
     WHERE organization_id = $1 AND user_id = $2 RETURNING *`,
    [organizationId, userId, role, now],
  );
  return row!;
}

export async function updateMembershipMetadata(
  db: Queryable,
  membershipId: string,
  metadata: { public_metadata: Record<string, unknown>; private_metadata: Record<string, unknown> },
  now: Date,
): Promise<MembershipRow> {
  const [row] = await db.query<MembershipRow>(
    `UPDATE organization_memberships SET public_metadata = $2, private_metadata = $3, updated_at = $4
     WHERE id = $1 RETURNING *`,
    [membershipId, JSON.stringify(metadata.public_metadata), JSON.stringify(metadata.private_metadata), now],
  );
  return row!;
}

export interface MembershipFilter {
  /** Any of these roles (none: every role). */
  roles?: string[];
  userIds?: string[];
  /** Members with any of these email addresses (case-insensitive). */
  emailAddresses?: string[];
  /** Partial, case-insensitive match on the user id, first or last name, username or email address. */
  query?: string;
}

const MEMBERSHIP_ORDERS: Record<string, string> = {
  created_at: 'm.created_at ASC, m.id ASC',
  '-created_at': 'm.created_at DESC, m.id DESC',
  first_name: 'u.first_name ASC NULLS LAST, m.id ASC',
  '-first_name': 'u.first_name DESC NULLS LAST, m.id DESC',
  last_name: 'u.last_name ASC NULLS LAST, m.id ASC',
  '-last_name': 'u.last_name DESC NULLS LAST, m.id DESC',
  username: 'u.username ASC NULLS LAST, m.id ASC',
  '-username': 'u.username DESC NULLS LAST, m.id DESC',
  email_address: 'pe.email_address ASC NULLS LAST, m.id ASC',
  '-email_address': 'pe.email_address DESC NULLS LAST, m.id DESC',
  phone_number: 'pp.phone_number ASC NULLS LAST, m.id ASC',
  '-phone_number': 'pp.phone_number DESC NULLS LAST, m.id DESC',
};

/** The `order_by` values the membership lists accept (`+` or no sign: ascending). */
export const MEMBERSHIP_ORDER_KEYS = Object.keys(MEMBERSHIP_ORDERS);

/** A page of an organisation's memberships and the count of all that match, oldest first by default. */
export async function listOrganizationMemberships(
  db: Queryable,
  /** Null: every organisation's (the Backend API's instance-wide list). */
  organizationId: string | null,
  filter: MembershipFilter,
  page: { limit: number; offset: number },
  orderBy = 'created_at',
): Promise<{ data: MembershipRow[]; total: number }> {
  const params: unknown[] = organizationId === null ? [] : [organizationId];
  const clauses = organizationId === null ? ['TRUE'] : ['m.organization_id = $1'];
  const add = (sql: (n: number) => string, value: unknown) => {
    params.push(value);
    clauses.push(sql(params.length));
  };
  if (filter.roles?.length) add((n) => `m.role = ANY($${n})`, filter.roles);
  if (filter.userIds?.length) add((n) => `m.user_id = ANY($${n})`, filter.userIds);
  if (filter.emailAddresses?.length) {
    add(
      (n) => `m.user_id IN (SELECT user_id FROM email_addresses WHERE lower(email_address) = ANY($${n}))`,
      filter.emailAddresses.map((e) => e.toLowerCase()),
    );
  }
  if (filter.query) {
    // LIKE wildcards in the query match themselves.
    const pattern = `%${filter.query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    add(
      (n) => `(lower(u.id) LIKE $${n} OR lower(u.first_name) LIKE $${n} OR lower(u.last_name) LIKE $${n}
        OR lower(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) LIKE $${n}
        OR lower(u.username) LIKE $${n}
        OR u.id IN (SELECT user_id FROM email_addresses WHERE lower(email_address) LIKE $${n}))`,
      pattern,
    );
  }
  const from = `FROM organization_memberships m JOIN users u ON u.id = m.user_id
    LEFT JOIN email_addresses pe ON pe.id = u.primary_email_address_id
    LEFT JOIN phone_numbers pp ON pp.id = u.primary_phone_number_id
    WHERE ${clauses.join(' AND ')}`;
  const order = ownValue(MEMBERSHIP_ORDERS, orderBy) ?? MEMBERSHIP_ORDERS.created_at;
  const data = await db.query<MembershipRow>(
    `SELECT m.* ${from} ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}`,
    params,
  );
  const [count] = await db.query<{ n: number }>(`SELECT count(*)::int AS n ${from}`, params);
  return { data, total: count?.n ?? 0 };
}

/** A page of a user's memberships, oldest first (the order of `user.organization_memberships`). */
export async function listUserMemberships(
  db: Queryable,
  userId: string,
  page: { limit: number; offset: number },
): Promise<{ data: MembershipRow[]; total: number }> {
  const data = await db.query<MembershipRow>(
    `SELECT * FROM organization_memberships WHERE user_id = $1 ORDER BY created_at, id
     LIMIT ${page.limit} OFFSET ${page.offset}`,
    [userId],
  );
  const [count] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM organization_memberships WHERE user_id = $1',
    [userId],
  );
  return { data, total: count?.n ?? 0 };
}

export interface OrganizationCounts {
  members: number;
  pendingInvitations: number;
}

/** Member and open-invitation counts of several organisations in two queries. */
export async function organizationCounts(
  db: Queryable,
  ids: string[],
  now: Date,
): Promise<Map<string, OrganizationCounts>> {
  const unique = [...new Set(ids)];
  const counts = new Map<string, OrganizationCounts>(
    unique.map((id) => [id, { members: 0, pendingInvitations: 0 }]),
  );
  if (!unique.length) return counts;
  const members = await db.query<{ id: string; n: number }>(
    `SELECT organization_id AS id, count(*)::int AS n FROM organization_memberships
     WHERE organization_id = ANY($1) GROUP BY organization_id`,
    [unique],
  );
  for (const r of members) counts.get(r.id)!.members = r.n;
  const invitations = await db.query<{ id: string; n: number }>(
    `SELECT organization_id AS id, count(*)::int AS n FROM organization_invitations
     WHERE organization_id = ANY($1) AND status = 'pending' AND expires_at > $2 GROUP BY organization_id`,
    [unique, now],
  );
  for (const r of invitations) counts.get(r.id)!.pendingInvitations = r.n;
  return counts;
}

export interface OrganizationFilter {
  organizationIds?: string[];
  /** Partial, case-insensitive match on the name or slug; an exact match on the id. */
  query?: string;
}

const ORGANIZATION_ORDERS: Record<string, string> = {
  created_at: 'o.created_at ASC, o.id ASC',
  '-created_at': 'o.created_at DESC, o.id DESC',
  name: 'lower(o.name) ASC, o.id ASC',
  '-name': 'lower(o.name) DESC, o.id DESC',
  members_count: `(SELECT count(*) FROM organization_memberships c WHERE c.organization_id = o.id) ASC, o.id ASC`,
  '-members_count': `(SELECT count(*) FROM organization_memberships c WHERE c.organization_id = o.id) DESC, o.id DESC`,
};

export const ORGANIZATION_ORDER_KEYS = Object.keys(ORGANIZATION_ORDERS);

/** A page of the instance's organisations, newest first by default, and the count of all that match. */
export async function listOrganizations(
  db: Queryable,
  filter: OrganizationFilter,
  page: { limit: number; offset: number },
  orderBy = '-created_at',
): Promise<{ data: OrganizationRow[]; total: number }> {
  const params: unknown[] = [];
  const clauses: string[] = [];
  const add = (sql: (n: number) => string, value: unknown) => {
    params.push(value);
    clauses.push(sql(params.length));
  };
  if (filter.organizationIds?.length) add((n) => `o.id = ANY($${n})`, filter.organizationIds);
  if (filter.query) {
    const pattern = `%${filter.query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    params.push(filter.query);
    const exact = params.length;
    add((n) => `(o.id = $${exact} OR lower(o.name) LIKE $${n} OR lower(o.slug) LIKE $${n})`, pattern);
  }
  const where = clauses.length ? `WHERE ${clauses.join(' AND ')}` : '';
  const order = ownValue(ORGANIZATION_ORDERS, orderBy) ?? ORGANIZATION_ORDERS['-created_at'];
  const columns = ORG_COLUMNS.split(',')
    .map((c) => `o.${c.trim()}`)
    .join(', ');
  const data = await db.query<OrganizationRow>(
    `SELECT ${columns} FROM organizations o ${where} ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}`,
    params,
  );
  const [count] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM organizations o ${where}`,
    params,
  );
  return { data, total: count?.n ?? 0 };
}

export interface OrganizationImage {
  data: Buffer;
  type: string;
}

/** Stores (or, with null, removes) the logo; `updated_at` moves, so the versioned image URL changes. */
export async function setOrganizationImage(
  db: Queryable,
  organizationId: string,
  image: OrganizationImage | null,
  now: Date,
): Promise<OrganizationRow> {
  const [row] = await db.query<OrganizationRow>(
    `UPDATE organizations SET image_data = $2, image_type = $3, updated_at = $4 WHERE id = $1
     RETURNING ${ORG_COLUMNS}`,
    [organizationId, image?.data ?? null, image?.type ?? null, now],
  );
  return row!;
}

export async function organizationImage(
  db: Queryable,
  organizationId: string,
): Promise<OrganizationImage | null> {
  const [row] = await db.query<{ image_data: Uint8Array | null; image_type: string | null }>(
    'SELECT image_data, image_type FROM organizations WHERE id = $1',
    [organizationId],
  );
  if (!row?.image_data || !row.image_type) return null;
  return { data: Buffer.from(row.image_data), type: row.image_type };
}

/**
 * Slug uniqueness is decided under one transaction-scoped lock, so two organisations created at the
 * same time cannot both pick (or both be told they may take) the same slug.
 */
export async function lockOrganizationSlugs(tx: Queryable): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('identity:organization_slugs'))`);
}

/** The organisation's metadata, its row locked so that concurrent merges do not lose each other's keys. */
export async function lockOrganizationMetadata(
  tx: Queryable,
  organizationId: string,
): Promise<Pick<OrganizationRow, 'public_metadata' | 'private_metadata'> | null> {
  const [row] = await tx.query<Pick<OrganizationRow, 'public_metadata' | 'private_metadata'>>(
    'SELECT public_metadata, private_metadata FROM organizations WHERE id = $1 FOR UPDATE',
    [organizationId],
  );
  return row ?? null;
}
