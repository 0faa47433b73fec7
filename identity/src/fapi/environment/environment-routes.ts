import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdentityDeps } from '../../deps.ts';
import type { FapiRoute } from '../context.ts';

/**
 * GET /v1/environment, as clerk-js asks for it on every page load: the cached text (deps.environment) sent
 * as it is, with no transaction and no client lookup (the environment is the same for every browser).
 * `no-cache` with an ETag: the browser may keep it and asks again each time, answered 304 while unchanged.
 */
export function environmentHandler(deps: IdentityDeps) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const { body, etag } = await deps.environment.get();
    reply.header('cache-control', 'no-cache').header('etag', etag);
    if (etagListed(req.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(body);
  };
}

/**
 * The same environment through the Frontend API's router: PATCH /environment (clerk-js's "touch" with
 * development keys) and the spellings the direct route does not take (`/v1/environment/`), both bare.
 */
export const environmentRoutes: FapiRoute[] = (['GET', 'PATCH'] as const).map((method) => ({
  method,
  path: '/environment',
  auth: 'none' as const,
  permission: null,
  input: {},
  handler: async (ctx) => ({ bare: (await ctx.deps.environment.get()).json }),
}));

function etagListed(header: string | undefined, etag: string): boolean {
  return !!header && header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
