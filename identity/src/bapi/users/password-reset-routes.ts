import type { FastifyInstance } from 'fastify';
import type { IdentityDeps } from '../../deps.ts';
import { errors } from '../../errors.ts';
import { fullUserJSON, loadUsers } from '../../users/load-users.ts';
import { sendJson } from '../send-json.ts';

/**
 * Backend API: an operator requires a user to set a new password. From then on a correct password at
 * sign-in leads to `needs_new_password` (the Clerk UI's "Set new password" card) instead of a session,
 * until the user sets one (there, by "Forgot password?", or from the profile). Other factors (email
 * code, email link) still sign in: the demand is about the password, which may have leaked.
 * `DELETE` withdraws the demand. Both answer the user, as Clerk's lock/unlock endpoints do.
 */
export async function registerPasswordResetBapi(app: FastifyInstance, deps: IdentityDeps): Promise<void> {
  const setRequired = (required: boolean) => async (req: { params: { id: string } }) => {
    const now = deps.clock();
    const rows = await deps.db.query(
      'UPDATE users SET password_reset_required = $2, updated_at = $3 WHERE id = $1 RETURNING id',
      [req.params.id, required, now],
    );
    if (rows.length === 0) throw errors.notFound('user');
    const owner = (await loadUsers(deps.db, [req.params.id])).get(req.params.id);
    if (!owner) throw errors.notFound('user');
    return fullUserJSON(deps, owner, now, { includePrivate: true });
  };
  const demand = setRequired(true);
  const withdraw = setRequired(false);
  app.post<{ Params: { id: string } }>('/v1/users/:id/require_password_reset', async (req, reply) =>
    sendJson(reply, 200, await demand(req)),
  );
  app.delete<{ Params: { id: string } }>('/v1/users/:id/require_password_reset', async (req, reply) =>
    sendJson(reply, 200, await withdraw(req)),
  );
}
