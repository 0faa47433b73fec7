import type { HttpClient } from '../../../lib/http/client.ts';
import { ProductApiError, productApiGet, type ProductRequestOptions } from '../../../lib/product-api.ts';
import {
  parseOrganizationPublicMetadata,
  type OrganizationPublicMetadata,
} from '../../../state/auth/organization-metadata.ts';

/** GET /api/organizations/current: the session's active organisation, its metadata defaults applied. */
export interface CurrentOrganization {
  id: string;
  slug: string | null;
  name: string;
  publicMetadata: OrganizationPublicMetadata;
}

export async function fetchCurrentOrganization(
  client: HttpClient,
  options: ProductRequestOptions = {},
): Promise<CurrentOrganization> {
  const body = await productApiGet(client, '/api/organizations/current', options);
  const organization = parseCurrentOrganization(body);
  if (!organization) {
    throw new ProductApiError(
      'The product API sent an unexpected answer for /api/organizations/current.',
      null,
    );
  }
  return organization;
}

export function parseCurrentOrganization(body: unknown): CurrentOrganization | null {
  if (typeof body !== 'object' || body === null) return null;
  const raw = body as Record<string, unknown>;
  if (typeof raw.id !== 'string' || typeof raw.name !== 'string') return null;
  if (raw.slug !== null && typeof raw.slug !== 'string') return null;
  return {
    id: raw.id,
    slug: raw.slug,
    name: raw.name,
    publicMetadata: parseOrganizationPublicMetadata(raw.publicMetadata),
  };
}
