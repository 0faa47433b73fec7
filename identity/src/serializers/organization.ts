import { permissionsOf, roleByKey, ROLES, type RoleDefinition } from '../organizations/roles.ts';
import type { InvitationRow, MembershipRow, OrganizationRow } from '../store/rows.ts';
import { ms } from './verification.ts';

export interface PublicUserData {
  user_id: string;
  identifier: string;
  first_name: string | null;
  last_name: string | null;
  image_url: string;
  has_image: boolean;
}

/** Absolute URL of an organisation's logo, versioned so a new upload is never served from cache. */
export function organizationImageUrl(
  org: Pick<OrganizationRow, 'id' | 'image_type' | 'updated_at'>,
  base: string,
): string {
  return org.image_type ? `${base}/v1/images/organizations/${org.id}?v=${org.updated_at.getTime()}` : '';
}

export function organizationJSON(
  org: OrganizationRow,
  opts: {
    imageBase: string;
    counts?: { members: number; pendingInvitations: number };
    includePrivate?: boolean;
  },
) {
  return {
    object: 'organization',
    id: org.id,
    name: org.name,
    slug: org.slug,
    image_url: organizationImageUrl(org, opts.imageBase),
    has_image: org.image_type !== null,
    public_metadata: org.public_metadata,
    ...(opts.includePrivate ? { private_metadata: org.private_metadata } : {}),
    ...(opts.counts
      ? { members_count: opts.counts.members, pending_invitations_count: opts.counts.pendingInvitations }
      : {}),
    max_allowed_memberships: org.max_allowed_memberships,
    admin_delete_enabled: org.admin_delete_enabled,
    created_by: org.created_by,
    created_at: ms(org.created_at),
    updated_at: ms(org.updated_at),
  };
}

export function publicOrganizationDataJSON(org: OrganizationRow, imageBase: string) {
  return {
    id: org.id,
    name: org.name,
    slug: org.slug,
    image_url: organizationImageUrl(org, imageBase),
    has_image: org.image_type !== null,
  };
}

export function roleName(role: string): string {
  return roleByKey(role)?.name ?? role;
}

export function membershipJSON(
  m: MembershipRow,
  org: OrganizationRow,
  publicUserData: PublicUserData | null,
  opts: {
    imageBase: string;
    includePrivate?: boolean;
    /** The organisation's counts, for lists that show them (`/me/organization_memberships`). */
    counts?: { members: number; pendingInvitations: number };
  },
) {
  return {
    object: 'organization_membership',
    id: m.id,
    role: m.role,
    role_name: roleName(m.role),
    permissions: [...permissionsOf(m.role)],
    public_metadata: m.public_metadata,
    ...(opts.includePrivate ? { private_metadata: m.private_metadata } : {}),
    organization: organizationJSON(org, {
      imageBase: opts.imageBase,
      includePrivate: opts.includePrivate,
      counts: opts.counts,
    }),
    public_user_data: publicUserData,
    created_at: ms(m.created_at),
    updated_at: ms(m.updated_at),
  };
}

export function invitationJSON(
  inv: InvitationRow,
  org: OrganizationRow,
  opts: { imageBase: string; url?: string; includePrivate?: boolean },
) {
  return {
    object: 'organization_invitation',
    id: inv.id,
    email_address: inv.email_address,
    role: inv.role,
    role_name: roleName(inv.role),
    organization_id: inv.organization_id,
    public_organization_data: publicOrganizationDataJSON(org, opts.imageBase),
    status: inv.status,
    public_metadata: inv.public_metadata,
    ...(opts.includePrivate ? { private_metadata: inv.private_metadata } : {}),
    ...(opts.url ? { url: opts.url } : {}),
    expires_at: ms(inv.expires_at),
    created_at: ms(inv.created_at),
    updated_at: ms(inv.updated_at),
  };
}

/** The user's own view of an invitation (`/me/organization_invitations`). */
export function userInvitationJSON(inv: InvitationRow, org: OrganizationRow, imageBase: string) {
  return {
    object: 'organization_invitation',
    id: inv.id,
    email_address: inv.email_address,
    role: inv.role,
    public_organization_data: publicOrganizationDataJSON(org, imageBase),
    public_metadata: inv.public_metadata,
    status: inv.status,
    created_at: ms(inv.created_at),
    updated_at: ms(inv.updated_at),
  };
}

const EPOCH = 1735689600000;

export function roleJSON(role: RoleDefinition) {
  return {
    object: 'role',
    id: `role_${role.key.replace(/[^a-z0-9]/g, '_')}`,
    key: role.key,
    name: role.name,
    description: role.description,
    permissions: role.permissions.map((p) => ({
      object: 'permission',
      id: `perm_${p.replace(/[^a-z0-9]/g, '_')}`,
      key: p,
      name: p,
      description: p,
      type: p.startsWith('org:sys_') ? 'system' : 'user',
      created_at: EPOCH,
      updated_at: EPOCH,
    })),
    created_at: EPOCH,
    updated_at: EPOCH,
  };
}

export const allRolesJSON = () => ROLES.map(roleJSON);
