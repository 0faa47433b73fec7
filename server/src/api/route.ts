import type { Permission, Schema, SchemaOutput } from '@app/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseRequest } from './contract-io.ts';
import type { ApiDeps } from './deps.ts';

export type ProductMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route: a verified session token; an organisation's API key only where the route says so
 * (docs/api-keys.md), which then acts as its organisation with no role; `m2m_token`, a route for machines:
 * an M2M token of a machine scoped to the product's machine (its permission is then `machine`).
 */
export type ProductAuth = 'session_token' | 'session_token_or_api_key' | 'm2m_token';

/**
 * What the caller must hold, checked after authentication and before the input is read, in the token's
 * active organisation (never one the request names):
 * - `signed_in`: nothing more (the route answers for the token's own user and organisation);
 * - `{ roles }`: an active organisation (404 `no_active_organization`) and one of these roles (403);
 * - `{ orgPermission }`: an active organisation and a role carrying this permission (403);
 * - `vciso_console`: the role `org:vciso` and the organisation's vCISO module (403 `forbidden`);
 * - `machine`: a verified M2M token, and nothing else (a person's session is 403 `forbidden`).
 */
export type ProductPermission =
  'signed_in' | { roles: readonly string[] } | { orgPermission: Permission } | 'vciso_console' | 'machine';

/** What a route reads of a request besides who calls: contract schemas, each refusal `422 invalid_request`. */
export interface ProductInput<B extends Schema | undefined, P extends Record<string, Schema>> {
  /** The JSON body (a route without one reads none). */
  body?: B;
  /** Each path parameter, read on its own (its refusal names no path). */
  params?: P;
}

type Parsed<P extends Record<string, Schema>> = { [K in keyof P]: SchemaOutput<P[K]> };

/** A request as the handler sees it: authenticated, allowed, its input read with the declared schemas. */
export interface ProductCall<B extends Schema | undefined, P extends Record<string, Schema>> {
  req: FastifyRequest;
  reply: FastifyReply;
  body: B extends Schema ? SchemaOutput<B> : undefined;
  params: Parsed<P>;
}

/** One product API route: the whole of what the plugin and the tenant-isolation suite know of it. */
export interface ProductRoute {
  method: ProductMethod;
  /** Under /api, with `:name` segments. */
  path: string;
  auth: ProductAuth;
  /**
   * Also takes an OAuth access token holding every one of these scopes (docs/oauth-provider.md), acting
   * for the user who allowed the application; absent, OAuth access tokens are refused (403).
   */
  oauthScopes?: readonly string[];
  permission: ProductPermission;
  input: { body?: Schema; params?: Record<string, Schema> };
  /** Reads the declared input, then runs the handler; what it returns is the 200 answer. */
  run(req: FastifyRequest, reply: FastifyReply, deps: ApiDeps): Promise<unknown>;
}

/**
 * Declares a route. The input is read here, once, after the plugin's authentication and permission
 * checks: a caller without the rights learns nothing about what their input would have been.
 */
export function productRoute<
  B extends Schema | undefined = undefined,
  P extends Record<string, Schema> = Record<never, Schema>,
>(declaration: {
  method: ProductMethod;
  path: string;
  auth: ProductAuth;
  oauthScopes?: readonly string[];
  permission: ProductPermission;
  input?: ProductInput<B, P>;
  handler(call: ProductCall<B, P>, deps: ApiDeps): Promise<unknown>;
}): ProductRoute {
  const { handler, input = {}, ...rest } = declaration;
  return {
    ...rest,
    input,
    async run(req, reply, deps) {
      const raw = (req.params ?? {}) as Record<string, unknown>;
      const params = Object.fromEntries(
        Object.entries(input.params ?? {}).map(([name, schema]) => [name, parseRequest(schema, raw[name])]),
      ) as Parsed<P>;
      const body = (input.body ? parseRequest(input.body, req.body) : undefined) as ProductCall<B, P>['body'];
      return handler({ req, reply, body, params }, deps);
    },
  };
}
