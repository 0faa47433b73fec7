import { errors } from '../../errors.ts';
import { currentSession } from './me-session.ts';
import { fullUserJSON, loadUsers } from '../../users/load-users.ts';
import type { FapiContext, FapiRoute } from '../context.ts';
import { has } from '../form.ts';
import { parseSignUpInput } from '../sign-ups/validate.ts';

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
  handler: async (ctx) => meResponse(ctx, await currentUserId(ctx)),
};

/** PATCH /me — the profile form: first and last name (other fields arrive with issue #5). */
export const updateMeRoute: FapiRoute = {
  method: 'PATCH',
  path: '/me',
  async handler(ctx) {
    const userId = await currentUserId(ctx);
    const names = parseSignUpInput(
      { first_name: ctx.body.first_name, last_name: ctx.body.last_name },
      ctx.deps.config.passwordPolicy,
    );
    const other = Object.keys(ctx.body).filter(
      (k) => !['first_name', 'last_name'].includes(k) && ctx.body[k] !== '',
    );
    if (other.length) throw errors.paramValueInvalid(other[0]!, `${other[0]} cannot be changed here.`);
    await ctx.tx.query(
      `UPDATE users SET first_name = CASE WHEN $2 THEN $3 ELSE first_name END,
                        last_name = CASE WHEN $4 THEN $5 ELSE last_name END, updated_at = $6 WHERE id = $1`,
      [
        userId,
        has(ctx.body, 'first_name'),
        names.firstName ?? null,
        has(ctx.body, 'last_name'),
        names.lastName ?? null,
        ctx.now,
      ],
    );
    return meResponse(ctx, userId);
  },
};
