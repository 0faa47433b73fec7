import { SIGN_IN_PATH } from './auth/satellite-sync.ts';
import { protectedResourceRoute, type ProtectedResource } from './auth/protected-resource.ts';
import { healthRoute, metricsRoute, readinessRoute } from './health.ts';
import type { OperationsDeps } from '@app/identity';
import type { FastifyRequest } from 'fastify';
import type { ServerRoute, ServerRouteFamily } from './server-route.ts';
import { clerkWebhookFamily, type ClerkWebhookDeps } from './webhooks/clerk-webhooks.ts';

/** What the routes below need of the server (built in app.ts). */
export interface ServerRouteDeps {
  /** The web app's start-up configuration (`/app-config.json`), read on each request. */
  appConfig: () => unknown;
  protectedResource: ProtectedResource;
  webhooks: ClerkWebhookDeps;
  /** /readyz's dependencies and /metrics' registry and allowed addresses (docs/observability.md). */
  operations: OperationsDeps;
  /**
   * A development satellite's sync through the product's sign-in page (auth/satellite-sync.ts): the
   * answer's headers, or null when the request is none.
   */
  satelliteSync: (req: FastifyRequest) => Promise<Headers | null>;
}

/** GET /app-config.json — what the web app starts with (keys, proxy URL, captcha, billing); never cached. */
export const appConfigRoute: ServerRoute<ServerRouteDeps> = {
  method: 'GET',
  path: '/app-config.json',
  auth: 'none',
  permission: null,
  input: {},
  handler: (deps) => async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return deps.appConfig();
  },
};

/**
 * GET /sign-in — the web app's sign-in page, except for a development satellite's signed-out page load,
 * which @clerk/backend sends here with `__clerk_redirect_url` and which goes back (`307`) to that satellite
 * page with the browser's dev-browser token (docs/satellites.md). Anything else is the page, as every
 * other path of the web app (static/spa.ts, through the not-found handler).
 */
export const signInPageRoute: ServerRoute<ServerRouteDeps> = {
  method: 'GET',
  path: SIGN_IN_PATH,
  auth: 'none',
  permission: null,
  input: {},
  handler: (deps) => async (req, reply) => {
    const sync = await deps.satelliteSync(req);
    if (!sync) return reply.callNotFound();
    for (const [name, value] of sync) if (name !== 'set-cookie') reply.header(name, value);
    const cookies = sync.getSetCookie();
    if (cookies.length) reply.header('set-cookie', cookies);
    return reply.code(307).send();
  },
};

/**
 * Every route of the product server beside the product API's `/api` table (api/product-api.ts), in the
 * order registered: the only place one is declared. The static files (the SPA, clerk-js, the popup
 * callback page) and the hosted Frontend API proxy are files and a pass-through, not API routes.
 */
export const SERVER_ROUTE_FAMILIES: readonly ServerRouteFamily<ServerRouteDeps>[] = [
  { name: 'public documents', routes: [appConfigRoute, protectedResourceRoute] },
  { name: 'web app pages', routes: [signInPageRoute] },
  { name: 'operations', routes: [healthRoute, readinessRoute, metricsRoute] },
  clerkWebhookFamily,
];

export const SERVER_ROUTES: readonly ServerRoute<ServerRouteDeps>[] = SERVER_ROUTE_FAMILIES.flatMap(
  (f) => f.routes,
);
