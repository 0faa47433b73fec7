import type { FastifyInstance } from 'fastify';
import { childOrganizationSchema } from '@app/contract';
import { answerWith } from '../contract-io.ts';
import { childSummary, findOrganization, roleIn } from '../../organizations/hierarchy-links.ts';
import { attachPermissionRefusal } from '../../organizations/hierarchy-rules.ts';
import { attachChild } from '../../organizations/hierarchy-store.ts';
import type { ApiDeps } from '../deps.ts';
import { authOf } from '../require-auth.ts';
import { consoleRouteOptions } from './console-guard.ts';
import { HierarchyError } from './errors.ts';
import { parseOrganizationId } from './input.ts';

/**
 * PUT /api/organizations/current/children/:organizationId — makes an existing organisation, where the
 * caller is admin or vCISO (asked of the Backend API, never taken from the browser), a client of the
 * active one. Idempotent: attaching a child again answers it and changes nothing.
 */
export function registerAttachChildRoute(api: FastifyInstance, deps: ApiDeps) {
  api.put<{ Params: { organizationId: string } }>(
    '/organizations/current/children/:organizationId',
    consoleRouteOptions(deps),
    async (req) => {
      const childId = parseOrganizationId(req.params.organizationId);
      const { userId, orgId } = authOf(req);
      const parentId = orgId!;
      const organizations = deps.clerk.organizations;
      await deps.hierarchy.ready();
      // Nothing else about an organisation is read, or told, before the caller's rights in it are known;
      // one that does not exist is refused the same way.
      const permission = attachPermissionRefusal(await roleIn(organizations, childId, userId));
      if (permission) throw HierarchyError.from(permission);
      const child = await findOrganization(organizations, childId);
      if (!child) throw HierarchyError.from(attachPermissionRefusal(null)!);
      const change = await attachChild(deps.hierarchy.db, parentId, childId);
      if (change.refusal) throw HierarchyError.from(change.refusal);
      if (change.changed) await deps.hierarchy.afterCommit([parentId, childId]);
      return answerWith(childOrganizationSchema, childSummary(child));
    },
  );
}
