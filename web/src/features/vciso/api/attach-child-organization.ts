import type { HttpClient } from '../../../lib/http/index.ts';
import { ProductApiError } from '../../../lib/product-api.ts';
import { parseChildOrganization, type ChildOrganization } from './child-organization.ts';
import { childPath } from './children-path.ts';

/** PUT /api/organizations/current/children/:id: an organisation the caller manages becomes a client. */
export async function attachChildOrganization(
  client: HttpClient,
  organizationId: string,
): Promise<ChildOrganization> {
  const path = childPath(organizationId);
  const body = await client.json<unknown>(path, { method: 'PUT', cache: 'no-store' });
  const child = parseChildOrganization(body);
  if (!child) throw new ProductApiError(`The product API sent an unexpected answer for ${path}.`, null);
  return child;
}
