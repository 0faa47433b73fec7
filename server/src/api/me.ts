import { meSchema, type ImpersonationActor } from '@app/contract';
import type { SessionProfile } from '../auth/authenticate.ts';
import { answerWith } from './contract-io.ts';
import type { BackendApi } from './deps.ts';
import { isBackendNotFound } from './errors.ts';
import { authOf } from './require-auth.ts';
import { productRoute } from './route.ts';

/**
 * GET /api/me — who the verified session token says the caller is, and in which organisation; `actor`
 * is who impersonates them (from the token's `act` claim), or null.
 *
 * The user's name and address come from the token too (its `email`, `first_name` and `last_name`
 * claims, docs/session-token-claims.md): no call to anyone. A token without them (hosted Clerk whose
 * session-token template lacks them) makes it ask the Backend API, as does an impersonation's actor.
 */
export const meRoute = productRoute({
  method: 'GET',
  path: '/me',
  auth: 'session_token',
  permission: 'signed_in',
  async handler({ req }, deps) {
    const { userId, sessionId, orgId, orgSlug, orgRole, orgPermissions, actorId, profile } = authOf(req);
    const [user, actor] = await Promise.all([
      profile ?? profileFromBackend(deps.clerk, userId),
      actorId ? actorSummary(deps.clerk, actorId) : null,
    ]);
    return answerWith(meSchema, {
      userId,
      sessionId,
      orgId,
      orgSlug,
      orgRole,
      orgPermissions,
      user: { id: userId, ...user },
      actor,
    });
  },
});

async function profileFromBackend(clerk: BackendApi, userId: string): Promise<SessionProfile> {
  const user = await clerk.users.getUser(userId);
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    primaryEmailAddress: user.primaryEmailAddress?.emailAddress ?? null,
  };
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
