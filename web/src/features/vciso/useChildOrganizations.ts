import { useQuery } from '@tanstack/react-query';
import { useHttpClient } from '../../lib/http/useHttpClient.ts';
import { useQueryScope } from '../../lib/query/query-scope.ts';
import type { ChildOrganization } from './api/child-organization.ts';
import { childOrganizationsQuery } from './hierarchy-queries.ts';

export type ChildOrganizationsState =
  | { status: 'loading' }
  | { status: 'loaded'; children: ChildOrganization[] }
  | { status: 'error'; error: unknown };

/**
 * The active organisation's client organisations. Changes made through useHierarchyChange read them
 * again; the current list stays on screen meanwhile.
 */
export function useChildOrganizations(): { state: ChildOrganizationsState; reload: () => void } {
  const query = useQuery(childOrganizationsQuery(useHttpClient(), useQueryScope()));
  const reload = () => void query.refetch();
  if (query.isSuccess) return { state: { status: 'loaded', children: query.data }, reload };
  if (query.isError && !query.isFetching) return { state: { status: 'error', error: query.error }, reload };
  return { state: { status: 'loading' }, reload };
}
