import { organizationJSON } from '../../serializers/organization.ts';
import { organizationCounts } from '../../store/organizations.ts';
import type { OrganizationRow } from '../../store/rows.ts';
import type { FapiContext } from '../context.ts';

/** Clerk's OrganizationJSON with `members_count` and `pending_invitations_count`, as clerk-js reads it. */
export async function organizationWithCounts(ctx: FapiContext, organization: OrganizationRow) {
  const counts = (await organizationCounts(ctx.tx, [organization.id], ctx.now)).get(organization.id)!;
  return organizationJSON(organization, {
    imageBase: ctx.deps.fapiBase,
    counts: { members: counts.members, pendingInvitations: counts.pendingInvitations },
  });
}
