import { useCallback, useState } from 'react';
import { useVcisoErrorMessage } from './useVcisoErrorMessage.ts';

/** A console form's request: busy while it runs, and its failure as a message for people. */
export function useConsoleAction(): {
  busy: boolean;
  error: string | null;
  run: (action: () => Promise<void>) => Promise<void>;
} {
  const errorMessage = useVcisoErrorMessage();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(
    async (action: () => Promise<void>) => {
      setBusy(true);
      setError(null);
      try {
        await action();
      } catch (failure) {
        setError(errorMessage(failure));
      } finally {
        setBusy(false);
      }
    },
    [errorMessage],
  );
  return { busy, error, run };
}
