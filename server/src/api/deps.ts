import type { RequestAuthenticator } from '../auth/authenticate.ts';

/** An organisation as the Backend API returns it, reduced to what the product reads. */
export interface BackendOrganization {
  id: string;
  name: string;
  slug: string | null;
  publicMetadata: Record<string, unknown> | null;
}

/**
 * The part of the Backend API (@clerk/backend's ClerkClient) that the product API calls. Narrow on
 * purpose: the real client satisfies it, and tests can run the routes against a small in-memory one.
 */
export interface BackendApi {
  users: {
    getUser(userId: string): Promise<{
      id: string;
      firstName: string | null;
      lastName: string | null;
      primaryEmailAddress: { emailAddress: string } | null;
    }>;
  };
  organizations: {
    getOrganization(params: { organizationId: string }): Promise<BackendOrganization>;
    /** A merge into the stored metadata, as Clerk documents it (a null value deletes its key). */
    updateOrganizationMetadata(
      organizationId: string,
      params: { publicMetadata: Record<string, unknown> },
    ): Promise<BackendOrganization>;
  };
}

export interface ApiDeps extends RequestAuthenticator {
  readonly clerk: BackendApi;
}
