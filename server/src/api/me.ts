import { meSchema, type ImpersonationActor } from '@app/contract';
import type { FastifyInstance } from 'fastify';
import { answerWith } from './contract-io.ts';
import type { ApiDeps, BackendApi } from './deps.ts';
import { isBackendNotFound } from './errors.ts';
import { authOf, requireAuth } from './require-auth.ts';

/**
 * GET /api/me — who the verified session token says the caller is, and in which organisation; `actor`
 * is who impersonates them (from the token's `act` claim), or null.
 */
export function registerMeRoute(api: FastifyInstance, deps: ApiDeps) {
  api.get('/me', { preHandler: requireAuth(deps) }, async (req) => {
    const { userId, sessionId, orgId, orgSlug, orgRole, orgPermissions, actorId } = authOf(req);
    const [user, actor] = await Promise.all([
      deps.clerk.users.getUser(userId),
      actorId ? actorSummary(deps.clerk, actorId) : null,
    ]);
    return answerWith(meSchema, {
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
      actor,
    });
  });
}

/**
 * The actor's name and address through the Backend API. Clerk lets the actor be anyone (`act.sub` is
 * whatever the token's creator put there): one that is no user of this instance is shown by id alone.
 */
async function actorSummary(clerk: BackendApi, actorId: string): Promise<ImpersonationActor> {
  try {
    const actor = await clerk.users.getUser(actorId);
    return {
      userId: actorId,
      name: [actor.firstName, actor.lastName].filter(Boolean).join(' ') || null,
      email: actor.primaryEmailAddress?.emailAddress ?? null,
    };
  } catch (err) {
    if (isBackendNotFound(err)) return { userId: actorId, name: null, email: null };
    throw err;
  }
}
