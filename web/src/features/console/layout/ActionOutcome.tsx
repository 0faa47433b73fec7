import type { ReactNode } from 'react';
import { useConsoleErrorText } from '../ConsoleErrorText.tsx';

/** What the last action of a console page gave: its refusal in the interface language, or `done`. */
export function ActionOutcome({ error, done, testId }: { error: unknown; done: ReactNode; testId: string }) {
  const errorText = useConsoleErrorText();
  if (error)
    return (
      <p className="status status--error" role="alert" data-testid={`${testId}-error`}>
        {errorText(error)}
      </p>
    );
  if (!done) return null;
  return (
    <p className="status status--ok" role="status" data-testid={`${testId}-done`}>
      {done}
    </p>
  );
}
