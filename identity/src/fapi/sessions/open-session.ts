import { updateClient } from '../../store/clients.ts';
import type { SessionRow } from '../../store/rows.ts';
import { createSession } from '../../store/sessions.ts';
import { recordSessionActivity } from '../../store/session-activities.ts';
import { recordSignIn } from '../../store/users.ts';
import type { FapiContext } from '../context.ts';

/** An impersonation: who acts, and how long the session may last (shorter than an ordinary one). */
export interface Impersonation {
  actor: Record<string, unknown>;
  lifetimeSeconds: number;
}

/**
 * A finished sign-in or sign-up: opens the user's session on this browser and makes it the active one.
 * The finished attempt is returned once to the caller; the client no longer carries it.
 */
export async function openSession(
  ctx: FapiContext,
  userId: string,
  finished: 'sign_in_id' | 'sign_up_id',
  impersonation: Impersonation | null = null,
): Promise<SessionRow> {
  const client = await ctx.ensureClient();
  const session = await createSession(ctx.tx, {
    clientId: client.id,
    userId,
    lifetimeSeconds: impersonation?.lifetimeSeconds ?? ctx.deps.config.sessionLifetimeSeconds,
    // An instance that forces an organisation starts every session on the choose-organization task.
    status: ctx.deps.config.forceOrganizationSelection ? 'pending' : 'active',
    actor: impersonation?.actor ?? null,
    now: ctx.now,
  });
  await recordSessionActivity(ctx.tx, session.id, ctx, ctx.now);
  // Someone acting for the user is not the user signing in: their last sign-in and lockout stay as they were.
  if (!impersonation)
    await recordSignIn(ctx.tx, userId, ctx.now, {
      clientId: client.id,
      attemptDelay: ctx.deps.config.attemptDelay,
    });
  await updateClient(ctx.tx, client.id, { [finished]: null, last_active_session_id: session.id }, ctx.now);
  ctx.signInStateChanged();
  return session;
}
