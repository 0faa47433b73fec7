import type { Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';
import type { MembershipRow, OrganizationRow } from './rows.ts';

/** Every column but the logo bytes, which are read only by the image route. */
const ORG_COLUMNS = `id, name, slug, image_type, public_metadata, private_metadata, max_allowed_memberships,
  admin_delete_enabled, created_by, created_at, updated_at`;

export async function findOrganization(db: Queryable, idOrSlug: string): Promise<OrganizationRow | null> {
  // Clerk's rule (spec §5): an identifier starting with org_ is an id, anything else a slug.
  const [row] = idOrSlug.startsWith('org_')
    ? await db.query<OrganizationRow>(`SELECT ${ORG_COLUMNS} FROM organizations WHERE id = $1`, [idOrSlug])
    : await db.query<OrganizationRow>(
        `SELECT ${ORG_COLUMNS} FROM organizations WHERE lower(slug) = lower($1)`,
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
    name: string;
    slug: string;
    createdBy: string | null;
    publicMetadata?: Record<string, unknown>;
    privateMetadata?: Record<string, unknown>;
    maxAllowedMemberships?: number;
    now: Date;
  },
): Promise<OrganizationRow> {
  const [row] = await db.query<OrganizationRow>(
    `INSERT INTO organizations (id, name, slug, created_by, public_metadata, private_metadata, max_allowed_memberships,
                                created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING ${ORG_COLUMNS}`,
    [
      newId('org'),
      input.name,
      input.slug,
      input.createdBy,
      JSON.stringify(input.publicMetadata ?? {}),
      JSON.stringify(input.privateMetadata ?? {}),
      input.maxAllowedMemberships ?? 0,
      input.now,
    ],
  );
  return row!;
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

export async function countAdmins(db: Queryable, organizationId: string, adminRole: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM organization_memberships WHERE organization_id = $1 AND role = $2',
    [organizationId, adminRole],
  );
  return row?.n ?? 0;
}

export async function countPendingInvitations(db: Queryable, organizationId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM organization_invitations WHERE organization_id = $1 AND status = 'pending'`,
    [organizationId],
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
