import { useAuth, useClerk } from '@clerk/clerk-react';
import { useQuery } from '@tanstack/react-query';
import { membersQuery, type Member, type RoleOption } from './members-query.ts';

export type { Member, RoleOption } from './members-query.ts';

export type MembersState =
  | { status: 'loading' }
  | { status: 'loaded'; members: Member[]; roles: RoleOption[] }
  /** The failure as clerk-js raised it; the page words it in the interface language. */
  | { status: 'error'; error: unknown };

/**
 * The active organisation's members and roles, read through clerk-js and cached per user and
 * organisation; `reload` reads them again and keeps showing the current list meanwhile.
 */
export function useOrganizationMembers(organizationId: string | null) {
  const clerk = useClerk();
  const { userId } = useAuth();
  const query = useQuery(membersQuery({ userId: userId ?? null, organizationId }, clerk.organization));
  const reload = () => void query.refetch();
  let state: MembersState = { status: 'loading' };
  if (query.isSuccess) state = { status: 'loaded', ...query.data };
  else if (query.isError && !query.isFetching) state = { status: 'error', error: query.error };
  return { state, reload };
}
