import type { OrganizationMembershipResource, OrganizationResource } from '@clerk/types';
import { queryOptions } from '@tanstack/react-query';
import { scopeKey, type QueryScope } from '../../../lib/query/query-scope.ts';

export interface Member {
  userId: string;
  name: string | null;
  identifier: string;
  role: string;
}

export interface RoleOption {
  key: string;
  name: string;
}

const PAGE_SIZE = 100;
// A guard against a provider that keeps reporting more members than it returns.
const MAX_PAGES = 50;

async function allMemberships(organization: OrganizationResource): Promise<OrganizationMembershipResource[]> {
  const memberships: OrganizationMembershipResource[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { data, total_count } = await organization.getMemberships({
      initialPage: page,
      pageSize: PAGE_SIZE,
    });
    memberships.push(...data);
    if (data.length < PAGE_SIZE || memberships.length >= total_count) break;
  }
  return memberships;
}

function toMember(membership: OrganizationMembershipResource): Member | null {
  const user = membership.publicUserData;
  if (!user?.userId) return null;
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ').trim();
  return { userId: user.userId, name: name || null, identifier: user.identifier, role: membership.role };
}

export const membersKey = (scope: QueryScope) => [...scopeKey(scope), 'members'] as const;

/**
 * The scope's organisation's members and roles, read through clerk-js (`organization` is clerk-js's
 * active organisation resource). Not asked while clerk-js's active organisation is another one.
 */
export function membersQuery(scope: QueryScope, organization: OrganizationResource | null | undefined) {
  return queryOptions({
    queryKey: membersKey(scope),
    queryFn: async () => {
      if (!organization || organization.id !== scope.organizationId) {
        throw new Error('The active organisation changed while its members were read.');
      }
      const [memberships, roles] = await Promise.all([
        allMemberships(organization),
        organization.getRoles({ pageSize: 20 }),
      ]);
      return {
        members: memberships.map(toMember).filter((m): m is Member => m !== null),
        roles: roles.data.map((role): RoleOption => ({ key: role.key, name: role.name })),
      };
    },
    enabled: scope.organizationId !== null && organization?.id === scope.organizationId,
    // Each read is a new list even when nothing changed: roles chosen on screen are kept per list and
    // must give way to what the provider answers after every change, the same or not.
    structuralSharing: false,
    staleTime: 0,
  });
}
