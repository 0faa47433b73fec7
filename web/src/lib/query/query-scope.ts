import { useAuth } from '@clerk/clerk-react';
import { useAuthState } from '../../state/auth/AuthStateProvider.tsx';

/**
 * Whose data a product answer is: the product API answers for the session's user and its active
 * organisation, so every cached answer is filed under both. Switching organisation (or account) then
 * reads another entry and can never show the previous tenant's data, even for a moment.
 */
export interface QueryScope {
  userId: string | null;
  organizationId: string | null;
}

/** The root of every product query key; invalidating it forgets everything read for that scope. */
export const scopeKey = (scope: QueryScope) => ['product', scope.userId, scope.organizationId] as const;

export function useQueryScope(): QueryScope {
  const { userId } = useAuth();
  const organizationId = useAuthState().organization?.id ?? null;
  return { userId: userId ?? null, organizationId };
}
