import { childOrganizationListSchema } from '@app/contract';
import { answerWith } from '../contract-io.ts';
import { listChildren } from '../../organizations/hierarchy-links.ts';
import { childIdsOf } from '../../organizations/hierarchy-reads.ts';
import { authOf } from '../require-auth.ts';
import { productRoute } from '../route.ts';

/**
 * GET /api/organizations/current/children — the active organisation's client organisations
 * `{ data: [{ id, name, slug, modules, hasActiveSubscription }] }`, in the order they were added, as the
 * product database links them (deleted organisations are left out).
 */
export const listChildrenRoute = productRoute({
  method: 'GET',
  path: '/organizations/current/children',
  auth: 'session_token',
  permission: 'vciso_console',
  async handler({ req }, deps) {
    await deps.hierarchy.ready();
    const childIds = await childIdsOf(deps.hierarchy.db, authOf(req).orgId!);
    return answerWith(childOrganizationListSchema, {
      data: await listChildren(deps.clerk.organizations, childIds),
    });
  },
});
