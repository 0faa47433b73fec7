import { mergeOrganizationMetadata, type OrganizationPublicMetadata } from './organization-metadata.ts';
import type { AuthState, ProductOrganization, ProductUser } from './types.ts';

/** The four events that change the auth state (spec §4). */
export type AuthEvent =
  | { type: 'userDetailsSet'; user: ProductUser | null }
  | { type: 'organizationDetailsSet'; organization: ProductOrganization | null }
  | { type: 'actorModeEnabledSet'; enabled: boolean }
  | { type: 'organizationMetadataUpdated'; metadata: Partial<OrganizationPublicMetadata> };

export const authEvents = {
  setUserDetails: (user: ProductUser | null): AuthEvent => ({ type: 'userDetailsSet', user }),
  setOrganizationDetails: (organization: ProductOrganization | null): AuthEvent => ({
    type: 'organizationDetailsSet',
    organization,
  }),
  setActorModeEnabled: (enabled: boolean): AuthEvent => ({ type: 'actorModeEnabledSet', enabled }),
  updateOrganizationMetadata: (metadata: Partial<OrganizationPublicMetadata>): AuthEvent => ({
    type: 'organizationMetadataUpdated',
    metadata,
  }),
};

/** Pure: returns the same object when an event changes nothing, so React skips the re-render. */
export function authReducer(state: AuthState, event: AuthEvent): AuthState {
  switch (event.type) {
    case 'userDetailsSet':
      return { ...state, user: event.user };
    case 'organizationDetailsSet':
      return { ...state, organization: event.organization };
    case 'actorModeEnabledSet':
      return state.actorModeEnabled === event.enabled ? state : { ...state, actorModeEnabled: event.enabled };
    case 'organizationMetadataUpdated':
      // Metadata belongs to an organisation: without one there is nothing to merge into.
      if (!state.organization) return state;
      return {
        ...state,
        organization: {
          ...state.organization,
          publicMetadata: mergeOrganizationMetadata(state.organization.publicMetadata, event.metadata),
        },
      };
  }
}
