import { useReverification } from '@clerk/clerk-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONSOLE_API, consoleSend } from '../api/console-api.ts';
import { consoleKey } from '../api/console-queries.ts';
import { useConsole } from '../useConsole.ts';

/** A new OAuth application, as the console API takes it. */
export interface NewOAuthApplication {
  name: string;
  redirect_uris: string[];
  public: boolean;
  scopes: string[];
}

/** A new machine: its name, its tokens' lifetime in seconds, the machines it may call. */
export interface NewMachine {
  name: string;
  default_token_ttl?: number;
  scoped_machines?: string[];
}

/** What an operator can do from the applications area, and the console API call each makes. */
export type ApplicationAction =
  | { kind: 'revoke-api-key'; apiKeyId: string; reason: string }
  | { kind: 'create-oauth-application'; application: NewOAuthApplication }
  | { kind: 'rotate-oauth-secret' | 'delete-oauth-application'; applicationId: string }
  | { kind: 'create-machine'; machine: NewMachine }
  | { kind: 'delete-machine'; machineId: string };

function request(action: ApplicationAction): { method: 'POST' | 'DELETE'; path: string; body?: unknown } {
  const base = `${CONSOLE_API}/applications`;
  switch (action.kind) {
    case 'revoke-api-key':
      return {
        method: 'POST',
        path: `${base}/api-keys/${encodeURIComponent(action.apiKeyId)}/revoke`,
        body: action.reason ? { reason: action.reason } : {},
      };
    case 'create-oauth-application':
      return { method: 'POST', path: `${base}/oauth`, body: action.application };
    case 'rotate-oauth-secret':
      return {
        method: 'POST',
        path: `${base}/oauth/${encodeURIComponent(action.applicationId)}/rotate-secret`,
      };
    case 'delete-oauth-application':
      return { method: 'DELETE', path: `${base}/oauth/${encodeURIComponent(action.applicationId)}` };
    case 'create-machine':
      return { method: 'POST', path: `${base}/machines`, body: action.machine };
    case 'delete-machine':
      return { method: 'DELETE', path: `${base}/machines/${encodeURIComponent(action.machineId)}` };
  }
}

/**
 * Runs an applications action through Clerk's `useReverification`, as the sign-up area does: revoking,
 * rotating a secret and deleting need a session that proved its factors recently, and Clerk's
 * <UserVerification/> opens when it has not. The console's lists are read again afterwards.
 */
export function useApplicationAction() {
  const { client, userId } = useConsole();
  const queries = useQueryClient();
  const send = useReverification((action: ApplicationAction) => {
    const { method, path, body } = request(action);
    return consoleSend<unknown>(client, method, path, body);
  });
  return useMutation({
    mutationFn: (action: ApplicationAction) => send(action),
    onSuccess: () => void queries.invalidateQueries({ queryKey: consoleKey(userId) }),
  });
}
