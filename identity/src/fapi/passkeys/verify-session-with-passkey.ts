import { assertMayAttempt } from '../../abuse/attempt-gate.ts';
import { errors } from '../../errors.ts';
import { updateSessionVerification, type SessionVerificationRow } from '../../store/session-verifications.ts';
import type { SessionRow } from '../../store/rows.ts';
import type { Owner } from '../../users/load-users.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { factorVerified } from '../sessions/verify/factor-verified.ts';
import { verificationResponse } from '../sessions/verify/respond.ts';
import {
  assertionOf,
  assertPasskeysEnabled,
  checkAssertion,
  offerAuthentication,
  passkeyVerification,
  withNonce,
} from './passkey-assertion.ts';

/**
 * Session re-verification with a passkey (clerk-js `session.verifyWithPasskey`, the passkey card of
 * <UserVerification/>): `verify/prepare_first_factor strategy=passkey` offers a challenge allowing the
 * user's own credentials, `verify/attempt_first_factor strategy=passkey public_key_credential=<JSON>`
 * proves the first factor again. Only the session's user's passkeys count.
 */

const subjectOf = (verification: SessionVerificationRow) => `session_verification:${verification.id}`;

export async function preparePasskeyReverification(
  ctx: FapiContext,
  verification: SessionVerificationRow,
  owner: Owner,
): Promise<FapiResult> {
  assertPasskeysEnabled(ctx);
  const { nonce, state } = await offerAuthentication(ctx, subjectOf(verification), owner.user.id);
  const prepared = await updateSessionVerification(
    ctx.tx,
    verification.id,
    { first_factor_verification: state },
    ctx.now,
  );
  return withNonce(await verificationResponse(ctx, prepared), nonce);
}

export async function attemptPasskeyReverification(
  ctx: FapiContext,
  verification: SessionVerificationRow,
  session: SessionRow,
  owner: Owner,
): Promise<FapiResult> {
  assertPasskeysEnabled(ctx);
  const credential = assertionOf(ctx);
  // As the password's attempt: a lock or a delay on the account holds here too.
  await assertMayAttempt(ctx, owner.user);
  const checked = await checkAssertion(ctx, subjectOf(verification), credential, owner.user.id);
  if ('error' in checked) return checked;
  if (checked.passkey.user_id !== session.user_id) return { error: errors.notFound('passkey') };
  return verificationResponse(
    ctx,
    await factorVerified(
      ctx,
      verification,
      session,
      owner,
      'first_factor',
      passkeyVerification('verified', null),
    ),
  );
}
