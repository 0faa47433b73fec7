import type { HttpClient } from '../../../lib/http/index.ts';
import { ProductApiError, productApiGet, type ProductRequestOptions } from '../../../lib/product-api.ts';

/** The active organisation's parent, as GET /api/organizations/current/parent answers it. */
export interface ParentOrganization {
  id: string;
  name: string;
  slug: string | null;
  /** Whether the user can switch to it. */
  isMember: boolean;
}

const PATH = '/api/organizations/current/parent';

/** Null when the active organisation has no parent. */
export async function fetchParentOrganization(
  client: HttpClient,
  options: ProductRequestOptions = {},
): Promise<ParentOrganization | null> {
  const body = await productApiGet(client, PATH, options);
  const parent = (body as { parent?: unknown } | null)?.parent;
  if (parent === null) return null;
  const raw = parent as Partial<Record<keyof ParentOrganization, unknown>> | undefined;
  if (
    typeof raw?.id !== 'string' ||
    typeof raw.name !== 'string' ||
    (raw.slug !== null && typeof raw.slug !== 'string') ||
    typeof raw.isMember !== 'boolean'
  ) {
    throw new ProductApiError(`The product API sent an unexpected answer for ${PATH}.`, null);
  }
  return { id: raw.id, name: raw.name, slug: raw.slug, isMember: raw.isMember };
}
