import { mayManageRole } from '@app/contract';
import { errors } from '../errors.ts';

/**
 * Who may hand out or take away a role: only a member whose own role carries every permission of that
 * role (`mayManageRole`, declared with the roles in the contract), so no one can give (themselves or
 * anyone) more than they hold: a member cannot grant `org:vciso` or `org:admin`; admins and vCISOs hold
 * the same permissions, so each manages the other. Applies to the Frontend API (the acting member);
 * `actorRole` undefined is the Backend API, whose secret key is the operator's and is not restricted.
 * Otherwise Clerk's 403 `not_allowed_access`.
 */
export function assertMayManageRoles(actorRole: string | undefined, ...roles: string[]): void {
  if (actorRole === undefined) return;
  if (!roles.every((role) => mayManageRole(actorRole, role))) throw errors.permissionDenied();
}
