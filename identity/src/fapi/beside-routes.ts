import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { stripeWebhookRoutes } from '../billing/gateways/stripe-webhook-route.ts';
import type { IdentityDeps } from '../deps.ts';
import { errorBody, errors } from '../errors.ts';
import type { BesideFamily, BesideRoute } from '../http/route-declaration.ts';
import { oauthProtocolRoutes } from '../oauth-provider/oauth-provider-routes.ts';
import { socialLogoRoute } from '../social/logo-route.ts';
import { samlMetadataRoute } from './enterprise-sso/saml-metadata.ts';

export type { BesideFamily, BesideRoute };

/**
 * Every family, in the order they are registered. Paths are under the Frontend API's path and include
 * `/v1` where they have it (the authorization server's do not).
 */
export const besideFamilies: readonly BesideFamily[] = [
  { name: 'public files', routes: [socialLogoRoute, samlMetadataRoute] },
  ...stripeWebhookRoutes,
  ...oauthProtocolRoutes,
];

/** Every route beside the Frontend API plugin: what the fuzz and tenant-isolation suites read. */
export const besideRoutes: readonly BesideRoute[] = besideFamilies.flatMap((f) => f.routes);

/**
 * The declared path parameters and query, checked once before any handler runs (a refusal is the
 * Frontend API's 404). The bodies of these routes are read by their handlers: signed bytes, or RFC 6749's
 * forms which oidc-provider reads itself.
 */
function checked(route: BesideRoute, handler: RouteHandlerMethod): RouteHandlerMethod {
  const { params, query } = route.input;
  if (!params && !query) return handler;
  return async function (this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
    if (
      (params && !params.safeParse(req.params ?? {}).success) ||
      (query && !query.safeParse(req.query ?? {}).success)
    ) {
      return reply.code(404).send(errorBody(errors.notFound()));
    }
    return handler.call(this, req, reply);
  };
}

/** Registers every family of `besideFamilies` under the Frontend API's path. */
export async function registerBesideRoutes(app: FastifyInstance, deps: IdentityDeps): Promise<void> {
  const { fapiPath } = deps.config;
  const add = (on: FastifyInstance, routes: readonly BesideRoute[]) => {
    for (const route of routes) {
      on.route({
        method: route.method,
        url: `${fapiPath}${route.path}`,
        handler: checked(route, route.handler(deps)),
      });
    }
  };
  for (const family of besideFamilies) {
    const setUp = family.scope;
    if (!setUp) add(app, family.routes);
    else
      await app.register(async (scope) => {
        setUp(scope, deps);
        add(scope, family.routes);
      });
  }
}
