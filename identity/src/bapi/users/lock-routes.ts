import type { FastifyInstance } from 'fastify';
import type { IdentityDeps } from '../../deps.ts';
import { errors } from '../../errors.ts';
import { fullUserJSON, loadUsers } from '../../users/load-users.ts';
import { sendJson } from '../send-json.ts';

/**
 * Backend API: lock and unlock a user (@clerk/backend `users.lockUser` / `users.unlockUser`). A lock
 * lasts the instance's lockout duration, as one reached by failed attempts; unlocking also clears the
 * count of failures, so the user starts afresh. Sessions already open are left as they are.
 */
export async function registerUserLockBapi(app: FastifyInstance, deps: IdentityDeps): Promise<void> {
  const { maxFailedAttempts, durationSeconds } = deps.config.lockout;

  async function respond(id: string, reply: Parameters<typeof sendJson>[0], now: Date) {
    const owner = (await loadUsers(deps.db, [id])).get(id);
    if (!owner) throw errors.notFound('user');
    return sendJson(reply, 200, fullUserJSON(deps, owner, now, { includePrivate: true }));
  }

  app.post<{ Params: { id: string } }>('/v1/users/:id/lock', async (req, reply) => {
    const now = deps.clock();
    const rows = await deps.db.query(
      `UPDATE users SET locked_until = $2, failed_verification_attempts = $3, locked_by_failures = false, updated_at = $4
       WHERE id = $1 RETURNING id`,
      [req.params.id, new Date(now.getTime() + durationSeconds * 1000), maxFailedAttempts, now],
    );
    if (!rows.length) throw errors.notFound('user');
    return respond(req.params.id, reply, now);
  });

  app.post<{ Params: { id: string } }>('/v1/users/:id/unlock', async (req, reply) => {
    const now = deps.clock();
    const rows = await deps.db.query(
      `UPDATE users SET locked_until = NULL, failed_verification_attempts = 0, updated_at = $2
       WHERE id = $1 RETURNING id`,
      [req.params.id, now],
    );
    if (!rows.length) throw errors.notFound('user');
    return respond(req.params.id, reply, now);
  });
}
