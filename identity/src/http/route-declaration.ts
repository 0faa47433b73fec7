import { z } from '@app/contract';
import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import type { IdentityDeps } from '../deps.ts';

export type RouteMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * How the caller of a route proves who it is. One list for the three APIs, so a suite can ask every
 * route of every API the same question ("without its credential, is it refused?").
 */
export type RouteAuth =
  /** Anyone: the environment, provider callbacks and navigations, the plan list. */
  | 'none'
  /** The browser's client (`__client` cookie, or the dev-browser token with development keys), made on first use. */
  | 'client'
  /** A signed-in session of the browser's client (`_clerk_session_id`, else its last active one). */
  | 'session'
  /** Development keys only: the call that hands clerk-js its dev-browser token. */
  | 'dev_browser'
  /** A session token as a Bearer header (clerk-js's API-key calls, the product API). */
  | 'session_token'
  /** The instance's secret key as a Bearer header (the Backend API). */
  | 'secret_key'
  /** A signature of the request's exact bytes by the sender (Stripe's webhook deliveries). */
  | 'webhook_signature'
  /** The caller's address in the operator's list, `METRICS_ALLOWED_FROM` (/metrics); 404 for any other. */
  | 'allowed_network';

/**
 * What a route reads of a request besides its credential: zod objects of its path parameters, its query
 * and its body. The plugin of its API parses them before the handler runs, and the fuzz suites generate
 * their bad values from them (see docs/identity-internals.md, "Routes").
 */
export interface RouteInput {
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodObject;
}

/** What every route of the Frontend, Backend and product APIs declares, whatever else it holds. */
export interface RouteDeclaration {
  method: RouteMethod;
  /** Path under the API's prefix, with `:name` segments. */
  path: string;
  auth: RouteAuth;
  /**
   * What the authenticated caller must also hold, beyond `auth` (an organisation permission, the
   * instance's operator); `null` when the credential is enough. Checked by the handler's domain code
   * where it depends on the resource (the organisation of the path), so it is declared here for the suites.
   */
  permission: string | null;
  input: RouteInput;
}

/**
 * A route under the Frontend API's path that the Frontend API plugin does not dispatch: it needs a body
 * reader of its own (Stripe's signed bytes, oidc-provider's raw request) or none of the plugin's checks
 * (the public files need no client and no origin check). Declared like every route, with its handler;
 * fapi/beside-routes.ts is the only place these reach Fastify.
 */
export interface BesideRoute extends RouteDeclaration {
  /** The Fastify handler, given the provider's dependencies. */
  handler: (deps: IdentityDeps) => RouteHandlerMethod;
}

/**
 * Routes that share how a request is read. `scope` sets up the Fastify scope they are registered in
 * (content-type parsers, error handler); absent, they are registered on the application itself, so they
 * get the hooks the application adds later (the product server's security headers).
 */
export interface BesideFamily {
  name: string;
  scope?: (scope: FastifyInstance, deps: IdentityDeps) => void;
  routes: readonly BesideRoute[];
}
