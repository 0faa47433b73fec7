import { queryOptions } from '@tanstack/react-query';
import { TranslatableError } from '../../lib/error-message.ts';
import type { HttpClient } from '../../lib/http/client.ts';
import { scopeKey, type QueryScope } from '../../lib/query/query-scope.ts';
import { fetchCurrentOrganization } from './api/get-current-organization.ts';

export const currentOrganizationKey = (scope: QueryScope) =>
  [...scopeKey(scope), 'organization', 'current'] as const;

/** GET /api/organizations/current for the scope's organisation; not asked without one. */
export function currentOrganizationQuery(client: HttpClient, scope: QueryScope) {
  return queryOptions({
    queryKey: currentOrganizationKey(scope),
    queryFn: async ({ signal }) => {
      const organization = await fetchCurrentOrganization(client, { signal });
      // The server answers for the token's organisation, which may have changed since the key was made;
      // filing its answer under another organisation's key would show one tenant's data as another's.
      if (organization.id !== scope.organizationId) {
        throw new TranslatableError('organizations.changedWhileLoading');
      }
      return organization;
    },
    enabled: scope.organizationId !== null,
  });
}
