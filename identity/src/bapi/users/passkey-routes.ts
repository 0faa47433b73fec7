import { errors } from '../../errors.ts';
import { deletePasskey, findOwnPasskey } from '../../store/passkeys.ts';
import { touchUser } from '../../store/user-profile.ts';
import { findUserById } from '../../store/users.ts';
import type { BapiRoute } from '../route.ts';

/**
 * Backend API: `users.deleteUserPasskey({userId, passkeyIdentificationId})` (@clerk/backend 2.10.1) →
 * DELETE /v1/users/:id/passkeys/:passkeyId: DeletedObject. Another user's passkey is 404, as one that
 * does not exist. (`users.getUser` lists the verified passkeys in `passkeys`.)
 */
export const passkeyRoutes: BapiRoute[] = [
  {
    method: 'DELETE',
    path: '/v1/users/:id/passkeys/:passkeyId',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const userId = req.params.id!;
      const now = deps.clock();
      return deps.db.transaction(async (tx) => {
        if (!(await findUserById(tx, userId))) throw errors.notFound('user');
        const passkey = await findOwnPasskey(tx, userId, req.params.passkeyId!);
        if (!passkey) throw errors.notFound('passkey');
        await deletePasskey(tx, passkey.id);
        await touchUser(tx, userId, now);
        return { object: 'passkey', id: passkey.id, deleted: true };
      });
    },
  },
];
