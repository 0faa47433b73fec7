import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, errors } from '../errors.ts';

/**
 * Fastify's `frameworkErrors` option: what it refuses before any route or plugin runs (a path that is
 * not valid %-encoding, `/__clerk/v1/sessions/%ED%A0%80`). Under the identity prefixes the answer is
 * Clerk's envelope (a path that cannot be read names nothing: 404 resource_not_found), elsewhere
 * Fastify's own. It is a server option, so the app that creates the Fastify instance passes it.
 */
export function clerkFrameworkErrors(prefixes: string[]) {
  return (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const status = err.statusCode ?? 400;
    if (prefixes.some((prefix) => req.url === prefix || req.url.startsWith(`${prefix}/`))) {
      const clerk = status === 400 ? errors.notFound() : errors.bodyInvalid('The request could not be read.');
      return reply.code(clerk.status).header('content-type', 'application/json').send(errorBody(clerk));
    }
    return reply
      .code(status)
      .send({ error: 'Bad Request', code: err.code, message: err.message, statusCode: status });
  };
}
