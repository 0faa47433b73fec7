import { z } from '@app/contract';
import { ApiError } from '../../api/errors.ts';
import { consoleRoute } from '../console-route.ts';
import { pageQuery, searchText, sessionIdParam, userIdParam } from './ids.ts';

/** How long an impersonation link may wait before it is used, and how long its session lasts. */
const IMPERSONATION_LINK_SECONDS = 600;
const IMPERSONATION_SESSION_SECONDS = 1800;

/** A user as the Backend API answers it, reduced to what the console reads of it here. */
interface BackendUser {
  id: string;
}

/**
 * GET /console/api/users?query=&limit=&offset= — `users.getUserList({ query, limit, offset,
 * orderBy: '-created_at' })` and `users.getCount({ query })`: the query matches email addresses, phone
 * numbers, usernames, names and ids, as Clerk's does.
 */
export const listUsersRoute = consoleRoute({
  method: 'GET',
  path: '/users',
  permission: 'operator',
  input: { query: z.object({ query: searchText, ...pageQuery }) },
  async handler({ operator, query: { query, limit, offset } }, { backend }) {
    const q = query || undefined;
    const [data, count] = await Promise.all([
      backend.call<unknown[]>('GET', '/users', {
        operatorId: operator.userId,
        query: { query: q, limit, offset, order_by: '-created_at' },
      }),
      backend.call<{ total_count: number }>('GET', '/users/count', {
        operatorId: operator.userId,
        query: { query: q },
      }),
    ]);
    return { data, total_count: count.total_count };
  },
});

/**
 * GET /console/api/users/:userId — the user (`users.getUser`, with its identifiers, second factors and
 * metadata), its sessions (`sessions.getSessionList({ userId })`) and its organisations
 * (`users.getOrganizationMembershipList`).
 */
export const getUserRoute = consoleRoute({
  method: 'GET',
  path: '/users/:userId',
  permission: 'operator',
  input: { params: { userId: userIdParam } },
  async handler({ operator, params: { userId } }, { backend }) {
    const operatorId = operator.userId;
    const user = await backend.call<BackendUser>('GET', `/users/${userId}`, { operatorId });
    const [sessions, memberships] = await Promise.all([
      backend.call<{ data: unknown[] }>('GET', '/sessions', {
        operatorId,
        query: { user_id: userId, paginated: true, limit: 100 },
      }),
      backend.call<{ data: unknown[] }>('GET', `/users/${userId}/organization_memberships`, {
        operatorId,
        query: { limit: 100 },
      }),
    ]);
    return { user, sessions: sessions.data, organization_memberships: memberships.data };
  },
});

/** A user action without input: `POST /v1/users/:id/<action>` (lock, unlock, ban, unban). */
function userAction(action: 'lock' | 'unlock' | 'ban' | 'unban', reverified: boolean) {
  return consoleRoute({
    method: 'POST',
    path: `/users/:userId/${action}`,
    permission: reverified ? 'operator_reverified' : 'operator',
    input: { params: { userId: userIdParam } },
    async handler({ operator, params: { userId } }, { backend }) {
      return backend.call('POST', `/users/${userId}/${action}`, { operatorId: operator.userId });
    },
  });
}

/** POST /console/api/users/:userId/lock and /unlock — `users.lockUser` / `users.unlockUser`. */
export const lockUserRoute = userAction('lock', false);
export const unlockUserRoute = userAction('unlock', false);
/** POST /console/api/users/:userId/ban (re-verified) and /unban — `users.banUser` / `users.unbanUser`. */
export const banUserRoute = userAction('ban', true);
export const unbanUserRoute = userAction('unban', false);

/**
 * POST and DELETE /console/api/users/:userId/require_password_reset — our Backend API's demand for a new
 * password (docs/email-links-and-password-reset.md): from then on the user's correct password leads to
 * Clerk's "Set new password" step instead of a session, until they set one; DELETE withdraws the demand.
 */
function passwordResetDemand(method: 'POST' | 'DELETE') {
  return consoleRoute({
    method,
    path: '/users/:userId/require_password_reset',
    permission: 'operator',
    input: { params: { userId: userIdParam } },
    async handler({ operator, params: { userId } }, { backend }) {
      return backend.call(method, `/users/${userId}/require_password_reset`, { operatorId: operator.userId });
    },
  });
}
export const requirePasswordResetRoute = passwordResetDemand('POST');
export const withdrawPasswordResetRoute = passwordResetDemand('DELETE');

/**
 * DELETE /console/api/users/:userId/mfa — `users.disableUserMFA`: the authenticator app, backup codes
 * and second-factor phone numbers go; the user signs in with the first factor alone until they set one
 * up again. Re-verified.
 */
export const resetSecondFactorRoute = consoleRoute({
  method: 'DELETE',
  path: '/users/:userId/mfa',
  permission: 'operator_reverified',
  input: { params: { userId: userIdParam } },
  async handler({ operator, params: { userId } }, { backend }) {
    return backend.call('DELETE', `/users/${userId}/mfa`, { operatorId: operator.userId });
  },
});

/** DELETE /console/api/users/:userId — `users.deleteUser`. Re-verified; an operator cannot delete themself. */
export const deleteUserRoute = consoleRoute({
  method: 'DELETE',
  path: '/users/:userId',
  permission: 'operator_reverified',
  input: { params: { userId: userIdParam } },
  async handler({ operator, params: { userId } }, { backend }) {
    if (userId === operator.userId)
      throw new ApiError('change_refused', 'You cannot delete your own account here.');
    return backend.call('DELETE', `/users/${userId}`, { operatorId: operator.userId });
  },
});

/**
 * POST /console/api/users/:userId/sessions/:sessionId/revoke — `sessions.revokeSession`, for a session of
 * this user only (another user's session is 404: the path names the user).
 */
export const revokeSessionRoute = consoleRoute({
  method: 'POST',
  path: '/users/:userId/sessions/:sessionId/revoke',
  permission: 'operator',
  input: { params: { userId: userIdParam, sessionId: sessionIdParam } },
  async handler({ operator, params: { userId, sessionId } }, { backend }) {
    const operatorId = operator.userId;
    const session = await backend.call<{ user_id: string }>('GET', `/sessions/${sessionId}`, { operatorId });
    if (session.user_id !== userId) throw new ApiError('resource_not_found');
    return backend.call('POST', `/sessions/${sessionId}/revoke`, { operatorId });
  },
});

/**
 * POST /console/api/users/:userId/impersonate `{ reason }` — `actorTokens.create({ userId, actor: { sub:
 * <operator> } })`: answers the single-use link (`url`), valid 10 minutes, whose session lasts 30. The
 * reason is recorded in the audit event of the token's creation. Not oneself, and not from an
 * impersonation (requireOperator refuses those).
 */
export const impersonateUserRoute = consoleRoute({
  method: 'POST',
  path: '/users/:userId/impersonate',
  permission: 'operator',
  input: {
    params: { userId: userIdParam },
    body: z
      .object({
        reason: z
          .string()
          .trim()
          .min(3)
          .max(500)
          .refine((text) => ![...text].some((c) => c < ' ' || c === '\u007f'), 'one line of text'),
      })
      .strict(),
  },
  async handler({ operator, params: { userId }, body: { reason } }, { backend }) {
    if (userId === operator.userId) throw new ApiError('change_refused', 'You cannot impersonate yourself.');
    const token = await backend.call<{ id: string; url: string | null }>('POST', '/actor_tokens', {
      operatorId: operator.userId,
      reason,
      body: {
        user_id: userId,
        actor: { sub: operator.userId },
        expires_in_seconds: IMPERSONATION_LINK_SECONDS,
        session_max_duration_in_seconds: IMPERSONATION_SESSION_SECONDS,
      },
    });
    return { id: token.id, url: token.url, expires_in_seconds: IMPERSONATION_LINK_SECONDS };
  },
});

export const userConsoleRoutes = [
  listUsersRoute,
  getUserRoute,
  lockUserRoute,
  unlockUserRoute,
  banUserRoute,
  unbanUserRoute,
  resetSecondFactorRoute,
  requirePasswordResetRoute,
  withdrawPasswordResetRoute,
  deleteUserRoute,
  revokeSessionRoute,
  impersonateUserRoute,
];
