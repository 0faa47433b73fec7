import { requireUser } from './require-user.ts';
import { removeUserImage, setUserImage } from '../../store/user-images.ts';
import type { BapiRoute } from '../route.ts';
import { uploadedImage } from '../uploaded-image.ts';
import { userAnswer } from './user-routes.ts';

/**
 * Backend API: the user's profile image (`users.updateUserProfileImage`, multipart `file`;
 * `users.deleteUserProfileImage`, back to the default image). Both answer the user.
 */
export const userProfileImageRoutes: BapiRoute[] = [
  {
    method: 'POST',
    path: '/v1/users/:id/profile_image',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { upload: true },
    async handler(req, deps) {
      const image = await uploadedImage(req.raw);
      const now = deps.clock();
      await deps.db.transaction(async (tx) => {
        await requireUser(tx, req.params.id!);
        await setUserImage(tx, req.params.id!, image, now);
      });
      return userAnswer(deps, req.params.id!, now);
    },
  },
  {
    method: 'DELETE',
    path: '/v1/users/:id/profile_image',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const now = deps.clock();
      await deps.db.transaction(async (tx) => {
        await requireUser(tx, req.params.id!);
        await removeUserImage(tx, req.params.id!, now);
      });
      return userAnswer(deps, req.params.id!, now);
    },
  },
];
