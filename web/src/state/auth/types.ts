import type { OrganizationPublicMetadata } from './organization-metadata.ts';

export interface OrganizationMembershipSummary {
  organization: { id: string; slug: string | null };
  /** `org:admin`, `org:member`, `org:vciso` (or a custom role key). */
  role: string;
}

/** The signed-in user as the product sees it (spec §3). */
export interface ProductUser {
  externalId: string | null;
  publicMetadata: { userId?: string } & Record<string, unknown>;
  organizationMemberships: OrganizationMembershipSummary[];
}

/** The active organisation as the product sees it (spec §3). */
export interface ProductOrganization {
  id: string;
  slug: string | null;
  publicMetadata: OrganizationPublicMetadata;
}

/** Spec §3: all start empty or false. */
export interface AuthState {
  /** True when the session is an impersonation session (it has an actor). */
  actorModeEnabled: boolean;
  user: ProductUser | null;
  organization: ProductOrganization | null;
}

export const initialAuthState: AuthState = { actorModeEnabled: false, user: null, organization: null };
