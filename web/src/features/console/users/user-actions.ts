import { useConsoleAction, type ConsoleRequest } from '../api/console-action.ts';
import { CONSOLE_API } from '../api/console-api.ts';

/** What an operator can do to a user from the user's page, and the console API call each makes. */
export type UserAction =
  | { kind: 'lock' | 'unlock' | 'ban' | 'unban' }
  | { kind: 'reset-second-factor' }
  | { kind: 'require-password-reset' | 'withdraw-password-reset' }
  | { kind: 'delete' }
  | { kind: 'revoke-session'; sessionId: string }
  | { kind: 'impersonate'; reason: string }
  | { kind: 'remove-passkey'; passkeyId: string }
  | { kind: 'revoke-api-key'; apiKeyId: string };

function request(userId: string, action: UserAction): ConsoleRequest {
  const user = `${CONSOLE_API}/users/${encodeURIComponent(userId)}`;
  switch (action.kind) {
    case 'lock':
    case 'unlock':
    case 'ban':
    case 'unban':
      return { method: 'POST', path: `${user}/${action.kind}` };
    case 'reset-second-factor':
      return { method: 'DELETE', path: `${user}/mfa` };
    case 'require-password-reset':
      return { method: 'POST', path: `${user}/require_password_reset` };
    case 'withdraw-password-reset':
      return { method: 'DELETE', path: `${user}/require_password_reset` };
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
 * Runs a user action, re-verified when the console API asks for it (destructive actions: Clerk's
 * <UserVerification/> opens). The user's page and the lists are read again afterwards, except after an
 * impersonation, which changes neither.
 */
export function useUserAction(userId: string) {
  return useConsoleAction(
    (action: UserAction) => request(userId, action),
    (action) => action.kind !== 'impersonate',
  );
}
