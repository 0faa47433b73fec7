import { newId } from '../../../ids.ts';
import { passkeyErrors } from '../../../passkeys/passkey-errors.ts';
import { passkeyJSON } from '../../../passkeys/passkey-json.ts';
import { passkeysEnabled } from '../../../passkeys/passkey-settings.ts';
import {
  CHALLENGE_TTL_SECONDS,
  challengeHash,
  registrationOptions,
  relyingParty,
} from '../../../passkeys/relying-party.ts';
import { requireReverification } from '../../../reverification/require-reverification.ts';
import { credentialsOf, dropPendingPasskeys, insertPendingPasskey } from '../../../store/passkeys.ts';
import { loadUsers } from '../../../users/load-users.ts';
import { errors } from '../../../errors.ts';
import type { FapiRoute } from '../../context.ts';
import { refusedToActors } from '../actor-guard.ts';
import { currentSession } from '../me-session.ts';
import { formInput } from '../../form-input.ts';

/** A user holds at most this many passkeys. */
export const MAX_PASSKEYS_PER_USER = 10;

/**
 * POST /me/passkeys — <UserProfile/> → Security → Passkeys → Add a passkey (clerk-js `user.createPasskey()`,
 * behind `useReverification`). A passkey waiting for its credential, with the creation options as
 * `verification.nonce`; a registration left unfinished is replaced by the next one.
 */
export const createPasskeyRoute: FapiRoute = refusedToActors({
  method: 'POST',
  path: '/me/passkeys',
  auth: 'session',
  permission: null,
  input: { body: formInput() },
  rateLimits: (req) =>
    req.sessionId ? [{ key: `passkey_create:${req.sessionId}`, limit: 10, windowSeconds: 60 }] : [],
  async handler(ctx) {
    const session = await currentSession(ctx);
    if (!passkeysEnabled(ctx.deps.settings.settings.passkeys)) throw passkeyErrors.notEnabled();
    await requireReverification(ctx, session);
    const owner = (await loadUsers(ctx.tx, [session.user_id])).get(session.user_id);
    if (!owner) throw errors.notFound('user');
    if ((await dropPendingPasskeys(ctx.tx, owner.user.id)) >= MAX_PASSKEYS_PER_USER) {
      throw errors.paramValueInvalid(
        'passkey',
        `You can have at most ${MAX_PASSKEYS_PER_USER} passkeys. Remove one before adding another.`,
      );
    }
    const { user, emails, phones } = owner;
    const email = emails.find((e) => e.id === user.primary_email_address_id)?.email_address;
    const phone = phones.find((p) => p.id === user.primary_phone_number_id)?.phone_number;
    const name = email ?? user.username ?? phone ?? user.id;
    const displayName = [user.first_name, user.last_name].filter(Boolean).join(' ') || name;

    const options = await registrationOptions(
      relyingParty(ctx.deps.config),
      { id: user.id, name, displayName },
      await credentialsOf(ctx.tx, user.id),
    );
    const row = await insertPendingPasskey(ctx.tx, {
      id: newId('idn'),
      userId: user.id,
      challengeHash: challengeHash(options.challenge),
      expireAt: new Date(ctx.now.getTime() + CHALLENGE_TTL_SECONDS * 1000),
      now: ctx.now,
    });
    return { response: passkeyJSON(row, JSON.stringify(options)) };
  },
});
