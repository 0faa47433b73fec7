import { protectedResourceRoute, type ProtectedResource } from './auth/protected-resource.ts';
import { healthRoute, metricsRoute, readinessRoute } from './health.ts';
import type { OperationsDeps } from '@app/identity';
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
 * Every route of the product server beside the product API's `/api` table (api/product-api.ts), in the
 * order registered: the only place one is declared. The static files (the SPA, clerk-js, the popup
 * callback page) and the hosted Frontend API proxy are files and a pass-through, not API routes.
 */
export const SERVER_ROUTE_FAMILIES: readonly ServerRouteFamily<ServerRouteDeps>[] = [
  { name: 'public documents', routes: [appConfigRoute, protectedResourceRoute] },
  { name: 'operations', routes: [healthRoute, readinessRoute, metricsRoute] },
  clerkWebhookFamily,
];

export const SERVER_ROUTES: readonly ServerRoute<ServerRouteDeps>[] = SERVER_ROUTE_FAMILIES.flatMap(
  (f) => f.routes,
);
