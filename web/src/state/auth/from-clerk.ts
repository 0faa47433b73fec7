import { parseOrganizationPublicMetadata } from './organization-metadata.ts';
import type { ProductOrganization, ProductUser } from './types.ts';

/** The fields of clerk-js's UserResource the product reads (structural, so this module stays pure). */
export interface ClerkUserFields {
  externalId: string | null;
  publicMetadata: Record<string, unknown>;
  organizationMemberships: { organization: { id: string; slug: string | null }; role: string }[];
}

/** The fields of clerk-js's OrganizationResource the product reads. */
export interface ClerkOrganizationFields {
  id: string;
  slug: string | null;
  publicMetadata: Record<string, unknown>;
}

export function productUserFromClerk(user: ClerkUserFields | null | undefined): ProductUser | null {
  if (!user) return null;
  const { userId, ...rest } = user.publicMetadata ?? {};
  return {
    externalId: user.externalId ?? null,
    publicMetadata: typeof userId === 'string' ? { ...rest, userId } : rest,
    organizationMemberships: (user.organizationMemberships ?? []).map((m) => ({
      organization: { id: m.organization.id, slug: m.organization.slug ?? null },
      role: m.role,
    })),
  };
}

export function productOrganizationFromClerk(
  organization: ClerkOrganizationFields | null | undefined,
): ProductOrganization | null {
  if (!organization) return null;
  return {
    id: organization.id,
    slug: organization.slug ?? null,
    publicMetadata: parseOrganizationPublicMetadata(organization.publicMetadata),
  };
}
