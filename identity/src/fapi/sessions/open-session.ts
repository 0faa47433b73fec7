import {
  secondFactorStateOf,
  twoFactorEnabled,
  type SecondFactorState,
} from '../../second-factors/second-factor-state.ts';
import type { SessionRow } from '../../store/rows.ts';
import { createSession, replacePendingSessionsOf } from '../../store/sessions.ts';
import type { FapiContext } from '../context.ts';

/** An impersonation: who acts, and how long the session may last (shorter than an ordinary one). */
export interface Impersonation {
  actor: Record<string, unknown>;
  lifetimeSeconds: number;
}

/**
 * What stands for the user's second factor when a session opens. Every way of opening one must say:
 * - `not_enrolled`: only a first factor was proven; checked here, so a path that forgets the second
 *   factor cannot open a session for a user who has one (against `readNow`, the user's second factors as
 *   this transaction read them, else read here);
 * - `verified`: the second factor was proven just now (the session's `fva` counts from it);
 * - `impersonation`: an operator's actor token, which on hosted Clerk asks for no factor of the user.
 */
export type SecondFactorProof =
  | { secondFactor: 'not_enrolled'; readNow?: SecondFactorState }
  | { secondFactor: 'verified' }
  | { secondFactor: 'impersonation'; impersonation: Impersonation };

/** Opening a session without a second factor for a user who has one: a bug in the caller, never a session. */
export class SecondFactorNotProvenError extends Error {
  constructor() {
    super('A session cannot open without the second factor of a user who has one.');
    this.name = 'SecondFactorNotProvenError';
  }
}

/**
 * A finished sign-in or sign-up: opens the user's session on this browser and makes it the active one.
 * The finished attempt is returned once to the caller; the client no longer carries it.
 */
export async function openSession(
  ctx: FapiContext,
  userId: string,
  finished: 'sign_in_id' | 'sign_up_id',
  proof: SecondFactorProof,
): Promise<SessionRow> {
  if (
    proof.secondFactor === 'not_enrolled' &&
    twoFactorEnabled(proof.readNow ?? (await secondFactorStateOf(ctx.tx, userId)))
  ) {
    throw new SecondFactorNotProvenError();
  }
  const impersonation = proof.secondFactor === 'impersonation' ? proof.impersonation : null;
  const client = await ctx.ensureClient();
  const { session, client: madeActive } = await createSession(ctx.tx, {
    finished,
    clientId: client.id,
    userId,
    lifetimeSeconds: impersonation?.lifetimeSeconds ?? ctx.deps.config.sessionLifetimeSeconds,
    // An instance that forces an organisation starts every session on the choose-organization task.
    status: ctx.deps.config.forceOrganizationSelection ? 'pending' : 'active',
    actor: impersonation?.actor ?? null,
    secondFactorVerified: proof.secondFactor === 'verified',
    openedFrom: ctx,
    now: ctx.now,
  });
  // Someone acting for the user is not the user signing in: their last sign-in and lockout stay as they
  // were. Recorded as the transaction ends, so that the account's row is locked only for the commit.
  if (!impersonation) ctx.attempts.signedIn(userId, client.id);
  // A client this request made has no other session to replace (a one-request password sign-in).
  if (!impersonation && !ctx.clientCreatedNow) {
    await replacePendingSessionsOf(ctx.tx, { clientId: client.id, userId, keep: session.id, now: ctx.now });
  }
  ctx.sessionOpened(session, madeActive);
  ctx.signInStateChanged();
  ctx.rotateClientCredential(client.id);
  return session;
}
