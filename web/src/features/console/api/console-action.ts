import { useReverification } from '@clerk/clerk-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useConsole } from '../useConsole.ts';
import { consoleSend } from './console-api.ts';
import { consoleKey } from './console-queries.ts';

/** The console API call an action makes. */
export interface ConsoleRequest {
  method: 'POST' | 'DELETE';
  path: string;
  body?: unknown;
}

/**
 * Runs a console action (`request` says which call it makes) through Clerk's `useReverification`: when the
 * console API answers that the session must prove its factors again (destructive actions), Clerk's
 * <UserVerification/> opens and the call is sent again once it is done. The console's queries are read
 * again afterwards, unless `refreshes` says the action changed nothing they show.
 */
export function useConsoleAction<A>(
  request: (action: A) => ConsoleRequest,
  refreshes: (action: A) => boolean = () => true,
) {
  const { client, userId } = useConsole();
  const queries = useQueryClient();
  const send = useReverification((action: A) => {
    const { method, path, body } = request(action);
    return consoleSend<unknown>(client, method, path, body);
  });
  return useMutation({
    mutationFn: (action: A) => send(action),
    onSuccess: (_answer, action) => {
      if (refreshes(action)) void queries.invalidateQueries({ queryKey: consoleKey(userId) });
    },
  });
}
