import type { AuthState } from './types.ts';

export const CREATE_ORGANIZATION_PATH = '/create-organization';

/**
 * Pages where a signed-in user without an organisation can get one: creating it, or (on the list)
 * accepting an invitation. The rule does not send people away from these.
 */
export const ORGANIZATION_CHOICE_PATHS: readonly string[] = [CREATE_ORGANIZATION_PATH, '/organizations'];

export type EmptyOrganizationAction =
  | { type: 'none' }
  /** Make this organisation active (clerk-js `setActive({ organization })`). */
  | { type: 'activateOrganization'; organizationId: string }
  | { type: 'goToCreateOrganization'; path: typeof CREATE_ORGANIZATION_PATH };

const NONE: EmptyOrganizationAction = { type: 'none' };

/**
 * Spec §4: when the organisation details are empty while a user is signed in, the first membership's
 * organisation becomes active; with no membership, the user goes to the create-organisation screen.
 */
export function decideEmptyOrganizationAction(state: AuthState, pathname: string): EmptyOrganizationAction {
  if (!state.user || state.organization) return NONE;
  const first = state.user.organizationMemberships[0];
  if (first) return { type: 'activateOrganization', organizationId: first.organization.id };
  if (ORGANIZATION_CHOICE_PATHS.includes(pathname.replace(/\/+$/, '') || '/')) return NONE;
  return { type: 'goToCreateOrganization', path: CREATE_ORGANIZATION_PATH };
}
