import { requireUser } from '../users/require-user.ts';
import { errors } from '../../errors.ts';
import { pageOf } from '../../organizations/invitations.ts';
import { oauthConsentJSON, withdrawConsent } from '../../oauth-provider/user-consents.ts';
import { consentsOfUserPage } from '../../store/oauth-consents.ts';
import type { IdentityDeps } from '../../deps.ts';
import { queryInput } from '../json-input.ts';
import type { BapiRoute } from '../route.ts';

/**
 * Backend API: the OAuth applications a user allowed, for the operator (docs/oauth-provider.md).
 * `@clerk/backend` 2.10.1 has no call for them and hosted Clerk documents no such route, so the paths are
 * Clerk-style choices: `GET /v1/users/{user_id}/oauth_consents` and
 * `DELETE /v1/users/{user_id}/oauth_consents/{oauth_application_id}`, the same objects and the same
 * withdrawal as the user's own Frontend API (`/v1/me/oauth_consents`), scopes described in English.
 */

async function existingUser(deps: IdentityDeps, id: string): Promise<string> {
  const user = await requireUser(deps.db, id);
  return user.id;
}

export const userOAuthConsentRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: '/v1/users/:id/oauth_consents',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { query: queryInput({ limit: 'page', offset: 'page' }) },
    async handler(req, deps) {
      const page = pageOf(req.query);
      const userId = await existingUser(deps, req.params.id!);
      const { rows, total } = await consentsOfUserPage(deps.db, userId, page);
      return { data: rows.map((row) => oauthConsentJSON(row, 'en')), total_count: total };
    },
  },
  {
    method: 'DELETE',
    path: '/v1/users/:id/oauth_consents/:oauthApplicationId',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const userId = await existingUser(deps, req.params.id!);
      const row = await deps.db.transaction((tx) =>
        withdrawConsent(tx, userId, req.params.oauthApplicationId!),
      );
      if (!row) throw errors.notFound('oauth_consent');
      return {
        object: 'oauth_consent',
        user_id: userId,
        application_id: row.application_id,
        deleted: true,
      };
    },
  },
];
