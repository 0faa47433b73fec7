import type { FastifyReply, FastifyRequest } from 'fastify';
import { DatabaseUnavailableError } from '../../db/database.ts';
import type { IdentityDeps } from '../../deps.ts';
import { errorBody, errors } from '../../errors.ts';
import { organizationImage, type OrganizationImage } from '../../store/organizations.ts';

/**
 * GET /v1/images/organizations/:id — an organisation's logo, public like Clerk's image CDN. The URL in
 * `image_url` carries a version (`?v=<updated_at>`) and every new logo gets a new one, so browsers may
 * keep what they fetched for good.
 */
export function organizationImageHandler(deps: IdentityDeps) {
  return async (req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    let image: OrganizationImage | null;
    try {
      image = await organizationImage(deps.db, req.params.id);
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
