import type { BackendApi } from '../api/backend-api.ts';
import {
  defaultMetadataPatch,
  withDefaultMetadata,
  type OrganizationPublicMetadata,
} from './default-metadata.ts';

export interface ProductOrganization {
  id: string;
  slug: string | null;
  name: string;
  publicMetadata: OrganizationPublicMetadata & Record<string, unknown>;
}

/**
 * Reads an organisation through the Backend API and, the first time, merges its default public
 * metadata before answering.
 *
 * Why a server-side hook on first read rather than an `organization.created` webhook or a browser
 * write: it works identically against hosted Clerk and the embedded provider, there is no webhook
 * delivery that can be lost or arrive after the first page load, and metadata stays writable only
 * with the secret key (the browser can never write it). The patch is a merge of the missing keys
 * only, so concurrent first reads write the same values and the second one changes nothing.
 */
export async function readOrganizationWithDefaults(
  organizations: BackendApi['organizations'],
  organizationId: string,
): Promise<ProductOrganization> {
  let organization = await organizations.getOrganization({ organizationId });
  const patch = defaultMetadataPatch(organization.id, organization.publicMetadata);
  if (patch) {
    organization = await organizations.updateOrganizationMetadata(organization.id, { publicMetadata: patch });
  }
  return {
    id: organization.id,
    slug: organization.slug || null,
    name: organization.name,
    publicMetadata: withDefaultMetadata(organization.id, organization.publicMetadata),
  };
}
