import { errors } from '../../errors.ts';
import { currentSession } from './me-session.ts';
import { fullUserJSON, loadUsers } from '../../users/load-users.ts';
import type { FapiContext, FapiRoute } from '../context.ts';
import { formInput } from '../form-input.ts';

async function currentUserId(ctx: FapiContext): Promise<string> {
  return (await currentSession(ctx)).user_id;
}

export async function meResponse(ctx: FapiContext, userId: string) {
  const owner = (await loadUsers(ctx.tx, [userId])).get(userId);
  if (!owner) throw errors.notFound('user');
  return { response: fullUserJSON(ctx.deps, owner, ctx.now) };
}

/** GET /me — `user.reload()`. */
export const getMeRoute: FapiRoute = {
  method: 'GET',
  path: '/me',
  auth: 'session',
  permission: null,
  input: { query: formInput() },
  handler: async (ctx) => meResponse(ctx, await currentUserId(ctx)),
};
