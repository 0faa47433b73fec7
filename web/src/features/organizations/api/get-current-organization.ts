import {
  CURRENT_ORGANIZATION_PATH,
  currentOrganizationSchema,
  type CurrentOrganization,
} from '@app/contract';
import type { HttpClient } from '../../../lib/http/client.ts';
import { parseAnswer, productApiGet, type ProductRequestOptions } from '../../../lib/product-api.ts';

/** GET /api/organizations/current: the session's active organisation, its metadata defaults applied. */
export type { CurrentOrganization };

export async function fetchCurrentOrganization(
  client: HttpClient,
  options: ProductRequestOptions = {},
): Promise<CurrentOrganization> {
  const body = await productApiGet(client, CURRENT_ORGANIZATION_PATH, options);
  return parseAnswer(currentOrganizationSchema, body, CURRENT_ORGANIZATION_PATH);
}

/** The organisation of a GET current (or settings) answer, or null when it is not one. */
export function parseCurrentOrganization(body: unknown): CurrentOrganization | null {
  const parsed = currentOrganizationSchema.safeParse(body);
  return parsed.success ? parsed.data : null;
}
