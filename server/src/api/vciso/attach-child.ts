import { childOrganizationSchema, organizationIdSchema } from '@app/contract';
import { answerWith } from '../contract-io.ts';
import { childSummary, findOrganization, roleIn } from '../../organizations/hierarchy-links.ts';
import { attachPermissionRefusal } from '../../organizations/hierarchy-rules.ts';
import { attachChild } from '../../organizations/hierarchy-store.ts';
import { authOf } from '../require-auth.ts';
import { HierarchyError } from './errors.ts';
import { productRoute } from '../route.ts';

/**
 * PUT /api/organizations/current/children/:organizationId — makes an existing organisation, where the
 * caller is admin or vCISO (asked of the Backend API, never taken from the browser), a client of the
 * active one. Idempotent: attaching a child again answers it and changes nothing.
 */
export const attachChildRoute = productRoute({
  method: 'PUT',
  path: '/organizations/current/children/:organizationId',
  auth: 'session_token',
  permission: 'vciso_console',
  // Only ids: the Backend API also takes a slug where an id goes, which must not sneak in here.
  input: { params: { organizationId: organizationIdSchema } },
  async handler({ req, params }, deps) {
    const childId = params.organizationId;
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
});
