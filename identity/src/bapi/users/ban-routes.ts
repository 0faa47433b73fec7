import { errors } from '../../errors.ts';
import { setUserBanned } from '../../store/user-admin-changes.ts';
import type { BapiRoute } from '../route.ts';
import { userAnswer } from './user-routes.ts';

/**
 * Backend API: ban and unban a user (@clerk/backend `users.banUser` / `users.unbanUser`). A ban revokes
 * every session of the user at once (their tokens stop refreshing) and refuses any new sign-in with
 * `user_banned`, whatever the strategy; unbanning lets them sign in again (their sessions stay revoked).
 */
function banRoute(path: '/v1/users/:id/ban' | '/v1/users/:id/unban', banned: boolean): BapiRoute {
  return {
    method: 'POST',
    path,
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const now = deps.clock();
      const found = await deps.db.transaction((tx) => setUserBanned(tx, req.params.id!, banned, now));
      if (!found) throw errors.notFound('user');
      return userAnswer(deps, req.params.id!, now);
    },
  };
}

export const userBanRoutes: BapiRoute[] = [
  banRoute('/v1/users/:id/ban', true),
  banRoute('/v1/users/:id/unban', false),
];
