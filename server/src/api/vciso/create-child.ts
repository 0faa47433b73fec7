import type { FastifyInstance } from 'fastify';
import { childOrganizationSchema } from '@app/contract';
import { answerWith } from '../contract-io.ts';
import { childSummary, createChild, CreationRefused } from '../../organizations/hierarchy-links.ts';
import type { ApiDeps } from '../deps.ts';
import { authOf } from '../require-auth.ts';
import { consoleRouteOptions } from './console-guard.ts';
import { HierarchyError } from './errors.ts';
import { parseNewChild } from './input.ts';

/**
 * POST /api/organizations/current/children `{ name, slug? }` — creates a client organisation under the
 * active one, with the caller as its `org:vciso`; answers 201 with it as the list shows it.
 */
export function registerCreateChildRoute(api: FastifyInstance, deps: ApiDeps) {
  api.post('/organizations/current/children', consoleRouteOptions(deps), async (req, reply) => {
    const input = parseNewChild(req.body);
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
  });
}
