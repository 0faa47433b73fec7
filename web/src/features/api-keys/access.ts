import { hasPermission } from '@app/contract';
import { selectRole } from '../../state/auth/selectors.ts';
import type { AuthState } from '../../state/auth/types.ts';

/** Why the organisation's API keys page is closed to the user, or 'open'. */
export type ApiKeysAccess = 'open' | 'no-organization' | 'no-permission';

/**
 * The organisation's keys are for whoever holds `org:sys_api_keys:read` (or `:manage`) in the active
 * organisation: the rule the identity provider enforces, and the one clerk-js's <APIKeys/> checks
 * before it renders (it refuses to mount without it, `cannot_render_api_keys_org_unauthorized`).
 */
export function selectApiKeysAccess(state: AuthState): ApiKeysAccess {
  if (!state.organization) return 'no-organization';
  const role = selectRole(state) ?? '';
  const allowed =
    hasPermission(role, 'org:sys_api_keys:read') || hasPermission(role, 'org:sys_api_keys:manage');
  return allowed ? 'open' : 'no-permission';
}

export const selectCanSeeApiKeys = (state: AuthState): boolean => selectApiKeysAccess(state) === 'open';
