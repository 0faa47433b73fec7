import type { UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';

/**
 * What the last run of a console action gave (for ActionOutcome's `done`): `run` clears it, sends the
 * change, and on success keeps what `outcome` makes of the answer.
 */
export function useActionOutcome<A, D = string>(action: UseMutationResult<unknown, Error, A>) {
  const [done, setDone] = useState<D | null>(null);
  const run = (change: A, outcome: (answer: unknown) => D) => {
    setDone(null);
    action.mutate(change, { onSuccess: (answer) => setDone(() => outcome(answer)) });
  };
  return { done, run };
}
