import type { FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';
import { authOf } from './require-auth.ts';

/** The organisation roles of the instance (`identity/src/organizations/roles.ts`, or hosted Clerk's). */
export const ORG_ROLES = { admin: 'org:admin', member: 'org:member', vciso: 'org:vciso' } as const;
export type OrgRole = (typeof ORG_ROLES)[keyof typeof ORG_ROLES];

/** Admin rights in the product: held by admins and virtual security officers. */
export const ADMIN_RIGHTS_ROLES: readonly OrgRole[] = [ORG_ROLES.admin, ORG_ROLES.vciso];

/**
 * A preHandler, after requireAuth, that lets the request through only when the caller's role in the
 * token's active organisation is one of `roles`; otherwise 403 `forbidden` (also without an active
 * organisation, where there is no role at all).
 *
 *   app.post('/modules', { preHandler: [requireAuth(deps), requireOrgRole(ADMIN_RIGHTS_ROLES)] }, …)
 */
export function requireOrgRole(roles: readonly string[]) {
  return async (req: FastifyRequest) => {
    const { orgId, orgRole } = authOf(req);
    if (!orgId || !orgRole || !roles.includes(orgRole)) throw new ApiError('forbidden');
  };
}
