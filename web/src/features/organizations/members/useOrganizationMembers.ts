import { useClerk } from '@clerk/clerk-react';
import type { OrganizationMembershipResource, OrganizationResource } from '@clerk/types';
import { useCallback, useEffect, useState } from 'react';

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

export type MembersState =
  | { status: 'loading' }
  | { status: 'loaded'; members: Member[]; roles: RoleOption[] }
  /** The failure as clerk-js raised it; the page words it in the interface language. */
  | { status: 'error'; error: unknown };

type Outcome = Exclude<MembersState, { status: 'loading' }>;

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

/**
 * The active organisation's members and roles, read through clerk-js. Keyed by organisation id rather
 * than by the resource, which clerk-js replaces on every client update; `reload` reads them again and
 * keeps showing the current list meanwhile.
 */
export function useOrganizationMembers(organizationId: string | null) {
  const clerk = useClerk();
  const [version, setVersion] = useState(0);
  const [result, setResult] = useState<{ organizationId: string; outcome: Outcome } | null>(null);

  useEffect(() => {
    const organization = clerk.organization;
    if (!organizationId || organization?.id !== organizationId) return;
    let cancelled = false;
    void (async () => {
      let outcome: Outcome;
      try {
        const [memberships, roles] = await Promise.all([
          allMemberships(organization),
          organization.getRoles({ pageSize: 20 }),
        ]);
        outcome = {
          status: 'loaded',
          members: memberships.map(toMember).filter((m): m is Member => m !== null),
          roles: roles.data.map((role) => ({ key: role.key, name: role.name })),
        };
      } catch (error) {
        outcome = { status: 'error', error };
      }
      if (!cancelled) setResult({ organizationId, outcome });
    })();
    return () => {
      cancelled = true;
    };
  }, [clerk, organizationId, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const state: MembersState =
    result && result.organizationId === organizationId ? result.outcome : { status: 'loading' };
  return { state, reload };
}
