import type { MutationOptions, QueryClient } from '@tanstack/react-query';
import type { HttpClient } from '../../lib/http/client.ts';
import { scopeKey, type QueryScope } from '../../lib/query/query-scope.ts';
import type { CurrentOrganization } from '../organizations/api/get-current-organization.ts';
import { currentOrganizationKey } from '../organizations/current-organization-query.ts';
import {
  patchOrganizationSettings,
  type OrganizationSettingsChange,
} from './api/patch-organization-settings.ts';

/**
 * Saves the organisation's settings. The answer is the organisation as GET current gives it, so it
 * replaces the cached one at once; everything else read for the organisation is then read again.
 * Never retried: see createQueryClient.
 */
export function settingsChange(
  client: HttpClient,
  queryClient: QueryClient,
  scope: QueryScope,
): MutationOptions<CurrentOrganization, unknown, OrganizationSettingsChange> {
  return {
    mutationFn: (change) => patchOrganizationSettings(client, change),
    onSuccess: async (organization) => {
      queryClient.setQueryData(currentOrganizationKey(scope), organization);
      await queryClient.invalidateQueries({ queryKey: scopeKey(scope), refetchType: 'none' });
    },
  };
}
