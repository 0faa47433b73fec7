import type { ClerkError } from '../../errors.ts';
import { errors } from '../../errors.ts';
import { passkeyErrors } from '../../passkeys/passkey-errors.ts';
import { passkeysEnabled } from '../../passkeys/passkey-settings.ts';
import {
  CHALLENGE_TTL_SECONDS,
  authenticationOptions,
  challengeHash,
  parseAuthenticationCredential,
  relyingParty,
  verifyAuthentication,
} from '../../passkeys/relying-party.ts';
import {
  credentialsOf,
  findPasskeyByCredential,
  putAuthenticationChallenge,
  recordPasskeyUse,
  takeAuthenticationChallenge,
  type PasskeyRow,
} from '../../store/passkeys.ts';
import type { VerificationState } from '../../store/rows.ts';
import type { FapiContext, FapiResult } from '../context.ts';
import { rawField } from '../form.ts';

/**
 * The authentication ceremony shared by sign-in and session re-verification: a challenge offered for a
 * subject (`sign_in:<id>`, `session_verification:<id>`), stored as its hash, and the browser's assertion
 * checked against it. The first attempt spends the challenge, right or wrong.
 */

export function assertPasskeysEnabled(ctx: FapiContext): void {
  if (!passkeysEnabled(ctx.deps.settings.settings.passkeys)) throw passkeyErrors.notEnabled();
}

export const passkeyVerification = (
  status: 'unverified' | 'verified',
  expireAt: number | null,
): VerificationState => ({ status, strategy: 'passkey', attempts: null, expire_at: expireAt });

/**
 * A new challenge for `subject` (replacing any earlier one), allowing `userId`'s credentials only, or any
 * passkey of this relying party without one: the request options (the `nonce`) and the verification state.
 */
export async function offerAuthentication(
  ctx: FapiContext,
  subject: string,
  userId: string | null,
): Promise<{ nonce: string; state: VerificationState }> {
  const allowed = userId ? await credentialsOf(ctx.tx, userId) : [];
  if (userId && !allowed.length) throw errors.strategyForUserInvalid();
  const options = await authenticationOptions(relyingParty(ctx.deps.config), allowed);
  const expireAt = new Date(ctx.now.getTime() + CHALLENGE_TTL_SECONDS * 1000);
  await putAuthenticationChallenge(ctx.tx, {
    subject,
    challengeHash: challengeHash(options.challenge),
    expireAt,
    now: ctx.now,
  });
  return { nonce: JSON.stringify(options), state: passkeyVerification('unverified', expireAt.getTime()) };
}

/** Puts the nonce in an answer's `first_factor_verification`: it goes out there only, never stored. */
export function withNonce(result: FapiResult, nonce: string): FapiResult {
  if ('response' in result) {
    const json = result.response as { first_factor_verification: Record<string, unknown> };
    json.first_factor_verification.nonce = nonce;
  }
  return result;
}

/** `public_key_credential` of the request, parsed; a malformed one is refused before anything is spent. */
export function assertionOf(ctx: FapiContext) {
  const raw = rawField(ctx.body, 'public_key_credential');
  if (raw === undefined) throw errors.paramMissing('public_key_credential');
  const credential = parseAuthenticationCredential(raw);
  if (!credential) throw passkeyErrors.credentialMalformed();
  return credential;
}

/**
 * Spends the subject's challenge and checks the assertion against it: the passkey it proves (its counter
 * and last use recorded), or the error to answer as a value (so that the spent challenge stays spent).
 * `userId`: the account the passkey must belong to (null: any, the credential names it).
 */
export async function checkAssertion(
  ctx: FapiContext,
  subject: string,
  credential: ReturnType<typeof assertionOf>,
  userId: string | null,
): Promise<{ passkey: PasskeyRow } | { error: ClerkError }> {
  const challenge = await takeAuthenticationChallenge(ctx.tx, subject);
  if (!challenge || challenge.expire_at <= ctx.now) return { error: passkeyErrors.challengeInvalid() };
  const passkey = await findPasskeyByCredential(ctx.tx, credential.id);
  // The user handle, when the authenticator gives it, must be the passkey's account.
  const handle = credential.response.userHandle;
  if (
    !passkey?.public_key ||
    !passkey.credential_id ||
    (userId && passkey.user_id !== userId) ||
    (handle && handle !== Buffer.from(passkey.user_id).toString('base64url'))
  ) {
    return { error: passkeyErrors.verificationFailed() };
  }
  const checked = await verifyAuthentication(
    relyingParty(ctx.deps.config),
    credential,
    challenge.challenge_hash,
    {
      id: passkey.credential_id,
      publicKey: passkey.public_key,
      counter: Number(passkey.counter),
      transports: passkey.transports,
    },
  );
  if (!checked) return { error: passkeyErrors.verificationFailed() };
  const used = await recordPasskeyUse(ctx.tx, {
    id: passkey.id,
    previousCounter: passkey.counter,
    counter: checked.newCounter,
    now: ctx.now,
  });
  if (!used) return { error: passkeyErrors.verificationFailed() };
  return { passkey };
}
