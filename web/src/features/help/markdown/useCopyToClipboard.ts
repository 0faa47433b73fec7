import { useCallback, useEffect, useRef, useState } from 'react';
import {
  COPY_CONFIRMATION_MS,
  copyText,
  createTransientStatus,
  type CopyOutcome,
  type TransientStatus,
} from './copy-confirmation.ts';

/** Copies text and reports the outcome for COPY_CONFIRMATION_MS; the timer dies with the component. */
export function useCopyToClipboard(): { outcome: CopyOutcome | null; copy: (text: string) => void } {
  const [outcome, setOutcome] = useState<CopyOutcome | null>(null);
  const status = useRef<TransientStatus<CopyOutcome> | null>(null);

  useEffect(() => {
    const transient = createTransientStatus<CopyOutcome>(COPY_CONFIRMATION_MS, setOutcome);
    status.current = transient;
    return () => {
      transient.dispose();
      status.current = null;
    };
  }, []);

  const copy = useCallback((text: string) => {
    const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
    void copyText(text, clipboard).then((result) => status.current?.show(result));
  }, []);

  return { outcome, copy };
}
