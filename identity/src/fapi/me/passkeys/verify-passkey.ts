import { errors } from '../../../errors.ts';
import { passkeyErrors } from '../../../passkeys/passkey-errors.ts';
import { passkeyJSON, passkeyNameFor } from '../../../passkeys/passkey-json.ts';
import { passkeysEnabled } from '../../../passkeys/passkey-settings.ts';
import {
  parseRegistrationCredential,
  relyingParty,
  verifyRegistration,
} from '../../../passkeys/relying-party.ts';
import {
  credentialTaken,
  findOwnPasskey,
  spendRegistrationChallenge,
  verifyPasskeyCredential,
} from '../../../store/passkeys.ts';
import { touchUser } from '../../../store/user-profile.ts';
import type { FapiRoute } from '../../context.ts';
import { field, rawField } from '../../form.ts';
import { refusedToActors } from '../actor-guard.ts';
import { currentSession } from '../me-session.ts';
import { formInput } from '../../form-input.ts';

/**
 * POST /me/passkeys/:id/attempt_verification `strategy=passkey public_key_credential=<JSON>` — the
 * browser's new credential for the passkey POST /me/passkeys created. Its challenge is spent by this
 * attempt, right or wrong (clerk-js creates a new passkey for every try).
 */
export const verifyPasskeyRoute: FapiRoute = refusedToActors({
  method: 'POST',
  path: '/me/passkeys/:id/attempt_verification',
  auth: 'session',
  permission: null,
  input: { body: formInput({ strategy: 'enum', public_key_credential: 'json' }) },
  rateLimits: (req) => [{ key: `passkey_verify:${req.params.id}`, limit: 10, windowSeconds: 60 }],
  async handler(ctx) {
    const session = await currentSession(ctx);
    const passkey = await findOwnPasskey(ctx.tx, session.user_id, ctx.params.id!);
    if (!passkey) throw errors.notFound('passkey');
    if (!passkeysEnabled(ctx.deps.settings.settings.passkeys)) throw passkeyErrors.notEnabled();
    const strategy = field(ctx.body, 'strategy');
    if (!strategy) throw errors.paramMissing('strategy');
    if (strategy !== 'passkey') throw errors.strategyForUserInvalid();
    const raw = rawField(ctx.body, 'public_key_credential');
    if (raw === undefined) throw errors.paramMissing('public_key_credential');
    const credential = parseRegistrationCredential(raw);
    if (!credential) throw passkeyErrors.credentialMalformed();
    if (passkey.verified_at) throw passkeyErrors.alreadyExists();

    const challenge = passkey.challenge_hash;
    const live = challenge && passkey.challenge_expire_at && passkey.challenge_expire_at > ctx.now;
    // Spent now, whatever follows: the answers below commit it (an error value, not a throw).
    await spendRegistrationChallenge(ctx.tx, passkey.id, ctx.now);
    if (!live) return { error: passkeyErrors.challengeInvalid() };
    if (await credentialTaken(ctx.tx, credential.id)) return { error: passkeyErrors.alreadyExists() };
    const info = await verifyRegistration(relyingParty(ctx.deps.config), credential, challenge);
    if (!info || !info.userVerified || info.credential.id !== credential.id) {
      return { error: passkeyErrors.registrationFailed() };
    }
    const verified = await verifyPasskeyCredential(ctx.tx, {
      id: passkey.id,
      name: passkeyNameFor(ctx.userAgent),
      credentialId: info.credential.id,
      publicKey: info.credential.publicKey,
      counter: info.credential.counter,
      transports: credential.response.transports ?? [],
      backedUp: info.credentialBackedUp,
      now: ctx.now,
    });
    if (!verified) return { error: passkeyErrors.alreadyExists() };
    await touchUser(ctx.tx, session.user_id, ctx.now);
    return { response: passkeyJSON(verified) };
  },
});
