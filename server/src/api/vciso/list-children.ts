import type { FastifyInstance } from 'fastify';
import { listChildren } from '../../organizations/hierarchy-links.ts';
import { childrenOf } from '../../organizations/hierarchy-rules.ts';
import type { ApiDeps } from '../deps.ts';
import { consoleRouteOptions, readActiveOrganization } from './console-guard.ts';

/**
 * GET /api/organizations/current/children — the active organisation's client organisations
 * `{ data: [{ id, name, slug, modules, hasActiveSubscription }] }`, in the order they were added.
 */
export function registerListChildrenRoute(api: FastifyInstance, deps: ApiDeps) {
  api.get('/organizations/current/children', consoleRouteOptions(deps), async (req) => {
    const parent = await readActiveOrganization(deps, req);
    return { data: await listChildren(deps.clerk.organizations, childrenOf(parent.publicMetadata)) };
  });
}
