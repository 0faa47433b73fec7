import { errors } from '../errors.ts';
import { permissionsOf } from './roles.ts';

/**
 * Who may hand out or take away a role: only a member whose own role carries every permission of that
 * role, so no one can give (themselves or anyone) more than they hold, nor strip a role above theirs.
 * An `org:vciso` therefore cannot grant `org:admin`, demote or remove an admin, or revoke an admin
 * invitation. Applies to the Frontend API (the acting member); the Backend API's secret key is the
 * operator's and is not restricted.
 */
export function mayManageRole(actorRole: string, role: string): boolean {
  const held = permissionsOf(actorRole);
  return permissionsOf(role).every((permission) => held.includes(permission));
}

/** `actorRole` undefined: the Backend API, unrestricted. Otherwise Clerk's 403 `not_allowed_access`. */
export function assertMayManageRoles(actorRole: string | undefined, ...roles: string[]): void {
  if (actorRole === undefined) return;
  if (!roles.every((role) => mayManageRole(actorRole, role))) throw errors.permissionDenied();
}
