import type { FastifyInstance } from 'fastify';
import { findOrganization, unlinkChild } from '../../organizations/hierarchy-links.ts';
import { hierarchyChanges } from '../../organizations/hierarchy-lock.ts';
import { childrenOf, detachRefusal, parentOf } from '../../organizations/hierarchy-rules.ts';
import type { ApiDeps } from '../deps.ts';
import { consoleRouteOptions, readActiveOrganization } from './console-guard.ts';
import { HierarchyError } from './errors.ts';
import { parseOrganizationId } from './input.ts';

/**
 * DELETE /api/organizations/current/children/:organizationId — detaches a client organisation (both
 * sides of the link); the organisation itself and its members stay. Answers `{ id, detached: true }`.
 */
export function registerDetachChildRoute(api: FastifyInstance, deps: ApiDeps) {
  api.delete<{ Params: { organizationId: string } }>(
    '/organizations/current/children/:organizationId',
    consoleRouteOptions(deps),
    async (req) => {
      const childId = parseOrganizationId(req.params.organizationId);
      const organizations = deps.clerk.organizations;
      await hierarchyChanges.run(async () => {
        const parent = await readActiveOrganization(deps, req);
        const parentChildren = childrenOf(parent.publicMetadata);
        // A child deleted since it was attached can still be taken off the list.
        const child = await findOrganization(organizations, childId);
        const refusal = detachRefusal({
          parentId: parent.id,
          childId,
          parentChildren,
          childParentId: child ? parentOf(child.publicMetadata) : undefined,
        });
        if (refusal) throw HierarchyError.from(refusal);
        await unlinkChild(organizations, parent, parentChildren, childId, child, req.log);
      });
      return { id: childId, detached: true };
    },
  );
}
