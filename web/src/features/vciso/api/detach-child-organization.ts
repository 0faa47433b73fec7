import type { HttpClient } from '../../../lib/http/index.ts';
import { childPath } from './children-path.ts';

/** DELETE /api/organizations/current/children/:id: the organisation stays, no longer a client. */
export async function detachChildOrganization(client: HttpClient, organizationId: string): Promise<void> {
  await client.json<unknown>(childPath(organizationId), { method: 'DELETE', cache: 'no-store' });
}
