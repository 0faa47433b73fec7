import { useConsoleAction, type ConsoleRequest } from '../api/console-action.ts';
import { CONSOLE_API } from '../api/console-api.ts';
import type { IdentifierList } from '../api/console-queries.ts';

/** What an operator can do from the sign-up area, and the console API call each makes. */
export type SignUpAction =
  | { kind: 'invite-entry' | 'reject-entry'; entryId: string }
  | { kind: 'create-invitation'; emailAddress: string; redirectUrl: string }
  | { kind: 'revoke-invitation'; invitationId: string }
  | { kind: 'add-identifier'; list: IdentifierList; identifier: string }
  | { kind: 'remove-identifier'; list: IdentifierList; identifierId: string };

function request(action: SignUpAction): ConsoleRequest {
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
 * Runs a sign-up action, re-verified as the user actions are: rejecting, revoking and removing need a
 * session that proved its factors recently. The console's lists are read again afterwards.
 */
export function useSignUpAction() {
  return useConsoleAction(request);
}
