import { useReverification } from '@clerk/clerk-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONSOLE_API, consoleSend } from '../api/console-api.ts';
import { consoleKey } from '../api/console-queries.ts';
import { useConsole } from '../useConsole.ts';

/** What an operator can do to a user from the user's page, and the console API call each makes. */
export type UserAction =
  | { kind: 'lock' | 'unlock' | 'ban' | 'unban' }
  | { kind: 'reset-second-factor' }
  | { kind: 'delete' }
  | { kind: 'revoke-session'; sessionId: string }
  | { kind: 'impersonate'; reason: string }
  | { kind: 'remove-passkey'; passkeyId: string }
  | { kind: 'revoke-api-key'; apiKeyId: string };

function request(
  userId: string,
  action: UserAction,
): { method: 'POST' | 'DELETE'; path: string; body?: unknown } {
  const user = `${CONSOLE_API}/users/${encodeURIComponent(userId)}`;
  switch (action.kind) {
    case 'lock':
    case 'unlock':
    case 'ban':
    case 'unban':
      return { method: 'POST', path: `${user}/${action.kind}` };
    case 'reset-second-factor':
      return { method: 'DELETE', path: `${user}/mfa` };
    case 'delete':
      return { method: 'DELETE', path: user };
    case 'revoke-session':
      return { method: 'POST', path: `${user}/sessions/${encodeURIComponent(action.sessionId)}/revoke` };
    case 'impersonate':
      return { method: 'POST', path: `${user}/impersonate`, body: { reason: action.reason } };
    case 'remove-passkey':
      return { method: 'DELETE', path: `${user}/passkeys/${encodeURIComponent(action.passkeyId)}` };
    case 'revoke-api-key':
      return { method: 'POST', path: `${user}/api-keys/${encodeURIComponent(action.apiKeyId)}/revoke` };
  }
}

/**
 * Runs a user action through Clerk's `useReverification`: when the console API answers that the session
 * must prove its factors again (destructive actions), Clerk's <UserVerification/> opens and the call is
 * sent again once it is done. The user's page and the lists are read again afterwards.
 */
export function useUserAction(userId: string) {
  const { client, userId: operatorId } = useConsole();
  const queries = useQueryClient();
  const send = useReverification((action: UserAction) => {
    const { method, path, body } = request(userId, action);
    return consoleSend<unknown>(client, method, path, body);
  });
  return useMutation({
    mutationFn: (action: UserAction) => send(action),
    onSuccess: (_answer, action) => {
      if (action.kind !== 'impersonate') void queries.invalidateQueries({ queryKey: consoleKey(operatorId) });
    },
  });
}
