import type { HttpClient } from '../../../lib/http/index.ts';
import { ProductApiError } from '../../../lib/product-api.ts';
import { parseChildOrganization, type ChildOrganization } from './child-organization.ts';
import { CHILDREN_PATH } from './children-path.ts';

export interface NewChildOrganization {
  name: string;
  /** Left out: the server derives it from the name. */
  slug?: string;
}

/** POST /api/organizations/current/children: the caller becomes the new organisation's vCISO. */
export async function createChildOrganization(
  client: HttpClient,
  input: NewChildOrganization,
): Promise<ChildOrganization> {
  const body = await client.json<unknown>(CHILDREN_PATH, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(input),
    cache: 'no-store',
  });
  const child = parseChildOrganization(body);
  if (!child) {
    throw new ProductApiError(`The product API sent an unexpected answer for ${CHILDREN_PATH}.`, null);
  }
  return child;
}
