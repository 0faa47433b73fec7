import type { FastifyInstance } from 'fastify';
import { childOrganizationListSchema } from '@app/contract';
import { answerWith } from '../contract-io.ts';
import { listChildren } from '../../organizations/hierarchy-links.ts';
import { childIdsOf } from '../../organizations/hierarchy-reads.ts';
import type { ApiDeps } from '../deps.ts';
import { authOf } from '../require-auth.ts';
import { consoleRouteOptions } from './console-guard.ts';

/**
 * GET /api/organizations/current/children — the active organisation's client organisations
 * `{ data: [{ id, name, slug, modules, hasActiveSubscription }] }`, in the order they were added, as the
 * product database links them (deleted organisations are left out).
 */
export function registerListChildrenRoute(api: FastifyInstance, deps: ApiDeps) {
  api.get('/organizations/current/children', consoleRouteOptions(deps), async (req) => {
    await deps.hierarchy.ready();
    const childIds = await childIdsOf(deps.hierarchy.db, authOf(req).orgId!);
    return answerWith(childOrganizationListSchema, {
      data: await listChildren(deps.clerk.organizations, childIds),
    });
  });
}
