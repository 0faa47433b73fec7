import type { ServerRoute } from './server-route.ts';

/**
 * GET /healthz — 200 `{ "status": "ok" }` while the server answers, for load balancers and orchestrators.
 * Unauthenticated and reading nothing (no database, no identity provider): it is also what the HTTP stack
 * alone costs per request, the baseline bench/api.ts sets `GET /api/me` against.
 */
export const healthRoute: ServerRoute<unknown> = {
  method: 'GET',
  path: '/healthz',
  auth: 'none',
  permission: null,
  input: {},
  handler: () => async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  },
};
