import { errors } from '../../errors.ts';
import type { SignInRow, UserRow } from '../../store/rows.ts';
import { loadUsers, type Owner } from '../../users/load-users.ts';
import { assertNotLockedOut } from '../../abuse/attempt-gate.ts';
import { assertMayOpenSession } from '../../sessions/may-open-session.ts';
import type { FapiContext } from '../context.ts';
import { findClientSignIn } from '../../store/sign-ins.ts';

/** The sign-in named in the path, belonging to this browser's client and still in progress. */
export async function loadActionableSignIn(
  ctx: FapiContext,
): Promise<{ signIn: SignInRow; user: UserRow; account: Owner }> {
  if (!ctx.client) throw errors.notFound('sign in');
  const signIn = await findClientSignIn(ctx.tx, ctx.client.id, ctx.params.id!, ctx.now);
  if (!signIn) throw errors.notFound('sign in');
  // An address at an enterprise connection's domain has no account to act on before its IdP vouched for it.
  if (signIn.status !== 'complete' && !signIn.user_id && signIn.enterprise_connection_id) {
    throw errors.strategyForUserInvalid();
  }
  if (signIn.status === 'complete' || !signIn.user_id) throw errors.signInNotActionable();
  // Single-session: no second sign-in on a signed-in browser; multi-session: not the same account twice.
  await assertMayOpenSession(ctx, ctx.client.id, signIn.user_id);
  // Its account with all its JSON embeds, in one statement: an attempt answers with it.
  const account = (await loadUsers(ctx.tx, [signIn.user_id])).get(signIn.user_id);
  if (!account) throw errors.signInNotActionable();
  await assertNotLockedOut(ctx, account.user);
  return { signIn, user: account.user, account };
}
