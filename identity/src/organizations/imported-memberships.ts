import type { Queryable } from '../db/database.ts';
import { errors } from '../errors.ts';
import {
  countMembers,
  findOrganization,
  insertMembership,
  lockOrganization,
  membershipOf,
} from '../store/organizations.ts';
import type { OrganizationRow } from '../store/rows.ts';
import { roleByKey } from './roles.ts';

/**
 * Memberships an import brings (docs/operations.md, "Moving users in and out"): a user's
 * `organization_memberships` in `users import`, an organisation's `memberships` in `organizations import`.
 * Unlike `addMember`, one that exists already is kept as it is, so a re-run changes nothing.
 */

/** One membership of an import line: `ref` is the organisation (id or slug) or the user id, by the list. */
export interface ImportedMembership {
  ref: string;
  role: string;
}

/**
 * The list `field` of an import line, each entry `{ <key>, role }` with a role of this application;
 * a second entry for the same `ref` is dropped. Throws the field's ClerkError.
 */
export function importedMemberships(
  value: unknown,
  field: string,
  key: 'organization' | 'user_id',
): ImportedMembership[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw errors.paramFormatInvalid(field, `an array of { ${key}, role }`);
  const seen = new Set<string>();
  const list: ImportedMembership[] = [];
  value.forEach((entry: unknown, i) => {
    const at = `${field}[${i}]`;
    if (!entry || typeof entry !== 'object' || Array.isArray(entry))
      throw errors.paramFormatInvalid(at, `{ ${key}, role }`);
    const { [key]: ref, role } = entry as Record<string, unknown>;
    if (typeof ref !== 'string' || !ref.trim()) throw errors.paramMissing(`${at}.${key}`);
    if (typeof role !== 'string' || !role.trim()) throw errors.paramMissing(`${at}.role`);
    if (!roleByKey(role.trim()))
      throw errors.paramValueInvalid(`${at}.role`, 'not a role of this application.');
    if (seen.has(ref.trim())) return;
    seen.add(ref.trim());
    list.push({ ref: ref.trim(), role: role.trim() });
  });
  return list;
}

/** Why the organisation can take no new member (its quota), or null. */
async function quotaRefusal(tx: Queryable, organization: OrganizationRow): Promise<string | null> {
  const max = organization.max_allowed_memberships;
  if (max > 0 && (await countMembers(tx, organization.id)) >= max)
    return `the organization has its ${max} members`;
  return null;
}

/**
 * The organisations of a new user's memberships, or why one cannot be joined (no such organisation, or
 * full): checked before the user is written, so a refused line writes nothing.
 */
export async function organizationsToJoin(
  tx: Queryable,
  memberships: ImportedMembership[],
): Promise<{ organization: OrganizationRow; role: string }[] | { reason: string }> {
  const joins: { organization: OrganizationRow; role: string }[] = [];
  for (const [i, m] of memberships.entries()) {
    const organization = await findOrganization(tx, m.ref);
    const at = `organization_memberships[${i}].organization`;
    if (!organization) return { reason: `${at}: no such organization` };
    const full = await quotaRefusal(tx, organization);
    if (full) return { reason: `${at}: ${full}` };
    joins.push({ organization, role: m.role });
  }
  return joins;
}

/** Makes the user (who exists) a member with `role`, unless they are one already (kept as is) or it is full. */
export async function joinImported(
  tx: Queryable,
  organization: OrganizationRow,
  userId: string,
  role: string,
  now: Date,
): Promise<'added' | 'kept' | { reason: string }> {
  if (!(await lockOrganization(tx, organization.id))) return { reason: 'no such organization' };
  if (await membershipOf(tx, organization.id, userId)) return 'kept';
  const full = await quotaRefusal(tx, organization);
  if (full) return { reason: full };
  await insertMembership(tx, { organizationId: organization.id, userId, role, now });
  return 'added';
}
