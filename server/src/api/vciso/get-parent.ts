import { parentOrganizationAnswerSchema } from '@app/contract';
import { answerWith } from '../contract-io.ts';
import { findOrganization, roleIn } from '../../organizations/hierarchy-links.ts';
import { parentIdOf } from '../../organizations/hierarchy-reads.ts';
import { authOf } from '../require-auth.ts';
import { productRoute } from '../route.ts';
import { readActiveOrganization } from './console-guard.ts';

export interface ParentOrganization {
  id: string;
  name: string;
  slug: string | null;
  /** Whether the caller can switch to it (a membership, asked of the Backend API). */
  isMember: boolean;
}

/**
 * GET /api/organizations/current/parent — `{ parent: { id, name, slug, isMember } | null }` for any member
 * of the active organisation, so a client organisation can link back to its vCISO's. The parent is the
 * product database's; one that no longer exists reads as none. An organisation's API key may read it
 * for its organisation (`isMember` false: a key is nobody's membership).
 */
export const getParentRoute = productRoute({
  method: 'GET',
  path: '/organizations/current/parent',
  auth: 'session_token_or_api_key',
  permission: 'signed_in',
  async handler({ req }, deps) {
    const current = await readActiveOrganization(deps, req);
    await deps.hierarchy.ready();
    const parentId = await parentIdOf(deps.hierarchy.db, current.id);
    const parent = parentId ? await findOrganization(deps.clerk.organizations, parentId) : null;
    if (!parent) return answerWith(parentOrganizationAnswerSchema, { parent: null });
    // An API key is no member of anything: it sees the parent, never as its own.
    const role = req.apiKey ? null : await roleIn(deps.clerk.organizations, parent.id, authOf(req).userId);
    const answer: ParentOrganization = {
      id: parent.id,
      name: parent.name,
      slug: parent.slug || null,
      isMember: role !== null,
    };
    return answerWith(parentOrganizationAnswerSchema, { parent: answer });
  },
});
