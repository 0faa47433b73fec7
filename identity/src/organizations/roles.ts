/**
 * The instance's organisation roles and permissions (Clerk's "roles & permissions" configuration), as
 * the contract declares them for the product too: what the provider serves, grants and puts in
 * session tokens is what the product API and the web check.
 */
import { ORG_ROLES } from '@app/contract';

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
/** Roles that count as "admin" for the last-admin rule. */
export const ADMIN_ROLE = ORG_ROLES.admin;
