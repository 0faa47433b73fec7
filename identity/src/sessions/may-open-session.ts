import type { Queryable } from '../db/database.ts';
import type { IdentityConfig } from '../config.ts';
import { errors, type ClerkError } from '../errors.ts';
import { signedInSessionsOfClient } from '../store/sessions.ts';

interface SessionCheck {
  tx: Queryable;
  now: Date;
  deps: { config: Pick<IdentityConfig, 'multiSession'> };
}

/**
 * Why this browser may not open a session for `userId` (null: a sign-up, whose user does not exist yet),
 * or null when it may. Single-session (Clerk's default): nothing while any account is signed in
 * (`session_exists`). Multi-session: any other account, but not one already signed in here
 * (`identifier_already_signed_in`, naming its session so that <SignIn/> switches to it).
 */
export async function sessionBlocker(
  ctx: SessionCheck,
  clientId: string,
  userId: string | null,
): Promise<ClerkError | null> {
  const signedIn = await signedInSessionsOfClient(ctx.tx, clientId, ctx.now);
  if (!ctx.deps.config.multiSession) return signedIn.length > 0 ? errors.sessionExists() : null;
  // A pending session (a task such as choosing an organisation still open) is not signed in yet for
  // clerk-js (`isSignedIn` is false, <SignedIn> hides) nor for @clerk/backend: signing in again as its
  // user goes on to the password, and the new session replaces the pending one (`openSession`).
  const same = userId ? signedIn.find((s) => s.user_id === userId && s.status === 'active') : undefined;
  return same ? errors.identifierAlreadySignedIn(same.id) : null;
}

export async function assertMayOpenSession(
  ctx: SessionCheck,
  clientId: string,
  userId: string | null,
): Promise<void> {
  const blocker = await sessionBlocker(ctx, clientId, userId);
  if (blocker) throw blocker;
}
