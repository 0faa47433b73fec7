import { errors } from '../../../errors.ts';
import { passkeyJSON } from '../../../passkeys/passkey-json.ts';
import { findOwnPasskey, renamePasskey } from '../../../store/passkeys.ts';
import { touchUser } from '../../../store/user-profile.ts';
import type { FapiRoute } from '../../context.ts';
import { field } from '../../form.ts';
import { currentSession } from '../me-session.ts';
import { formInput } from '../../form-input.ts';

const MAX_NAME = 100;

/**
 * PATCH /me/passkeys/:id `name=…` — <UserProfile/> → Passkeys → Rename (not behind re-verification in
 * clerk-js, and open to an impersonator: a label changes no way of signing in).
 */
export const updatePasskeyRoute: FapiRoute = {
  method: 'PATCH',
  path: '/me/passkeys/:id',
  auth: 'session',
  permission: null,
  input: { body: formInput({ name: 'text' }) },
  async handler(ctx) {
    const session = await currentSession(ctx);
    const passkey = await findOwnPasskey(ctx.tx, session.user_id, ctx.params.id!);
    if (!passkey?.verified_at) throw errors.notFound('passkey');
    const name = field(ctx.body, 'name');
    if (!name) throw errors.paramMissing('name');
    if (name.length > MAX_NAME) throw errors.paramMaxLength('name', MAX_NAME);
    const renamed = await renamePasskey(ctx.tx, passkey.id, name, ctx.now);
    await touchUser(ctx.tx, session.user_id, ctx.now);
    return { response: passkeyJSON(renamed) };
  },
};
