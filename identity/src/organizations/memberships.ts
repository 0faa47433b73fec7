import type { Queryable } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import { errors } from '../errors.ts';
import { membershipJSON, type PublicUserData } from '../serializers/organization.ts';
import { publicUserDataJSON } from '../serializers/user.ts';
import {
  countAdmins,
  countMembers,
  deleteMembership,
  insertMembership,
  lockOrganization,
  membershipOf,
  organizationsByIds,
  updateMembershipMetadata,
  updateMembershipRole,
  type OrganizationCounts,
} from '../store/organizations.ts';
import type { MembershipRow, OrganizationRow } from '../store/rows.ts';
import { pendSessionsWithoutOrganization } from '../store/user-sessions.ts';
import { emailAddressesOf, findUserById, findUsersByIds } from '../store/users.ts';
import { deepMerge } from '../util/deep-merge.ts';
import { assertMayManageRoles } from './role-management.ts';
import { LAST_ADMIN_ROLES, roleByKey } from './roles.ts';

/**
 * Organisation memberships, shared by the Frontend API (the Clerk components, where the caller's
 * permission has already been checked) and the Backend API: adding a member, changing a role, removing
 * a member or leaving. Every change runs under a lock of the organisation row, so the last-admin rule
 * holds even when two admins demote each other at the same moment. `actorRole` is the acting member's
 * role on the Frontend API (see role-management.ts); the Backend API passes none.
 */

/** The trimmed role key, if it is one of the instance's roles. */
export function validateRole(raw: string | undefined): string {
  const role = raw?.trim();
  if (!role) throw errors.paramMissing('role');
  if (!roleByKey(role)) throw errors.paramValueInvalid('role', `${role} is not a role of this application.`);
  return role;
}

async function lock(tx: Queryable, organization: OrganizationRow): Promise<void> {
  if (!(await lockOrganization(tx, organization.id))) throw errors.notFound('organization');
}

async function existingMembership(
  tx: Queryable,
  organizationId: string,
  userId: string,
): Promise<MembershipRow> {
  const membership = await membershipOf(tx, organizationId, userId);
  if (!membership) throw errors.notFound('organization membership');
  return membership;
}

/**
 * The last-admin rule: an organisation always keeps at least one member with admin rights (`org:admin`
 * or `org:vciso`). Asked before a member's role changes or they go: `role` is what they would hold then.
 */
async function assertNotLastAdmin(tx: Queryable, membership: MembershipRow, role?: string): Promise<void> {
  if (!LAST_ADMIN_ROLES.includes(membership.role)) return;
  if (role !== undefined && LAST_ADMIN_ROLES.includes(role)) return;
  if ((await countAdmins(tx, membership.organization_id, LAST_ADMIN_ROLES)) <= 1) {
    throw errors.organizationMinimumPermissions();
  }
}

export async function addMember(
  tx: Queryable,
  organization: OrganizationRow,
  input: { userId: string | undefined; role: string | undefined },
  now: Date,
  actorRole?: string,
): Promise<MembershipRow> {
  const userId = input.userId?.trim();
  if (!userId) throw errors.paramMissing('user_id');
  const role = validateRole(input.role);
  assertMayManageRoles(actorRole, role);
  await lock(tx, organization);
  if (!(await findUserById(tx, userId))) throw errors.notFound('user');
  if (await membershipOf(tx, organization.id, userId)) throw errors.alreadyMember();
  const max = organization.max_allowed_memberships;
  if (max > 0 && (await countMembers(tx, organization.id)) >= max) {
    throw errors.organizationMembershipQuotaExceeded(max);
  }
  return insertMembership(tx, { organizationId: organization.id, userId, role, now });
}

export async function changeRole(
  tx: Queryable,
  organization: OrganizationRow,
  userId: string,
  rawRole: string | undefined,
  now: Date,
  actorRole?: string,
): Promise<MembershipRow> {
  const role = validateRole(rawRole);
  await lock(tx, organization);
  const membership = await existingMembership(tx, organization.id, userId);
  assertMayManageRoles(actorRole, role, membership.role);
  if (membership.role === role) return membership;
  await assertNotLastAdmin(tx, membership, role);
  return updateMembershipRole(tx, organization.id, userId, role, now);
}

/**
 * Removes a member (or, from `/me`, the caller leaves: no `actorRole`, anyone may leave). Their sessions
 * that had the organisation active drop it, so their next token carries no organisation.
 */
export async function removeMember(
  tx: Queryable,
  deps: Pick<IdentityDeps, 'config'>,
  organization: OrganizationRow,
  userId: string,
  now: Date,
  actorRole?: string,
): Promise<MembershipRow> {
  await lock(tx, organization);
  const membership = await existingMembership(tx, organization.id, userId);
  assertMayManageRoles(actorRole, membership.role);
  await assertNotLastAdmin(tx, membership);
  await deleteMembership(tx, organization.id, userId, now);
  await settleSessionsWithoutOrganization(tx, deps, [userId], now);
  return membership;
}

/** Merges membership metadata as the organisation's is merged (`null` deletes a key at any depth). */
export async function mergeMembershipMetadata(
  tx: Queryable,
  organization: OrganizationRow,
  userId: string,
  patch: { publicMetadata?: Record<string, unknown>; privateMetadata?: Record<string, unknown> },
  now: Date,
): Promise<MembershipRow> {
  await lock(tx, organization);
  const membership = await existingMembership(tx, organization.id, userId);
  return updateMembershipMetadata(
    tx,
    membership.id,
    {
      public_metadata: patch.publicMetadata
        ? deepMerge(membership.public_metadata, patch.publicMetadata)
        : membership.public_metadata,
      private_metadata: patch.privateMetadata
        ? deepMerge(membership.private_metadata, patch.privateMetadata)
        : membership.private_metadata,
    },
    now,
  );
}

/**
 * When organisation selection is forced, a signed-in session left without an organisation (removed,
 * left, or the organisation deleted) goes back to `pending` with the choose-organization task.
 */
export async function settleSessionsWithoutOrganization(
  tx: Queryable,
  deps: Pick<IdentityDeps, 'config'>,
  userIds: string[],
  now: Date,
): Promise<void> {
  if (!deps.config.forceOrganizationSelection || !userIds.length) return;
  await pendSessionsWithoutOrganization(tx, [...new Set(userIds)], now);
}

// ---------------------------------------------------------------------------------------------------------
// Serialising

/** `public_user_data` of several users, in two queries. */
export async function publicUserDataOf(
  tx: Queryable,
  deps: Pick<IdentityDeps, 'avatarUrl' | 'fapiBase'>,
  userIds: string[],
): Promise<Map<string, PublicUserData>> {
  const unique = [...new Set(userIds)];
  if (!unique.length) return new Map();
  const users = await findUsersByIds(tx, unique);
  const emails = await emailAddressesOf(tx, unique);
  return new Map(users.map((u) => [u.id, publicUserDataJSON(u, emails.get(u.id) ?? [], deps)]));
}

/**
 * Memberships as clerk-js and @clerk/backend read them: each with its organisation and the member's
 * `public_user_data` (both SDKs dereference them). `organizations` may be omitted to load them.
 */
export async function membershipsJSON(
  tx: Queryable,
  deps: Pick<IdentityDeps, 'avatarUrl' | 'fapiBase'>,
  memberships: MembershipRow[],
  opts: {
    includePrivate?: boolean;
    organizations?: Map<string, OrganizationRow>;
    /** Member and invitation counts per organisation, to include in each `organization`. */
    counts?: Map<string, OrganizationCounts>;
  } = {},
) {
  const organizations =
    opts.organizations ??
    (await organizationsByIds(
      tx,
      memberships.map((m) => m.organization_id),
    ));
  const users = await publicUserDataOf(
    tx,
    deps,
    memberships.map((m) => m.user_id),
  );
  return memberships.flatMap((m) => {
    const organization = organizations.get(m.organization_id);
    if (!organization) return [];
    return [
      membershipJSON(m, organization, users.get(m.user_id) ?? null, {
        imageBase: deps.fapiBase,
        includePrivate: opts.includePrivate,
        counts: opts.counts?.get(organization.id),
      }),
    ];
  });
}

export async function membershipJSONOf(
  tx: Queryable,
  deps: Pick<IdentityDeps, 'avatarUrl' | 'fapiBase'>,
  membership: MembershipRow,
  organization: OrganizationRow,
  opts: { includePrivate?: boolean } = {},
) {
  const [json] = await membershipsJSON(tx, deps, [membership], {
    ...opts,
    organizations: new Map([[organization.id, organization]]),
  });
  return json!;
}
