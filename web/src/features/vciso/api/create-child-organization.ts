import {
  CHILDREN_PATH,
  childOrganizationSchema,
  type ChildOrganization,
  type NewChildOrganization,
} from '@app/contract';
import type { HttpClient } from '../../../lib/http/index.ts';
import { productApiSend } from '../../../lib/product-api.ts';

/** `{ name, slug? }`; a slug left out is derived by the server from the name. */
export type { NewChildOrganization };

/** POST /api/organizations/current/children: the caller becomes the new organisation's vCISO. */
export function createChildOrganization(
  client: HttpClient,
  input: NewChildOrganization,
): Promise<ChildOrganization> {
  return productApiSend(client, 'POST', CHILDREN_PATH, input, childOrganizationSchema);
}
