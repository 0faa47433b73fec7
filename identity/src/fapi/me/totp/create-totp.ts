import { seal } from '../../../crypto/sealing.ts';
import { errors } from '../../../errors.ts';
import { newId } from '../../../ids.ts';
import { newTotpSecret, totpSealingKey, totpUri } from '../../../second-factors/totp.ts';
import { totpJSON } from '../../../serializers/second-factors.ts';
import { findTotpSecret, replaceTotpSecret } from '../../../store/totp-secrets.ts';
import { emailAddressesOf, findUserById } from '../../../store/users.ts';
import type { FapiRoute } from '../../context.ts';
import { currentSession } from '../me-session.ts';
import { refusedToActors } from '../actor-guard.ts';
import { requireReverification } from '../../../reverification/require-reverification.ts';
import { formInput } from '../../form-input.ts';

/**
 * POST /me/totp — <UserProfile/> → Security → Add two-step verification → Authenticator application.
 * A pending secret is replaced by a new one each time (the card asks on every opening); a verified one
 * must be removed first.
 */
export const createTotpRoute: FapiRoute = refusedToActors({
  method: 'POST',
  path: '/me/totp',
  auth: 'session',
  permission: null,
  input: { body: formInput() },
  async handler(ctx) {
    const session = await currentSession(ctx);
    await requireReverification(ctx, session);
    const current = await findTotpSecret(ctx.tx, session.user_id);
    if (current?.verified_at) throw errors.totpAlreadyEnabled();

    const user = (await findUserById(ctx.tx, session.user_id))!;
    const emails = (await emailAddressesOf(ctx.tx, [user.id])).get(user.id) ?? [];
    const primary = emails.find((e) => e.id === user.primary_email_address_id) ?? emails[0];
    const label = primary?.email_address ?? user.username ?? user.id;

    const id = newId('totp');
    const secret = newTotpSecret();
    const row = await replaceTotpSecret(ctx.tx, {
      id,
      userId: user.id,
      sealedSecret: seal(totpSealingKey(ctx.deps.keys.secretKey), secret, id),
      now: ctx.now,
    });
    const uri = totpUri(secret, ctx.deps.config.applicationName, label);
    return { response: totpJSON(row, { secret, uri }) };
  },
});
