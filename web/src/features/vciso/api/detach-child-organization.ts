import { detachedChildSchema } from '@app/contract';
import type { HttpClient } from '../../../lib/http/index.ts';
import { parseAnswer } from '../../../lib/product-api.ts';
import { childPath } from './children-path.ts';

/** DELETE /api/organizations/current/children/:id: the organisation stays, no longer a client. */
export async function detachChildOrganization(client: HttpClient, organizationId: string): Promise<void> {
  const path = childPath(organizationId);
  parseAnswer(
    detachedChildSchema,
    await client.json<unknown>(path, { method: 'DELETE', cache: 'no-store' }),
    path,
  );
}
