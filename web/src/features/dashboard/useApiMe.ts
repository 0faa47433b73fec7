import { useCallback, useEffect, useRef, useState } from 'react';
import { useHttpClient } from '../../lib/http/useHttpClient.ts';
import { fetchMe, type Me } from '../../lib/product-api.ts';

export type ApiMeState =
  | { status: 'loading' }
  | { status: 'verified'; me: Me; checkedAt: Date }
  /** The failure itself: the card words it in the interface language, which may change meanwhile. */
  | { status: 'error'; error: unknown };

/** Asks the product API who the current session belongs to, on mount and whenever `check` is called. */
export function useApiMe(): { state: ApiMeState; check: () => void } {
  // The client keeps its identity for the lifetime of ClerkProvider (and across language changes), so
  // `check` does too and the mount effect below runs once rather than on every session refresh.
  const client = useHttpClient();
  const [state, setState] = useState<ApiMeState>({ status: 'loading' });
  const inFlight = useRef<AbortController | null>(null);

  // Every state change here happens after an await, so starting a run from an effect is safe.
  const run = useCallback(
    (controller: AbortController) => {
      inFlight.current = controller;
      void (async () => {
        try {
          // The client adds the session token (cached while valid, fresh once expired) itself.
          const me = await fetchMe(client, { signal: controller.signal });
          if (controller.signal.aborted) return;
          setState({ status: 'verified', me, checkedAt: new Date() });
        } catch (error) {
          if (controller.signal.aborted) return;
          setState({ status: 'error', error });
        }
      })();
    },
    [client],
  );

  const check = useCallback(() => {
    // Only the latest check may update the card; an older, slower answer must not overwrite it.
    inFlight.current?.abort();
    // Clearing the previous result makes a re-check observable: the status only reappears once verified again.
    setState({ status: 'loading' });
    run(new AbortController());
  }, [run]);

  useEffect(() => {
    const controller = new AbortController();
    run(controller);
    return () => controller.abort();
  }, [run]);

  return { state, check };
}
