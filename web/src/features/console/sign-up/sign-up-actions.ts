import { useReverification } from '@clerk/clerk-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONSOLE_API, consoleSend } from '../api/console-api.ts';
import { consoleKey, type IdentifierList } from '../api/console-queries.ts';
import { useConsole } from '../useConsole.ts';

/** What an operator can do from the sign-up area, and the console API call each makes. */
export type SignUpAction =
  | { kind: 'invite-entry' | 'reject-entry'; entryId: string }
  | { kind: 'create-invitation'; emailAddress: string; redirectUrl: string }
  | { kind: 'revoke-invitation'; invitationId: string }
  | { kind: 'add-identifier'; list: IdentifierList; identifier: string }
  | { kind: 'remove-identifier'; list: IdentifierList; identifierId: string };

function request(action: SignUpAction): { method: 'POST' | 'DELETE'; path: string; body?: unknown } {
  const base = `${CONSOLE_API}/sign-up`;
  switch (action.kind) {
    case 'invite-entry':
      return { method: 'POST', path: `${base}/waitlist/${encodeURIComponent(action.entryId)}/invite` };
    case 'reject-entry':
      return { method: 'POST', path: `${base}/waitlist/${encodeURIComponent(action.entryId)}/reject` };
    case 'create-invitation':
      return {
        method: 'POST',
        path: `${base}/invitations`,
        body: {
          email_address: action.emailAddress,
          ...(action.redirectUrl ? { redirect_url: action.redirectUrl } : {}),
        },
      };
    case 'revoke-invitation':
      return {
        method: 'POST',
        path: `${base}/invitations/${encodeURIComponent(action.invitationId)}/revoke`,
      };
    case 'add-identifier':
      return { method: 'POST', path: `${base}/${action.list}`, body: { identifier: action.identifier } };
    case 'remove-identifier':
      return { method: 'DELETE', path: `${base}/${action.list}/${encodeURIComponent(action.identifierId)}` };
  }
}

/**
 * Runs a sign-up action through Clerk's `useReverification`, as the user actions do: rejecting, revoking
 * and removing need a session that proved its factors recently, and Clerk's <UserVerification/> opens
 * when it has not. The console's lists are read again afterwards.
 */
export function useSignUpAction() {
  const { client, userId } = useConsole();
  const queries = useQueryClient();
  const send = useReverification((action: SignUpAction) => {
    const { method, path, body } = request(action);
    return consoleSend<unknown>(client, method, path, body);
  });
  return useMutation({
    mutationFn: (action: SignUpAction) => send(action),
    onSuccess: () => void queries.invalidateQueries({ queryKey: consoleKey(userId) }),
  });
}
