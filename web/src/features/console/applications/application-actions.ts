import { useConsoleAction, type ConsoleRequest } from '../api/console-action.ts';
import { CONSOLE_API } from '../api/console-api.ts';

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

function request(action: ApplicationAction): ConsoleRequest {
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
 * Runs an applications action, re-verified as the sign-up area's are: revoking, rotating a secret and
 * deleting need a session that proved its factors recently. The console's lists are read again afterwards.
 */
export function useApplicationAction() {
  return useConsoleAction(request);
}
