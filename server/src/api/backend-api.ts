import type { BillingSubscriptionView } from '../billing/subscription-status.ts';

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
    /** `emailAddress` matches any address of a user, verified or not (as Clerk's list does). */
    getUserList(params: { emailAddress: string[]; limit?: number }): Promise<{
      data: {
        id: string;
        emailAddresses: { emailAddress: string; verification: { status: string } | null }[];
      }[];
    }>;
  };
  organizations: {
    getOrganization(params: { organizationId: string }): Promise<BackendOrganization>;
    /** A merge into the stored metadata, as Clerk documents it (a null value deletes its key). */
    updateOrganizationMetadata(
      organizationId: string,
      params: { publicMetadata: Record<string, unknown> },
    ): Promise<BackendOrganization>;
    /** Without `createdBy` the organisation starts with no member at all. */
    createOrganization(params: {
      name: string;
      slug?: string;
      publicMetadata?: Record<string, unknown>;
    }): Promise<BackendOrganization>;
    deleteOrganization(organizationId: string): Promise<unknown>;
    /** `organizationId` filters by id (at most 100 per call, as `limit`). */
    getOrganizationList(params: {
      organizationId?: string[];
      limit?: number;
      offset?: number;
      orderBy?: '+created_at';
    }): Promise<{ data: BackendOrganization[]; totalCount: number }>;
    getOrganizationMembershipList(params: {
      organizationId: string;
      userId?: string[];
      limit?: number;
    }): Promise<{ data: BackendMembership[]; totalCount: number }>;
    createOrganizationMembership(params: {
      organizationId: string;
      userId: string;
      role: string;
    }): Promise<BackendMembership>;
    getOrganizationInvitationList(params: {
      organizationId: string;
      status?: ('pending' | 'accepted' | 'revoked' | 'expired')[];
      limit?: number;
      offset?: number;
    }): Promise<{ data: { id: string; emailAddress: string }[]; totalCount: number }>;
    /** Mails the address its invitation (a pending one to the same address is refreshed by Clerk). */
    createOrganizationInvitation(params: {
      organizationId: string;
      emailAddress: string;
      role: string;
      inviterUserId?: string;
    }): Promise<{ id: string; emailAddress: string; role: string }>;
  };
  billing: {
    /** The organisation's subscription (docs/billing.md); 404 when the provider has none for it. */
    getOrganizationBillingSubscription(organizationId: string): Promise<BillingSubscriptionView>;
  };
}

/** A membership as the Backend API returns it, reduced to what the product reads. */
export interface BackendMembership {
  role: string;
  organization: { id: string };
  publicUserData?: { userId: string } | null;
}
