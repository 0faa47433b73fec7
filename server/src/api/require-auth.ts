import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext, Authenticator } from '../auth/authenticate.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
  }
}

export function requireAuth(authenticator: Authenticator) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const result = await authenticator.authenticate(req);
    if (!result.ok) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send({ errors: [{ code: 'unauthenticated', message: result.reason }] });
    }
    req.auth = result.auth;
  };
}
