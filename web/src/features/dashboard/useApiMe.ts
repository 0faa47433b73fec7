import { useAuth } from '@clerk/clerk-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchMe, type Me } from '../../lib/product-api.ts';

export type ApiMeState =
  | { status: 'loading' }
  | { status: 'verified'; me: Me; checkedAt: Date }
  | { status: 'error'; message: string };

/** Asks the product API who the current session belongs to, on mount and whenever `check` is called. */
export function useApiMe(): { state: ApiMeState; check: () => void } {
  // getToken keeps its identity for the lifetime of ClerkProvider, so `check` does too and the
  // mount effect below runs once rather than on every session refresh.
  const { getToken } = useAuth();
  const [state, setState] = useState<ApiMeState>({ status: 'loading' });
  const inFlight = useRef<AbortController | null>(null);

  // Every state change here happens after an await, so starting a run from an effect is safe.
  const run = useCallback(
    (controller: AbortController) => {
      inFlight.current = controller;
      void (async () => {
        try {
          // Returns the cached token while it is valid and mints a fresh one once it has expired.
          const token = await getToken();
          if (controller.signal.aborted) return;
          if (!token) {
            setState({ status: 'error', message: 'There is no active session to send.' });
            return;
          }
          const me = await fetchMe({ token, signal: controller.signal });
          if (controller.signal.aborted) return;
          setState({ status: 'verified', me, checkedAt: new Date() });
        } catch (error) {
          if (controller.signal.aborted) return;
          const message = error instanceof Error ? error.message : 'The check failed for an unknown reason.';
          setState({ status: 'error', message });
        }
      })();
    },
    [getToken],
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
