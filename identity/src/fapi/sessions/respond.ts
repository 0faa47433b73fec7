import { errors } from '../../errors.ts';
import type { SessionRow } from '../../store/rows.ts';
import { sessionJSON } from '../client-json.ts';
import { loadUsers } from '../../users/load-users.ts';
import type { FapiContext, FapiResult } from '../context.ts';

export async function sessionResponse(ctx: FapiContext, session: SessionRow): Promise<FapiResult> {
  const owner = (await loadUsers(ctx.tx, [session.user_id])).get(session.user_id);
  if (!owner) throw errors.notFound('session');
  return { response: await sessionJSON(ctx.deps, ctx.tx, session, owner, ctx.origin, ctx.now) };
}
