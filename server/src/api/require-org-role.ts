import { hasPermission, type Permission } from '@app/contract';
import type { FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';
import { authOf } from './require-auth.ts';

/** The organisation roles, as the contract declares them (the identity provider serves the same). */
export { ADMIN_RIGHTS_ROLES, ORG_ROLES, type OrgRole } from '@app/contract';

/** Without an active organisation there is nothing to act on: 404, as GET current answers. */
export async function requireActiveOrganization(req: FastifyRequest) {
  if (!authOf(req).orgId) throw new ApiError('no_active_organization');
}

/**
 * A preHandler, after requireAuth, that lets the request through only when the caller's role in the
 * token's active organisation is one of `roles`; otherwise 403 `forbidden` (also without an active
 * organisation, where there is no role at all).
 *
 *   app.post('/modules', { preHandler: [requireAuth(deps), requireOrgRole(ADMIN_RIGHTS_ROLES)] }, …)
 */
export function requireOrgRole(roles: readonly string[]) {
  return async (req: FastifyRequest) => {
    // An API key has no role (authOf refuses it): a route for roles is for people.
    const { orgId, orgRole } = authOf(req);
    if (!orgId || !orgRole || !roles.includes(orgRole)) throw new ApiError('forbidden');
  };
}

/**
 * A preHandler, after requireAuth, that lets the request through only when the caller's role in the
 * token's active organisation carries `permission` (the contract's declaration, which the identity
 * provider serves too); otherwise 403 `forbidden`, also without an active organisation.
 */
export function requireOrgPermission(permission: Permission) {
  return async (req: FastifyRequest) => {
    const { orgId, orgRole } = authOf(req);
    if (!orgId || !orgRole || !hasPermission(orgRole, permission)) throw new ApiError('forbidden');
  };
}
