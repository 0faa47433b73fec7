import type { FastifyInstance } from 'fastify';

/**
 * GET /healthz — 200 `{ "status": "ok" }` while the server answers, for load balancers and orchestrators.
 * Unauthenticated and reading nothing (no database, no identity provider): it is also what the HTTP stack
 * alone costs per request, the baseline bench/api.ts sets `GET /api/me` against.
 */
export function registerHealthRoute(app: FastifyInstance) {
  app.get('/healthz', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
}
