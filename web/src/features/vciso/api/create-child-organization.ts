import {
  CHILDREN_PATH,
  childOrganizationSchema,
  type ChildOrganization,
  type NewChildOrganization,
} from '@app/contract';
import type { HttpClient } from '../../../lib/http/index.ts';
import { parseAnswer } from '../../../lib/product-api.ts';

/** `{ name, slug? }`; a slug left out is derived by the server from the name. */
export type { NewChildOrganization };

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
  return parseAnswer(childOrganizationSchema, body, CHILDREN_PATH);
}
