import { childOrganizationSchema, type ChildOrganization } from '@app/contract';
import type { HttpClient } from '../../../lib/http/index.ts';
import { parseAnswer } from '../../../lib/product-api.ts';
import { childPath } from './children-path.ts';

/** PUT /api/organizations/current/children/:id: an organisation the caller manages becomes a client. */
export async function attachChildOrganization(
  client: HttpClient,
  organizationId: string,
): Promise<ChildOrganization> {
  const path = childPath(organizationId);
  const body = await client.json<unknown>(path, { method: 'PUT', cache: 'no-store' });
  return parseAnswer(childOrganizationSchema, body, path);
}
