import { deletePasskey, findOwnPasskey } from '../../store/passkeys.ts';
import type { BapiRoute } from '../route.ts';
import { deleteUserResourceRoute } from './delete-user-resource.ts';

/**
 * Backend API: `users.deleteUserPasskey({userId, passkeyIdentificationId})` (@clerk/backend 2.10.1) →
 * DELETE /v1/users/:id/passkeys/:passkeyId: DeletedObject. Another user's passkey is 404, as one that
 * does not exist. (`users.getUser` lists the verified passkeys in `passkeys`.)
 */
export const passkeyRoutes: BapiRoute[] = [
  deleteUserResourceRoute({
    path: '/v1/users/:id/passkeys/:resourceId',
    object: 'passkey',
    noun: 'passkey',
    find: findOwnPasskey,
    remove: (tx, _userId, id) => deletePasskey(tx, id),
  }),
];
