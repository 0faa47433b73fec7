import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext, RequestAuthenticator } from '../auth/authenticate.ts';
import { ApiError, sendApiError } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
  }
}

/**
 * Authenticates the caller once: the product API runs it as an onRequest hook for every route (before
 * any body is read); a route may name it again, which then finds the caller already known.
 */
export function requireAuth(authenticator: RequestAuthenticator) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.auth) return;
    const result = await authenticator.authenticate(req);
    if (!result.ok) {
      return sendApiError(
        reply.header('www-authenticate', 'Bearer'),
        new ApiError('unauthenticated', result.reason),
      );
    }
    req.auth = result.auth;
  };
}

/** The verified caller of a route guarded by requireAuth; a missing one is a wiring bug. */
export function authOf(req: FastifyRequest): AuthContext {
  if (!req.auth) throw new Error(`${req.routeOptions.url ?? req.url} is not guarded by requireAuth.`);
  return req.auth;
}
