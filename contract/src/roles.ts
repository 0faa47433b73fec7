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

export const ROLES: readonly RoleDefinition[] = [
  {
    key: ORG_ROLES.admin,
    name: 'Admin',
    description: 'Manages the organisation, its members, modules and billing.',
    permissions: ALL,
  },
  {
    // Admin rights in the product, and the client-organisation console; deleting the organisation and
    // managing its billing stay with admins.
    key: ORG_ROLES.vciso,
    name: 'Virtual security officer',
    description: 'Runs the security programme and the client organisations of this organisation.',
    permissions: ALL.filter((p) => p !== 'org:sys_profile:delete' && p !== 'org:sys_billing:manage'),
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

/** Admin rights in the product (settings, modules): held by admins and virtual security officers. */
export const ADMIN_RIGHTS_ROLES: readonly OrgRole[] = [ORG_ROLES.admin, ORG_ROLES.vciso];

export function roleHasAdminRights(role: string | null | undefined): boolean {
  return (ADMIN_RIGHTS_ROLES as readonly string[]).includes(role ?? '');
}

/** The virtual security officer flag: held by `org:vciso` only. */
export function roleIsVciso(role: string | null | undefined): boolean {
  return role === ORG_ROLES.vciso;
}
