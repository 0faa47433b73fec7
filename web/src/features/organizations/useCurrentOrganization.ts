import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage, TranslatableError } from '../../lib/error-message.ts';
import { useHttpClient } from '../../lib/http/useHttpClient.ts';
import { useAuthDispatch, useAuthState } from '../../state/auth/AuthStateProvider.tsx';
import { authEvents } from '../../state/auth/reducer.ts';
import { fetchCurrentOrganization, type CurrentOrganization } from './api/get-current-organization.ts';

export type CurrentOrganizationState =
  | { status: 'none' }
  | { status: 'loading' }
  | { status: 'loaded'; organization: CurrentOrganization }
  | { status: 'error'; message: string };

// The failure is kept as it came and worded at render, so the message follows the interface language.
type Outcome = { status: 'loaded'; organization: CurrentOrganization } | { status: 'error'; error: unknown };

/**
 * Reads the active organisation from the product API whenever it changes, and merges the metadata it
 * answers with (defaults included) into the auth state, which Clerk's copy may not have yet.
 */
export function useCurrentOrganization(): { state: CurrentOrganizationState; retry: () => void } {
  const { t } = useTranslation();
  const client = useHttpClient();
  const dispatch = useAuthDispatch();
  const organizationId = useAuthState().organization?.id ?? null;
  // Outcomes are kept per organisation id and attempt, so a switch shows "loading" at once and a late
  // answer for the previous organisation is ignored.
  const [attempt, setAttempt] = useState(0);
  const [result, setResult] = useState<{ key: string; outcome: Outcome } | null>(null);
  const key = `${organizationId}#${attempt}`;

  useEffect(() => {
    if (!organizationId) return;
    const controller = new AbortController();
    void (async () => {
      let outcome: Outcome;
      try {
        const organization = await fetchCurrentOrganization(client, { signal: controller.signal });
        if (organization.id !== organizationId) {
          throw new TranslatableError('organizations.changedWhileLoading');
        }
        dispatch(authEvents.updateOrganizationMetadata(organization.publicMetadata));
        outcome = { status: 'loaded', organization };
      } catch (error) {
        if (controller.signal.aborted) return;
        outcome = { status: 'error', error };
      }
      if (!controller.signal.aborted) setResult({ key, outcome });
    })();
    return () => controller.abort();
  }, [client, dispatch, organizationId, key]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  if (!organizationId) return { state: { status: 'none' }, retry };
  if (result?.key !== key) return { state: { status: 'loading' }, retry };
  const { outcome } = result;
  if (outcome.status === 'error')
    return {
      state: { status: 'error', message: errorMessage(outcome.error, t, 'organizations.loadFailed') },
      retry,
    };
  return { state: outcome, retry };
}
