/**
 * The instance's organisation roles and permissions (Clerk's "roles & permissions" configuration), as
 * the contract declares them for the product too: what the provider serves, grants and puts in
 * session tokens is what the product API and the web check.
 */
import { ADMIN_RIGHTS_ROLES, ORG_ROLES } from '@app/contract';

export {
  FEATURE_PERMISSIONS,
  ROLES,
  SYSTEM_PERMISSIONS,
  hasPermission,
  permissionsOf,
  roleByKey,
  type Permission,
  type RoleDefinition,
} from '@app/contract';

/** The role given to whoever creates an organisation. */
export const CREATOR_ROLE = ORG_ROLES.admin;
export const DEFAULT_ROLE = ORG_ROLES.member;
/**
 * Roles that count for the last-admin rule: those with admin rights (every permission of `org:admin`),
 * so a vCISO alone in the client organisation it created keeps it managed.
 */
export const LAST_ADMIN_ROLES: readonly string[] = ADMIN_RIGHTS_ROLES;
