import { useEffect, useState } from 'react';
import { useHttpClient } from '../../lib/http/useHttpClient.ts';
import { fetchMe, type ImpersonationActor } from '../../lib/product-api.ts';

/**
 * Who is impersonating the user in session `sessionId`, as the product API reads it from the verified
 * token (`GET /api/me` → `actor`, with name and address from the Backend API). Null until it answers,
 * and if it cannot: the caller then shows what clerk-js knows (`session.actor.sub`).
 */
export function useImpersonationActor(sessionId: string | null): ImpersonationActor | null {
  const client = useHttpClient();
  const [found, setFound] = useState<{ sessionId: string; actor: ImpersonationActor | null } | null>(null);

  useEffect(() => {
    if (!sessionId) return;
    const controller = new AbortController();
    fetchMe(client, { signal: controller.signal }).then(
      (me) => {
        if (!controller.signal.aborted) setFound({ sessionId, actor: me.actor ?? null });
      },
      // The banner still names the actor by id; nothing to add for a failed lookup.
      () => {},
    );
    return () => controller.abort();
  }, [client, sessionId]);

  // An answer for an earlier session never describes this one.
  return found?.sessionId === sessionId ? found.actor : null;
}
