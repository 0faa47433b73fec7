import { childOrganizationSchema, newChildOrganizationSchema } from '@app/contract';
import { answerWith } from '../contract-io.ts';
import { childSummary, createChild, CreationRefused } from '../../organizations/hierarchy-links.ts';
import { authOf } from '../require-auth.ts';
import { HierarchyError } from './errors.ts';
import { productRoute } from '../route.ts';

/**
 * POST /api/organizations/current/children `{ name, slug? }` — creates a client organisation under the
 * active one, with the caller as its `org:vciso`; answers 201 with it as the list shows it.
 */
export const createChildRoute = productRoute({
  method: 'POST',
  path: '/organizations/current/children',
  auth: 'session_token',
  permission: 'vciso_console',
  // `{ name, slug? }` strictly as the contract has it, a blank slug meaning "derive it".
  input: { body: newChildOrganizationSchema },
  async handler({ req, reply, body: input }, deps) {
    const { userId, orgId } = authOf(req);
    await deps.hierarchy.ready();
    let created: Awaited<ReturnType<typeof createChild>>;
    try {
      created = await createChild(deps.hierarchy, orgId!, { ...input, userId }, req.log);
    } catch (error) {
      if (!(error instanceof CreationRefused)) throw error;
      throw new HierarchyError(
        error.reason === 'slug_taken' ? 'slug_taken' : 'invalid_request',
        error.message,
      );
    }
    if (created.refusal) throw HierarchyError.from(created.refusal);
    return reply.code(201).send(answerWith(childOrganizationSchema, childSummary(created.child)));
  },
});
