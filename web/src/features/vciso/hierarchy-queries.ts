import { queryOptions, type MutationOptions, type QueryClient } from '@tanstack/react-query';
import type { HttpClient } from '../../lib/http/client.ts';
import { scopeKey, type QueryScope } from '../../lib/query/query-scope.ts';
import { fetchParentOrganization } from './api/get-parent-organization.ts';
import { listChildOrganizations } from './api/list-child-organizations.ts';

export const childOrganizationsKey = (scope: QueryScope) =>
  [...scopeKey(scope), 'vciso', 'children'] as const;
export const parentOrganizationKey = (scope: QueryScope) => [...scopeKey(scope), 'vciso', 'parent'] as const;

/** GET /api/organizations/current/children for the scope's organisation. */
export function childOrganizationsQuery(client: HttpClient, scope: QueryScope) {
  return queryOptions({
    queryKey: childOrganizationsKey(scope),
    queryFn: ({ signal }) => listChildOrganizations(client, { signal }),
    enabled: scope.organizationId !== null,
  });
}

/** GET /api/organizations/current/parent for the scope's organisation: null when it has none. */
export function parentOrganizationQuery(client: HttpClient, scope: QueryScope) {
  return queryOptions({
    queryKey: parentOrganizationKey(scope),
    queryFn: ({ signal }) => fetchParentOrganization(client, { signal }),
    enabled: scope.organizationId !== null,
  });
}

/**
 * A change to the hierarchy (create, attach, detach a client organisation). Once it succeeds,
 * everything read for the organisation is stale (its children, and the hierarchy fields of its
 * metadata) and is read again before the change counts as done. Never retried: see createQueryClient.
 */
export function hierarchyChange<Input, Result>(
  client: HttpClient,
  queryClient: QueryClient,
  scope: QueryScope,
  write: (client: HttpClient, input: Input) => Promise<Result>,
): MutationOptions<Result, unknown, Input> {
  return {
    mutationFn: (input) => write(client, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scopeKey(scope) }),
  };
}
