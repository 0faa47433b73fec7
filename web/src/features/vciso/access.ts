import { selectIsVciso } from '../../state/auth/selectors.ts';
import type { AuthState } from '../../state/auth/types.ts';

/** Why the client-organisation console is closed to the user, or null when it is open. */
export type VcisoConsoleAccess = 'open' | 'no-organization' | 'not-vciso' | 'module-off';

/**
 * The console is for a virtual security officer (role `org:vciso` in the active organisation) whose
 * organisation has the vCISO module switched on: the same rule the product API enforces.
 */
export function selectVcisoConsoleAccess(state: AuthState): VcisoConsoleAccess {
  if (!state.organization) return 'no-organization';
  if (!selectIsVciso(state)) return 'not-vciso';
  if (state.organization.publicMetadata.vCisoModuleEnabled !== true) return 'module-off';
  return 'open';
}

/** Whether the navigation offers the console. */
export const selectCanUseVcisoConsole = (state: AuthState): boolean =>
  selectVcisoConsoleAccess(state) === 'open';
