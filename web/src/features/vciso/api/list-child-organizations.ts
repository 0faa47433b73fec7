import { CHILDREN_PATH, childOrganizationListSchema, type ChildOrganization } from '@app/contract';
import type { HttpClient } from '../../../lib/http/index.ts';
import { parseAnswer, productApiGet, type ProductRequestOptions } from '../../../lib/product-api.ts';

/** GET /api/organizations/current/children: `{ data: ChildOrganization[] }`, in the order they were added. */
export async function listChildOrganizations(
  client: HttpClient,
  options: ProductRequestOptions = {},
): Promise<ChildOrganization[]> {
  const body = await productApiGet(client, CHILDREN_PATH, options);
  return parseAnswer(childOrganizationListSchema, body, CHILDREN_PATH).data;
}
