import type { HttpClient } from '../../../lib/http/index.ts';
import { ProductApiError, productApiGet, type ProductRequestOptions } from '../../../lib/product-api.ts';
import { parseChildOrganization, type ChildOrganization } from './child-organization.ts';
import { CHILDREN_PATH } from './children-path.ts';

/** GET /api/organizations/current/children: `{ data: ChildOrganization[] }`, in the order they were added. */
export async function listChildOrganizations(
  client: HttpClient,
  options: ProductRequestOptions = {},
): Promise<ChildOrganization[]> {
  const body = await productApiGet(client, CHILDREN_PATH, options);
  const data = (body as { data?: unknown } | null)?.data;
  const children = Array.isArray(data) ? data.map(parseChildOrganization) : null;
  if (!children || children.some((child) => child === null)) {
    throw new ProductApiError(`The product API sent an unexpected answer for ${CHILDREN_PATH}.`, null);
  }
  return children as ChildOrganization[];
}
