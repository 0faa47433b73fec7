import { z } from '@app/contract';

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
  | 'webhook_signature';

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
