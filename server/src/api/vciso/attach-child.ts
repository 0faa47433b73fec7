import type { FastifyInstance } from 'fastify';
import {
  ancestorsOfOrganization,
  childSummary,
  findOrganization,
  linkChild,
  roleIn,
} from '../../organizations/hierarchy-links.ts';
import { hierarchyChanges } from '../../organizations/hierarchy-lock.ts';
import {
  attachPermissionRefusal,
  childrenOf,
  linkRefusal,
  parentOf,
} from '../../organizations/hierarchy-rules.ts';
import type { ApiDeps } from '../deps.ts';
import { authOf } from '../require-auth.ts';
import { consoleRouteOptions, readActiveOrganization } from './console-guard.ts';
import { HierarchyError } from './errors.ts';
import { parseOrganizationId } from './input.ts';

/**
 * PUT /api/organizations/current/children/:organizationId — makes an existing organisation, where the
 * caller is admin or vCISO (asked of the Backend API, never taken from the browser), a client of the
 * active one. Idempotent: attaching a child again answers it and completes a half-written link.
 */
export function registerAttachChildRoute(api: FastifyInstance, deps: ApiDeps) {
  api.put<{ Params: { organizationId: string } }>(
    '/organizations/current/children/:organizationId',
    consoleRouteOptions(deps),
    async (req) => {
      const childId = parseOrganizationId(req.params.organizationId);
      const { userId } = authOf(req);
      const organizations = deps.clerk.organizations;
      const child = await hierarchyChanges.run(async () => {
        const parent = await readActiveOrganization(deps, req);
        // Nothing else about an organisation is read, or told, before the caller's rights in it are known;
        // one that does not exist is refused the same way.
        const permission = attachPermissionRefusal(await roleIn(organizations, childId, userId));
        if (permission) throw HierarchyError.from(permission);
        const child = await findOrganization(organizations, childId);
        if (!child) throw HierarchyError.from(attachPermissionRefusal(null)!);
        const refusal = linkRefusal({
          parentId: parent.id,
          childId,
          parentAncestors: await ancestorsOfOrganization(organizations, parent),
          childParentId: parentOf(child.publicMetadata),
        });
        if (refusal) throw HierarchyError.from(refusal);
        return linkChild(organizations, parent, childrenOf(parent.publicMetadata), child, req.log);
      });
      return childSummary(child);
    },
  );
}
