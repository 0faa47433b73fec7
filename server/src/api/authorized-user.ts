import { authorizedUserSchema } from '@app/contract';
import { answerWith } from './contract-io.ts';
import { authOf } from './require-auth.ts';
import { productRoute } from './route.ts';

/**
 * GET /api/authorized-user — the user the caller acts for: with a session token, its user; with an OAuth
 * access token holding `profile` and `email` (docs/oauth-provider.md), the user who allowed the
 * application, read through the Backend API.
 */
export const authorizedUserRoute = productRoute({
  method: 'GET',
  path: '/authorized-user',
  auth: 'session_token',
  oauthScopes: ['profile', 'email'],
  permission: 'signed_in',
  async handler({ req }, deps) {
    const token = req.oauthToken;
    const userId = token ? token.userId : authOf(req).userId;
    const user = await deps.clerk.users.getUser(userId);
    return answerWith(authorizedUserSchema, {
      userId,
      clientId: token?.clientId ?? null,
      scopes: [...(token?.scopes ?? [])],
      user: {
        firstName: user.firstName,
        lastName: user.lastName,
        primaryEmailAddress: user.primaryEmailAddress?.emailAddress ?? null,
      },
    });
  },
});
