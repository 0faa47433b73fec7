import { ClerkAPIResponseError } from '@clerk/shared/error';
import assert from 'node:assert/strict';
import type { BackendApi } from '../../src/api/backend-api.ts';
import { sessionToken, type EmbeddedServer, type User } from './embedded-server.ts';

/** Real organisations on the embedded provider, made as people would (Frontend API and product API). */

export const CHILDREN = '/api/organizations/current/children';
export const PARENT = '/api/organizations/current/parent';

/** Creates an organisation with `owner` as its admin, and the other members with their roles. */
export async function organization(
  owner: User,
  name: string,
  members: [User, 'org:admin' | 'org:member' | 'org:vciso'][] = [],
): Promise<string> {
  const created = await owner.browser.call('POST', '/organizations', { name });
  assert.equal(created.status, 200, JSON.stringify(created.body?.errors));
  const id: string = created.body.response.id;
  for (const [user, role] of members) {
    const added = await owner.browser.call('POST', `/organizations/${id}/memberships`, {
      user_id: user.userId,
      role,
    });
    assert.equal(added.status, 200, JSON.stringify(added.body?.errors));
  }
  return id;
}

/** Switches the vCISO module on, as the organisation's admin does in its settings. */
export async function enableVcisoModule(server: EmbeddedServer, admin: User, organizationId: string) {
  const answer = await server.api(
    await sessionToken(admin, organizationId),
    'PATCH',
    '/api/organizations/current/settings',
    { modules: { vCiso: true } },
  );
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
}

/** A product API call as `user` with `organizationId` active. */
export async function as(
  server: EmbeddedServer,
  user: User,
  organizationId: string | null,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
) {
  return server.api(await sessionToken(user, organizationId), method, url, body);
}

/** The public metadata the provider stores (what clients read). */
export async function storedMetadata(server: EmbeddedServer, organizationId: string) {
  const [row] = await server.db.query<{ public_metadata: Record<string, unknown> }>(
    'SELECT public_metadata FROM organizations WHERE id = $1',
    [organizationId],
  );
  return row?.public_metadata ?? null;
}

/** The links of the product database, as `child→parent` strings, sorted. */
export async function links(server: EmbeddedServer): Promise<string[]> {
  const rows = await server.app.hierarchy.db.query<{ child_id: string; parent_id: string }>(
    'SELECT child_id, parent_id FROM vciso_links ORDER BY child_id',
  );
  return rows.map((r) => `${r.child_id}→${r.parent_id}`);
}

/** Waits until the outbox is empty (the worker has written every projection). */
export async function outboxDrained(server: EmbeddedServer, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const pending = await server.app.hierarchy.outbox.pending();
    if (!pending.length) return;
    if (Date.now() > until) assert.fail(`outbox still holds ${JSON.stringify(pending)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Everything a refused request must leave as it was: organisations, memberships, links and outbox. */
export async function snapshot(server: EmbeddedServer): Promise<string> {
  // Earlier changes' projections first: the worker writing them is not what a test looks for.
  await outboxDrained(server);
  const organizations = await server.db.query(
    'SELECT id, name, slug, public_metadata, updated_at FROM organizations ORDER BY id',
  );
  const memberships = await server.db.query(
    'SELECT organization_id, user_id, role, updated_at FROM organization_memberships ORDER BY id',
  );
  const outbox = await server.app.hierarchy.db.query(
    'SELECT organization_id FROM metadata_outbox ORDER BY 1',
  );
  return JSON.stringify({ organizations, memberships, links: await links(server), outbox });
}

/** Faults to inject into the real Backend API client the product uses. */
export class BackendFaults {
  /** Fails (as a 503 of the Backend API) every call this answers true for, before it is sent. */
  fail: ((operation: string, args: unknown[]) => boolean) | null = null;
  /** Runs before a call is sent (to interleave another change). */
  before: ((operation: string, args: unknown[]) => Promise<void>) | null = null;
  calls: { operation: string; args: unknown[] }[] = [];

  wrap = (client: BackendApi): BackendApi => {
    // Every call of these parts is recorded and may be failed or delayed by the test.
    const watched = <T extends object>(part: T): T =>
      new Proxy(part, {
        get: (target, prop, receiver) => {
          const value = Reflect.get(target, prop, receiver);
          if (typeof value !== 'function') return value;
          const operation = String(prop);
          return async (...args: unknown[]) => {
            this.calls.push({ operation, args });
            await this.before?.(operation, args);
            if (this.fail?.(operation, args)) {
              throw new ClerkAPIResponseError('Injected Backend API outage', {
                status: 503,
                data: [{ code: 'service_unavailable', message: 'Injected Backend API outage' }],
              });
            }
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
    return {
      users: client.users,
      organizations: watched(client.organizations),
      billing: watched(client.billing),
    };
  };
}
