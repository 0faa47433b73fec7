import { useAuth } from '@clerk/clerk-react';
import { useHttpClient } from '../../lib/http/useHttpClient.ts';

/** What every console page needs: the request client and whose console queries these are. */
export function useConsole() {
  const client = useHttpClient();
  const { userId } = useAuth();
  return { client, userId: userId ?? null };
}
