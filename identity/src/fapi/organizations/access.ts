import { errors } from '../../errors.ts';
import { hasPermission, type Permission } from '../../organizations/roles.ts';
import { findOrganization, membershipOf } from '../../store/organizations.ts';
import type { MembershipRow, OrganizationRow, SessionRow } from '../../store/rows.ts';
import type { FapiContext } from '../context.ts';
import { currentSession } from '../me/me-session.ts';

export interface OrganizationAccess {
  session: SessionRow;
  organization: OrganizationRow;
  membership: MembershipRow;
}

/**
 * The one gate of every organisation-scoped FAPI route: the caller's session, the organisation named in
 * the path (id or slug), the caller's membership in it and, when given, a permission of their role.
 * Not being a member answers exactly like a missing organisation, so nothing leaks across tenants.
 */
export async function requireOrganization(
  ctx: FapiContext,
  idOrSlug: string,
  permission?: Permission,
): Promise<OrganizationAccess> {
  const session = await currentSession(ctx);
  const organization = await findOrganization(ctx.tx, idOrSlug);
  const membership = organization ? await membershipOf(ctx.tx, organization.id, session.user_id) : null;
  if (!organization || !membership) throw errors.notFound('organization');
  if (permission && !hasPermission(membership.role, permission)) throw errors.permissionDenied();
  return { session, organization, membership };
}
