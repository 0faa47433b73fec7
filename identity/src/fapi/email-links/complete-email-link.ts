import type { EmailLinkRow } from '../../store/email-links.ts';
import { consumeEmailLink } from '../../store/email-links.ts';
import type { ClientRow, VerificationState } from '../../store/rows.ts';
import { sessionBlocker } from '../../sessions/may-open-session.ts';
import { emailAddressesOf, emailAddressTaken, findUserById, lockedForSeconds } from '../../store/users.ts';
import type { FapiContext } from '../context.ts';
import { firstFactorVerified } from '../sign-ins/first-factor-verified.ts';
import { findClientSignIn, updateSignIn } from '../../store/sign-ins.ts';
import { completeIfReady } from '../sign-ups/complete-sign-up.ts';
import { findClientSignUp, updateSignUp } from '../../store/sign-ups.ts';

/**
 * Where the link was opened: another browser's client id, which clerk-js compares with its own; null for
 * the browser that asked for the link (or one without a client), whose waiting tab then completes too.
 */
export interface Landing {
  verifiedAtClient: string | null;
}

const waitingForLink = (v: VerificationState | null): v is VerificationState =>
  v?.strategy === 'email_link' && v.status === 'unverified';

/**
 * The sign-in's first factor is proven: the sign-in completes (or waits for the second factor) on the
 * browser that started it. Null when the link no longer matches what that browser is doing: another
 * attempt replaced this one, another factor was chosen, or the browser signed in meanwhile.
 */
export async function completeSignInLink(
  ctx: FapiContext & { client: ClientRow },
  link: EmailLinkRow,
  landing: Landing,
): Promise<{ createdSessionId: string | null } | null> {
  const { client } = ctx;
  if (client.sign_in_id !== link.attempt_id) return null;
  const signIn = await findClientSignIn(ctx.tx, client.id, link.attempt_id, ctx.now);
  const pending = signIn?.first_factor_verification ?? null;
  if (!signIn?.user_id || signIn.status !== 'needs_first_factor' || !waitingForLink(pending)) return null;
  const user = await findUserById(ctx.tx, signIn.user_id);
  if (!user || lockedForSeconds(user, ctx.now) > 0) return null;
  const emails = (await emailAddressesOf(ctx.tx, [user.id])).get(user.id) ?? [];
  if (
    !emails.some((e) => e.verified_at && e.email_address.toLowerCase() === link.email_address.toLowerCase())
  )
    return null;
  if (await sessionBlocker(ctx, client.id, user.id)) return null;

  await consumeEmailLink(ctx.tx, link.id, ctx.now);
  const done = await firstFactorVerified(ctx, signIn, user, {
    ...pending,
    status: 'verified',
    verified_at_client: landing.verifiedAtClient,
  });
  return { createdSessionId: done.created_session_id };
}

/**
 * The sign-up's email address is proven: the sign-up completes when nothing else is missing, on the
 * browser that started it. Null when the link no longer matches that sign-up (address changed, replaced,
 * finished) or the address has been taken meanwhile.
 */
export async function completeSignUpLink(
  ctx: FapiContext & { client: ClientRow },
  link: EmailLinkRow,
  landing: Landing,
): Promise<{ createdSessionId: string | null } | null> {
  const { client } = ctx;
  if (client.sign_up_id !== link.attempt_id) return null;
  const signUp = await findClientSignUp(ctx.tx, client.id, link.attempt_id, ctx.now);
  const pending = signUp?.email_verification ?? null;
  if (
    !signUp ||
    signUp.status !== 'missing_requirements' ||
    signUp.email_address?.toLowerCase() !== link.email_address.toLowerCase() ||
    !waitingForLink(pending)
  )
    return null;
  if (await sessionBlocker(ctx, client.id, null)) return null;
  if (await emailAddressTaken(ctx.tx, link.email_address)) return null;

  await consumeEmailLink(ctx.tx, link.id, ctx.now);
  const verified = await updateSignUp(
    ctx.tx,
    signUp.id,
    { email_verification: { ...pending, status: 'verified', verified_at_client: landing.verifiedAtClient } },
    ctx.now,
  );
  await completeIfReady(ctx, verified);
  const after = await findClientSignUp(ctx.tx, client.id, signUp.id, ctx.now);
  return { createdSessionId: after?.created_session_id ?? null };
}

/** A link opened too late: the waiting tab learns it from its next poll and offers to send a new one. */
export async function expireLinkVerification(
  ctx: FapiContext,
  link: EmailLinkRow,
  client: ClientRow,
): Promise<void> {
  if (link.purpose === 'sign_in' && client.sign_in_id === link.attempt_id) {
    const signIn = await findClientSignIn(ctx.tx, client.id, link.attempt_id, ctx.now);
    const pending = signIn?.first_factor_verification ?? null;
    if (signIn && waitingForLink(pending)) {
      await updateSignIn(
        ctx.tx,
        signIn.id,
        { first_factor_verification: { ...pending, status: 'expired' } },
        ctx.now,
      );
    }
  }
  if (link.purpose === 'sign_up' && client.sign_up_id === link.attempt_id) {
    const signUp = await findClientSignUp(ctx.tx, client.id, link.attempt_id, ctx.now);
    const pending = signUp?.email_verification ?? null;
    if (signUp && waitingForLink(pending)) {
      await updateSignUp(
        ctx.tx,
        signUp.id,
        { email_verification: { ...pending, status: 'expired' } },
        ctx.now,
      );
    }
  }
}
