import { z } from './zod.ts';

/**
 * The instance's organisation roles and permissions (spec §6; Clerk's "roles & permissions"
 * configuration, which the embedded identity provider serves and a hosted Clerk instance must match).
 * System permissions drive Clerk's organisation UI; feature permissions (`org:<feature>:<permission>`)
 * are the product's own.
 */
export const ORG_ROLES = { admin: 'org:admin', member: 'org:member', vciso: 'org:vciso' } as const;
export const orgRoleSchema = z.enum([ORG_ROLES.admin, ORG_ROLES.member, ORG_ROLES.vciso]);
export type OrgRole = z.infer<typeof orgRoleSchema>;
export const isOrgRole = (value: unknown): value is OrgRole => orgRoleSchema.safeParse(value).success;

export const SYSTEM_PERMISSIONS = [
  'org:sys_profile:manage',
  'org:sys_profile:delete',
  'org:sys_memberships:read',
  'org:sys_memberships:manage',
  'org:sys_billing:read',
  'org:sys_billing:manage',
  'org:sys_api_keys:read',
  'org:sys_api_keys:manage',
  'org:sys_domains:read',
  'org:sys_domains:manage',
] as const;

export const FEATURE_PERMISSIONS = [
  'org:modules:read',
  'org:modules:manage',
  'org:clients:read',
  'org:clients:manage',
] as const;

export const permissionSchema = z.enum([...SYSTEM_PERMISSIONS, ...FEATURE_PERMISSIONS]);
export type Permission = z.infer<typeof permissionSchema>;

export interface RoleDefinition {
  key: OrgRole;
  name: string;
  description: string;
  permissions: readonly Permission[];
}

const ALL: readonly Permission[] = permissionSchema.options;

/** An admin holds every permission the instance defines. */
const ADMIN_PERMISSIONS: readonly Permission[] = ALL;

/**
 * What a vCISO holds beyond an admin: nothing today, since an admin already holds every permission. The
 * client-organisation console is the role's own (`roleIsVciso`), not a permission an admin could lack.
 */
const VCISO_OWN_PERMISSIONS: readonly Permission[] = [];

export const ROLES: readonly RoleDefinition[] = [
  {
    key: ORG_ROLES.admin,
    name: 'Admin',
    description: 'Manages the organisation, its members, modules and billing.',
    permissions: ADMIN_PERMISSIONS,
  },
  {
    // Admin rights (spec §6: held by admin or vCISO alike): every permission of an admin — billing, API
    // keys, members, settings, deleting the organisation — plus its own. A vCISO is often the only member
    // of a client organisation it created, so anything it lacked there nobody could do.
    key: ORG_ROLES.vciso,
    name: 'Virtual security officer',
    description: 'Runs the security programme and the client organisations of this organisation.',
    permissions: [...new Set([...ADMIN_PERMISSIONS, ...VCISO_OWN_PERMISSIONS])],
  },
  {
    key: ORG_ROLES.member,
    name: 'Member',
    description: 'Uses the modules switched on for the organisation.',
    permissions: ['org:sys_memberships:read', 'org:sys_billing:read', 'org:modules:read', 'org:clients:read'],
  },
];

export function roleByKey(key: string): RoleDefinition | undefined {
  return ROLES.find((r) => r.key === key);
}

/** The permissions of a role; none for a role the instance does not define. */
export function permissionsOf(role: string): readonly Permission[] {
  return roleByKey(role)?.permissions ?? [];
}

export function hasPermission(role: string, permission: Permission): boolean {
  return permissionsOf(role).includes(permission);
}

/**
 * Whether `actorRole` may hand out or take away `role`: only when it carries every permission of that
 * role, so no one can give (themselves or anyone) more than they hold. The identity provider applies it
 * to the Frontend API's membership and invitation changes, the product API to adding members by address.
 */
export function mayManageRole(actorRole: string, role: string): boolean {
  const held = permissionsOf(actorRole);
  return permissionsOf(role).every((permission) => held.includes(permission));
}

/**
 * Admin rights (spec §6): the roles that carry every permission of `org:admin` — admins and virtual
 * security officers, as the declaration above makes them. They change the settings and modules, and an
 * organisation always keeps at least one member holding them.
 */
export const ADMIN_RIGHTS_ROLES: readonly OrgRole[] = ROLES.filter((r) =>
  mayManageRole(r.key, ORG_ROLES.admin),
).map((r) => r.key);

export function roleHasAdminRights(role: string | null | undefined): boolean {
  return (ADMIN_RIGHTS_ROLES as readonly string[]).includes(role ?? '');
}

/** The virtual security officer flag: held by `org:vciso` only. */
export function roleIsVciso(role: string | null | undefined): boolean {
  return role === ORG_ROLES.vciso;
}
