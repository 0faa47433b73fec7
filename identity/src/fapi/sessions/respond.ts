import { errors } from '../../errors.ts';
import type { SessionRow } from '../../store/rows.ts';
import { loadUsers, sessionJSON } from '../client-json.ts';
import type { FapiContext, FapiResult } from '../context.ts';

export async function sessionResponse(ctx: FapiContext, session: SessionRow): Promise<FapiResult> {
  const owner = (await loadUsers(ctx.tx, [session.user_id])).get(session.user_id);
  if (!owner) throw errors.notFound('session');
  return { response: await sessionJSON(ctx.deps, session, owner, ctx.origin, ctx.now) };
}
