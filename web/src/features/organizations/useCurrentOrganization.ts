import { organizationMetadataWithDefaults } from '@app/contract';
import { useOrganization } from '@clerk/clerk-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/error-message.ts';
import { useHttpClient } from '../../lib/http/useHttpClient.ts';
import { useQueryScope } from '../../lib/query/query-scope.ts';
import { useAuthDispatch } from '../../state/auth/AuthStateProvider.tsx';
import { authEvents } from '../../state/auth/reducer.ts';
import type { CurrentOrganization } from './api/get-current-organization.ts';
import { currentOrganizationQuery } from './current-organization-query.ts';

export type CurrentOrganizationState =
  | { status: 'none' }
  | { status: 'loading' }
  | { status: 'loaded'; organization: CurrentOrganization }
  | { status: 'error'; message: string };

/**
 * The active organisation as the product API answers it (one request shared by every component that
 * shows it), with the metadata it answers (defaults included) merged into the auth state, which Clerk's
 * copy may not have yet. Until the answer arrives, clerk-js's own copy of the organisation stands in when
 * it is the same organisation (its metadata read as the server reads it, defaults under what is stored): the dashboard shows the name as
 * soon as the session is known, instead of after a request that waits for clerk-js's UI to load.
 */
export function useCurrentOrganization(): { state: CurrentOrganizationState; retry: () => void } {
  const { t } = useTranslation();
  const client = useHttpClient();
  const dispatch = useAuthDispatch();
  const scope = useQueryScope();
  const { organization: clerkCopy } = useOrganization();
  const placeholder: CurrentOrganization | undefined =
    clerkCopy && clerkCopy.id === scope.organizationId
      ? {
          id: clerkCopy.id,
          slug: clerkCopy.slug,
          name: clerkCopy.name,
          publicMetadata: organizationMetadataWithDefaults(clerkCopy.id, clerkCopy.publicMetadata),
        }
      : undefined;
  const query = useQuery({
    ...currentOrganizationQuery(client, scope),
    placeholderData: placeholder,
  });
  const { data, refetch } = query;
  const answered = data && !query.isPlaceholderData ? data : null;

  useEffect(() => {
    if (answered) dispatch(authEvents.updateOrganizationMetadata(answered.publicMetadata));
  }, [answered, dispatch]);

  const retry = () => void refetch();
  if (!scope.organizationId) return { state: { status: 'none' }, retry };
  // A retry after a failure shows "loading" again, as the first attempt did.
  if (query.isPending || (query.isError && query.isFetching)) return { state: { status: 'loading' }, retry };
  if (query.isError) {
    return {
      state: { status: 'error', message: errorMessage(query.error, t, 'organizations.loadFailed') },
      retry,
    };
  }
  return { state: { status: 'loaded', organization: query.data }, retry };
}
