import { errors } from '../../../errors.ts';
import { requireReverification } from '../../../reverification/require-reverification.ts';
import { deletePasskey, findOwnPasskey } from '../../../store/passkeys.ts';
import { touchUser } from '../../../store/user-profile.ts';
import type { FapiRoute } from '../../context.ts';
import { refusedToActors } from '../actor-guard.ts';
import { currentSession } from '../me-session.ts';
import { formInput } from '../../form-input.ts';

/** DELETE /me/passkeys/:id — <UserProfile/> → Passkeys → Remove (behind `useReverification` in clerk-js). */
export const deletePasskeyRoute: FapiRoute = refusedToActors({
  method: 'DELETE',
  path: '/me/passkeys/:id',
  auth: 'session',
  permission: null,
  input: { body: formInput() },
  async handler(ctx) {
    const session = await currentSession(ctx);
    const passkey = await findOwnPasskey(ctx.tx, session.user_id, ctx.params.id!);
    if (!passkey) throw errors.notFound('passkey');
    await requireReverification(ctx, session);
    await deletePasskey(ctx.tx, passkey.id);
    await touchUser(ctx.tx, session.user_id, ctx.now);
    return { response: { object: 'passkey', id: passkey.id, deleted: true } };
  },
});
