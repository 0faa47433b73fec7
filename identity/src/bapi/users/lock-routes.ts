import { errors } from '../../errors.ts';
import { lockUser, unlockUser } from '../../store/user-admin-changes.ts';
import type { BapiRoute } from '../route.ts';
import { userAnswer } from './user-routes.ts';

/**
 * Backend API: lock and unlock a user (@clerk/backend `users.lockUser` / `users.unlockUser`). A lock
 * lasts the instance's lockout duration, as one reached by failed attempts; unlocking also clears the
 * count of failures, so the user starts afresh. Sessions already open are left as they are.
 */
export const userLockRoutes: BapiRoute[] = [
  {
    method: 'POST',
    path: '/v1/users/:id/lock',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const { maxFailedAttempts, durationSeconds } = deps.config.lockout;
      const now = deps.clock();
      const until = new Date(now.getTime() + durationSeconds * 1000);
      if (!(await lockUser(deps.db, req.params.id!, until, maxFailedAttempts, now))) {
        throw errors.notFound('user');
      }
      return userAnswer(deps, req.params.id!, now);
    },
  },
  {
    method: 'POST',
    path: '/v1/users/:id/unlock',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const now = deps.clock();
      if (!(await unlockUser(deps.db, req.params.id!, now))) throw errors.notFound('user');
      return userAnswer(deps, req.params.id!, now);
    },
  },
];
