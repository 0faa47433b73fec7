/**
 * The instance's organisation roles and permissions (Clerk's "roles & permissions" configuration).
 * System permissions drive the Clerk organisation UI; feature permissions (`org:<feature>:<permission>`)
 * are the product's own.
 */
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

export type Permission = (typeof SYSTEM_PERMISSIONS)[number] | (typeof FEATURE_PERMISSIONS)[number];

export interface RoleDefinition {
  key: string;
  name: string;
  description: string;
  permissions: readonly Permission[];
}

const ALL: readonly Permission[] = [...SYSTEM_PERMISSIONS, ...FEATURE_PERMISSIONS];

export const ROLES: readonly RoleDefinition[] = [
  {
    key: 'org:admin',
    name: 'Admin',
    description: 'Manages the organisation, its members, modules and billing.',
    permissions: ALL,
  },
  {
    // Admin rights in the product, and the client-organisation console; deleting the organisation and
    // managing its billing stay with admins.
    key: 'org:vciso',
    name: 'Virtual security officer',
    description: 'Runs the security programme and the client organisations of this organisation.',
    permissions: ALL.filter((p) => p !== 'org:sys_profile:delete' && p !== 'org:sys_billing:manage'),
  },
  {
    key: 'org:member',
    name: 'Member',
    description: 'Uses the modules switched on for the organisation.',
    permissions: ['org:sys_memberships:read', 'org:sys_billing:read', 'org:modules:read', 'org:clients:read'],
  },
];

/** The role given to whoever creates an organisation. */
export const CREATOR_ROLE = 'org:admin';
export const DEFAULT_ROLE = 'org:member';
/** Roles that count as "admin" for the last-admin rule. */
export const ADMIN_ROLE = 'org:admin';

export function roleByKey(key: string): RoleDefinition | undefined {
  return ROLES.find((r) => r.key === key);
}

export function permissionsOf(role: string): readonly Permission[] {
  return roleByKey(role)?.permissions ?? [];
}

export function hasPermission(role: string, permission: Permission): boolean {
  return permissionsOf(role).includes(permission);
}
