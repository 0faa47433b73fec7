/** Spec §9: the "Copied" confirmation of a code block lasts 3 seconds. */
export const COPY_CONFIRMATION_MS = 3_000;

export type CopyOutcome = 'copied' | 'failed';

export interface TransientStatus<S> {
  /** Shows `status` now and hides it after the duration; showing again restarts the clock. */
  show(status: S): void;
  /** Stops the clock for good (unmount): nothing is reported afterwards. */
  dispose(): void;
}

/**
 * A status that shows for `durationMs`, then clears (`onChange(null)`). Plain timers rather than React
 * state so the timing can be tested with fake timers and the component only mirrors what it reports.
 */
export function createTransientStatus<S>(
  durationMs: number,
  onChange: (status: S | null) => void,
): TransientStatus<S> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;
  return {
    show(status) {
      if (disposed) return;
      clearTimeout(timer);
      onChange(status);
      timer = setTimeout(() => {
        timer = undefined;
        onChange(null);
      }, durationMs);
    },
    dispose() {
      disposed = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

/**
 * Writes `text` to the clipboard. The Clipboard API is missing outside secure contexts and may refuse
 * (permissions, no focus), so the outcome is a value the button reports rather than an exception.
 */
export async function copyText(
  text: string,
  clipboard: Pick<Clipboard, 'writeText'> | undefined,
): Promise<CopyOutcome> {
  if (!clipboard) return 'failed';
  try {
    await clipboard.writeText(text);
    return 'copied';
  } catch {
    return 'failed';
  }
}
