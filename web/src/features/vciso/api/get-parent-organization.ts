import { PARENT_PATH, parentOrganizationAnswerSchema, type ParentOrganization } from '@app/contract';
import type { HttpClient } from '../../../lib/http/index.ts';
import { parseAnswer, productApiGet, type ProductRequestOptions } from '../../../lib/product-api.ts';

/** The active organisation's parent, as GET /api/organizations/current/parent answers it. */
export type { ParentOrganization };

/** Null when the active organisation has no parent. */
export async function fetchParentOrganization(
  client: HttpClient,
  options: ProductRequestOptions = {},
): Promise<ParentOrganization | null> {
  const body = await productApiGet(client, PARENT_PATH, options);
  return parseAnswer(parentOrganizationAnswerSchema, body, PARENT_PATH).parent;
}
