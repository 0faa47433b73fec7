import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from './deps.ts';
import { authOf, requireAuth } from './require-auth.ts';

/** GET /api/me — who the verified session token says the caller is, and in which organisation. */
export function registerMeRoute(api: FastifyInstance, deps: ApiDeps) {
  api.get('/me', { preHandler: requireAuth(deps) }, async (req) => {
    const { userId, sessionId, orgId, orgSlug, orgRole, orgPermissions } = authOf(req);
    const user = await deps.clerk.users.getUser(userId);
    return {
      userId,
      sessionId,
      orgId,
      orgSlug,
      orgRole,
      orgPermissions,
      user: {
        id: user.id,
        firstName: user.firstName,
        lastName: user.lastName,
        primaryEmailAddress: user.primaryEmailAddress?.emailAddress ?? null,
      },
    };
  });
}
