import { useAuth } from '@clerk/clerk-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';

/**
 * Empties the cache when the user signs out, so nothing read for them stays in the tab for the next
 * person; keys are scoped by user as well, this also frees the memory.
 */
export function ForgetQueriesOnSignOut() {
  const { isLoaded, userId } = useAuth();
  const queryClient = useQueryClient();
  const previous = useRef<string | null>(null);
  useEffect(() => {
    if (!isLoaded) return;
    if (previous.current && previous.current !== userId) queryClient.clear();
    previous.current = userId ?? null;
  }, [isLoaded, userId, queryClient]);
  return null;
}
