import { errors } from '../../errors.ts';
import type { SignUpRow } from '../../store/rows.ts';
import type { FapiContext } from '../context.ts';
import { assertMayOpenSession } from '../../sessions/may-open-session.ts';
import { findClientSignUp } from '../../store/sign-ups.ts';

export async function loadSignUp(ctx: FapiContext, opts: { actionable: boolean }): Promise<SignUpRow> {
  const signUp = ctx.client ? await findClientSignUp(ctx.tx, ctx.client.id, ctx.params.id!, ctx.now) : null;
  if (!signUp) throw errors.notFound('sign up');
  if (opts.actionable && signUp.status !== 'missing_requirements') throw errors.signUpNotActionable();
  if (opts.actionable) await assertMayOpenSession(ctx, ctx.client!.id, null);
  return signUp;
}
