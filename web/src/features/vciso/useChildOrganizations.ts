import { useCallback, useEffect, useState } from 'react';
import { useHttpClient } from '../../lib/http/useHttpClient.ts';
import { useAuthState } from '../../state/auth/AuthStateProvider.tsx';
import type { ChildOrganization } from './api/child-organization.ts';
import { listChildOrganizations } from './api/list-child-organizations.ts';

export type ChildOrganizationsState =
  | { status: 'loading' }
  | { status: 'loaded'; children: ChildOrganization[] }
  | { status: 'error'; error: unknown };

/**
 * The active organisation's client organisations, read again when the organisation changes or on
 * `reload()` (after a change). A late answer for a previous organisation or attempt is ignored.
 */
export function useChildOrganizations(): { state: ChildOrganizationsState; reload: () => void } {
  const client = useHttpClient();
  const organizationId = useAuthState().organization?.id ?? null;
  const [attempt, setAttempt] = useState(0);
  const [result, setResult] = useState<{ key: string; state: ChildOrganizationsState } | null>(null);
  const key = `${organizationId}#${attempt}`;

  useEffect(() => {
    if (!organizationId) return;
    const controller = new AbortController();
    listChildOrganizations(client, { signal: controller.signal }).then(
      (children) => {
        if (!controller.signal.aborted) setResult({ key, state: { status: 'loaded', children } });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setResult({ key, state: { status: 'error', error } });
      },
    );
    return () => controller.abort();
  }, [client, organizationId, key]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  // The previous list stays on screen while a reload after a change is under way.
  if (result?.key === key) return { state: result.state, reload };
  if (result?.state.status === 'loaded' && result.key.startsWith(`${organizationId}#`)) {
    return { state: result.state, reload };
  }
  return { state: { status: 'loading' }, reload };
}
