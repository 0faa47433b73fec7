import type { FastifyInstance } from 'fastify';
import type { Authenticator } from '../auth/authenticate.ts';
import { requireAuth } from './require-auth.ts';

/** GET /api/me — who the verified session token says the caller is. */
export function registerMeRoute(app: FastifyInstance, authenticator: Authenticator) {
  app.get('/me', { preHandler: requireAuth(authenticator) }, async (req) => {
    const { userId, sessionId } = req.auth!;
    const user = await authenticator.clerk.users.getUser(userId);
    return {
      userId,
      sessionId,
      user: {
        id: user.id,
        firstName: user.firstName,
        lastName: user.lastName,
        primaryEmailAddress: user.primaryEmailAddress?.emailAddress ?? null,
      },
    };
  });
}
