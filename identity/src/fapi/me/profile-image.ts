import { errors } from '../../errors.ts';
import { userImageJSON } from '../../serializers/user.ts';
import { removeUserImage, setUserImage } from '../../store/user-images.ts';
import type { FapiRoute } from '../context.ts';
import { uploadedImage } from '../images/upload.ts';
import { currentSession } from './me-session.ts';
import { formInput } from '../form-input.ts';

/**
 * POST /me/profile_image — `user.setProfileImage({file})`: multipart `file` (or a data URL as a raw
 * body), PNG/JPEG/GIF/WebP up to 10 MB judged by its bytes. Answers Clerk's ImageJSON; the user in the
 * piggy-backed client carries the new `image_url`, served from our own origin.
 */
export const setProfileImageRoute: FapiRoute = {
  method: 'POST',
  path: '/me/profile_image',
  auth: 'session',
  permission: null,
  input: { body: formInput() },
  upload: true,
  rateLimits: (req) => [{ key: `profile_image:ip:${req.ip}`, limit: 20, windowSeconds: 60 }],
  async handler(ctx) {
    const session = await currentSession(ctx);
    const image = uploadedImage(ctx.upload);
    const id = await setUserImage(ctx.tx, session.user_id, image, ctx.now);
    const { image_url } = userImageJSON({ id: session.user_id, image_id: id }, ctx.deps);
    return {
      response: { object: 'image', id, name: ctx.upload?.filename ?? 'profile', public_url: image_url },
    };
  },
};

/** DELETE /me/profile_image — `user.setProfileImage({file: null})`: back to the default image. */
export const deleteProfileImageRoute: FapiRoute = {
  method: 'DELETE',
  path: '/me/profile_image',
  auth: 'session',
  permission: null,
  input: { body: formInput() },
  async handler(ctx) {
    const session = await currentSession(ctx);
    const id = await removeUserImage(ctx.tx, session.user_id, ctx.now);
    if (!id) throw errors.notFound('image');
    return { response: { object: 'image', id, name: null, public_url: null, deleted: true } };
  },
};
