import type { FastifyInstance } from 'fastify';
import { detachedChildSchema } from '@app/contract';
import { answerWith } from '../contract-io.ts';
import { detachChild } from '../../organizations/hierarchy-store.ts';
import type { ApiDeps } from '../deps.ts';
import { authOf } from '../require-auth.ts';
import { consoleRouteOptions } from './console-guard.ts';
import { HierarchyError } from './errors.ts';
import { parseOrganizationId } from './input.ts';

/**
 * DELETE /api/organizations/current/children/:organizationId — detaches a client organisation; the
 * organisation itself and its members stay (one deleted since can be detached too). Answers
 * `{ id, detached: true }`.
 */
export function registerDetachChildRoute(api: FastifyInstance, deps: ApiDeps) {
  api.delete<{ Params: { organizationId: string } }>(
    '/organizations/current/children/:organizationId',
    consoleRouteOptions(deps),
    async (req) => {
      const childId = parseOrganizationId(req.params.organizationId);
      const parentId = authOf(req).orgId!;
      await deps.hierarchy.ready();
      const change = await detachChild(deps.hierarchy.db, parentId, childId);
      if (change.refusal) throw HierarchyError.from(change.refusal);
      await deps.hierarchy.afterCommit([parentId, childId]);
      return answerWith(detachedChildSchema, { id: childId, detached: true });
    },
  );
}
