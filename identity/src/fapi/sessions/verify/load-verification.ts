import { errors } from '../../../errors.ts';
import {
  currentSessionVerification,
  type SessionVerificationRow,
} from '../../../store/session-verifications.ts';
import type { SessionRow } from '../../../store/rows.ts';
import { assertNotLockedOut } from '../../../abuse/attempt-gate.ts';
import { loadUsers, type Owner } from '../../../users/load-users.ts';
import type { FapiContext } from '../../context.ts';
import { loadSignedInSession } from '../load-session.ts';

/** The signed-in session of the path and its user; a locked account cannot re-verify either. */
export async function loadVerifyingSession(ctx: FapiContext): Promise<{ session: SessionRow; owner: Owner }> {
  const session = await loadSignedInSession(ctx, ctx.params.id!);
  const owner = (await loadUsers(ctx.tx, [session.user_id])).get(session.user_id);
  if (!owner) throw errors.notFound('session');
  await assertNotLockedOut(ctx, owner.user);
  return { session, owner };
}

/** The re-verification in progress, waiting for the step the route serves. */
export async function loadVerificationAt(
  ctx: FapiContext,
  session: SessionRow,
  step: 'needs_first_factor' | 'needs_second_factor',
): Promise<SessionVerificationRow> {
  const verification = await currentSessionVerification(ctx.tx, session.id, ctx.now);
  if (!verification) throw errors.notFound('session verification');
  if (verification.status !== step) throw errors.strategyForUserInvalid();
  return verification;
}
