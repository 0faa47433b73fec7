import type { z } from '@app/contract';
import { invalidRequest, sendApiError } from './api/errors.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';

/**
 * A route of the product server outside the product API's `/api` plugin (server/src/server-routes.ts):
 * public documents and the identity provider's webhook. Declared like every route (method, path, auth,
 * permission, input) with its handler, given the part of the server it needs (`Deps`).
 */
export interface ServerRoute<Deps = never> {
  method: 'GET' | 'POST';
  path: string;
  /**
   * `none`: anyone; `webhook_signature`: a signature of the exact body by the sender (Svix's headers);
   * `allowed_network`: a caller in METRICS_ALLOWED_FROM (404 for any other).
   */
  auth: 'none' | 'webhook_signature' | 'allowed_network';
  /** Nothing beyond `auth`: none of these acts for a user or an organisation. */
  permission: null;
  /** What the route reads of the query (zod), checked before the handler; bodies are read by the handler. */
  input: { query?: z.ZodObject };
  handler: (deps: Deps) => RouteHandlerMethod;
}

/**
 * Routes that share how a request is read; `scope` sets up their Fastify scope (body parsers, error
 * handler). Absent, they are registered on the application itself, with its hooks.
 */
export interface ServerRouteFamily<Deps = never> {
  name: string;
  scope?: (scope: FastifyInstance) => void;
  routes: readonly ServerRoute<Deps>[];
}

/** Registers each family's routes, checking a declared query once before the handler (422 otherwise). */
export async function registerServerRoutes<Deps>(
  app: FastifyInstance,
  families: readonly ServerRouteFamily<Deps>[],
  deps: Deps,
): Promise<void> {
  const add = (on: FastifyInstance, routes: readonly ServerRoute<Deps>[]) => {
    for (const route of routes) {
      const handler = route.handler(deps);
      const query = route.input.query;
      on.route({
        method: route.method,
        url: route.path,
        handler: query
          ? async function (this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
              if (!query.safeParse(req.query ?? {}).success)
                return sendApiError(reply, invalidRequest('The query is not valid.'));
              return handler.call(this, req, reply);
            }
          : handler,
      });
    }
  };
  for (const family of families) {
    const setUp = family.scope;
    if (!setUp) add(app, family.routes);
    else
      await app.register(async (scope) => {
        setUp(scope);
        add(scope, family.routes);
      });
  }
}
