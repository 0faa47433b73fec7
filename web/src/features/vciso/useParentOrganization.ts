import { useEffect, useState } from 'react';
import { useHttpClient } from '../../lib/http/useHttpClient.ts';
import { useAuthState } from '../../state/auth/AuthStateProvider.tsx';
import { fetchParentOrganization, type ParentOrganization } from './api/get-parent-organization.ts';

/**
 * The active organisation's parent: undefined while unknown (loading, or it could not be read: the
 * parent link is an extra, so a failure just leaves it out), null when there is none.
 */
export function useParentOrganization(): ParentOrganization | null | undefined {
  const client = useHttpClient();
  const organizationId = useAuthState().organization?.id ?? null;
  const [result, setResult] = useState<{ organizationId: string; parent: ParentOrganization | null } | null>(
    null,
  );

  useEffect(() => {
    if (!organizationId) return;
    const controller = new AbortController();
    fetchParentOrganization(client, { signal: controller.signal }).then(
      (parent) => {
        if (!controller.signal.aborted) setResult({ organizationId, parent });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) console.warn('The parent organisation could not be read.', error);
      },
    );
    return () => controller.abort();
  }, [client, organizationId]);

  if (!organizationId) return null;
  return result?.organizationId === organizationId ? result.parent : undefined;
}
