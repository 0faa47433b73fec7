import { roleHasAdminRights, roleIsVciso } from './roles.ts';
import type { AuthState, OrganizationMembershipSummary } from './types.ts';

/** Signed-in is true when a user exists. */
export const selectIsSignedIn = (state: AuthState): boolean => state.user !== null;

/** The user's membership in the active organisation; undefined with no user or no active organisation. */
export function selectActiveMembership(state: AuthState): OrganizationMembershipSummary | undefined {
  const { user, organization } = state;
  if (!user || !organization) return undefined;
  return user.organizationMemberships.find((m) => m.organization.id === organization.id);
}

/** The role from the user's membership in the active organisation. */
export const selectRole = (state: AuthState): string | undefined => selectActiveMembership(state)?.role;

/** Admin rights: `org:admin` or `org:vciso`. */
export const selectHasAdminRights = (state: AuthState): boolean => roleHasAdminRights(selectRole(state));

/** The virtual security officer flag: `org:vciso` only. */
export const selectIsVciso = (state: AuthState): boolean => roleIsVciso(selectRole(state));

/** The current organisation slug, from the user's membership in the active organisation. */
export const selectCurrentOrganizationSlug = (state: AuthState): string | null | undefined =>
  selectActiveMembership(state)?.organization.slug;
