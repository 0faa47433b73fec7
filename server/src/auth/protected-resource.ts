import type { ServerRoute } from '../server-route.ts';

/** Where RFC 9728 puts a resource's metadata when the resource identifier is the origin itself. */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/** What the product API says of itself to an OAuth client (an MCP client finds its authorization server here). */
export interface ProtectedResource {
  /** The resource identifier: the product's public origin (PUBLIC_URL). */
  resource: string;
  /** The issuer of the tokens the product API takes: the identity provider's Frontend API URL (null: unknown). */
  issuer: string | null;
  /** The scopes the product API's routes ask of an access token (their `oauthScopes`). */
  scopes: readonly string[];
}

/** RFC 9728 §2's metadata document. Tokens are taken in the Authorization header only (RFC 6750 §2.1). */
export function protectedResourceMetadata(resource: ProtectedResource) {
  return {
    resource: resource.resource,
    authorization_servers: resource.issuer ? [resource.issuer] : [],
    scopes_supported: [...resource.scopes],
    bearer_methods_supported: ['header'],
    resource_name: 'Product API',
  };
}

/** The metadata's URL, which the product API's 401 challenges name (RFC 9728 §5.1). */
export function resourceMetadataUrl(resource: ProtectedResource): string {
  return `${resource.resource}${PROTECTED_RESOURCE_PATH}`;
}

/**
 * GET /.well-known/oauth-protected-resource: public, like a discovery document (RFC 9728 §3), cacheable
 * for a few minutes and readable from any origin, as browser-based clients fetch it.
 */
export const protectedResourceRoute: ServerRoute<{ protectedResource: ProtectedResource }> = {
  method: 'GET',
  path: PROTECTED_RESOURCE_PATH,
  auth: 'none',
  permission: null,
  input: {},
  handler: ({ protectedResource }) => {
    const body = protectedResourceMetadata(protectedResource);
    return async (_req, reply) => {
      reply.header('cache-control', 'public, max-age=300').header('access-control-allow-origin', '*');
      return body;
    };
  },
};
