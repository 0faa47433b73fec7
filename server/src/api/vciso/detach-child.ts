import { detachedChildSchema, organizationIdSchema } from '@app/contract';
import { answerWith } from '../contract-io.ts';
import { detachChild } from '../../organizations/hierarchy-store.ts';
import { authOf } from '../require-auth.ts';
import { HierarchyError } from './errors.ts';
import { productRoute } from '../route.ts';

/**
 * DELETE /api/organizations/current/children/:organizationId — detaches a client organisation; the
 * organisation itself and its members stay (one deleted since can be detached too). Answers
 * `{ id, detached: true }`.
 */
export const detachChildRoute = productRoute({
  method: 'DELETE',
  path: '/organizations/current/children/:organizationId',
  auth: 'session_token',
  permission: 'vciso_console',
  input: { params: { organizationId: organizationIdSchema } },
  async handler({ req, params }, deps) {
    const childId = params.organizationId;
    const parentId = authOf(req).orgId!;
    await deps.hierarchy.ready();
    const change = await detachChild(deps.hierarchy.db, parentId, childId);
    if (change.refusal) throw HierarchyError.from(change.refusal);
    await deps.hierarchy.afterCommit([parentId, childId]);
    return answerWith(detachedChildSchema, { id: childId, detached: true });
  },
});
