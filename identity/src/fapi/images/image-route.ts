import type { FastifyReply, FastifyRequest } from 'fastify';
import { DatabaseUnavailableError, type Queryable } from '../../db/database.ts';
import type { IdentityDeps } from '../../deps.ts';
import { errorBody, errors } from '../../errors.ts';
import type { ImageFile } from '../../images/image-file.ts';

/**
 * GET /v1/images/<kind>/:id — an organisation's logo or a user's profile image, public like Clerk's
 * image CDN and served from our own origin. The URL in `image_url` carries a version (`?v=…`) and
 * every new image gets a new one, so browsers may keep what they fetched for good.
 */
export function imageHandler(
  deps: IdentityDeps,
  load: (db: Queryable, id: string) => Promise<ImageFile | null>,
) {
  return async (req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    let image: ImageFile | null;
    try {
      image = await load(deps.db, req.params.id);
    } catch (err) {
      if (!(err instanceof DatabaseUnavailableError)) throw err;
      const unavailable = errors.unavailable();
      return reply.code(503).headers(unavailable.headers).send(errorBody(unavailable));
    }
    if (!image) {
      return reply
        .code(404)
        .header('cache-control', 'no-store')
        .send(errorBody(errors.notFound('image')));
    }
    return reply
      .type(image.type)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'")
      .send(image.data);
  };
}
