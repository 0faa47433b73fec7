import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  isApiKeyRequest,
  isOAuthTokenRequest,
  type OAuthTokenCaller,
  type ApiKeyCaller,
  type AuthContext,
  type RequestAuthenticator,
} from '../auth/authenticate.ts';
import { ApiError, sendApiError } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
    /** The API key the request came with, on a route that accepts one (`config.acceptsApiKey`). */
    apiKey?: ApiKeyCaller;
    /** The OAuth access token the request came with, on a route that accepts one (`config.oauthScopes`). */
    oauthToken?: OAuthTokenCaller;
  }
  interface FastifyContextConfig {
    /**
     * The route may be called with an API key (`Authorization: Bearer ak_…`) instead of a session token;
     * its handler then reads `req.apiKey` (or `activeOrganizationIdOf`). Absent: session tokens only.
     */
    acceptsApiKey?: boolean;
    /**
     * The route may be called with an OAuth access token (`Authorization: Bearer oat_…`) holding every one
     * of these scopes; its handler then reads `req.oauthToken`. Absent: no OAuth access token.
     */
    oauthScopes?: readonly string[];
  }
}

/**
 * Authenticates the caller once: the product API runs it as an onRequest hook for every route (before
 * any body is read); a route may name it again, which then finds the caller already known.
 *
 * An API key is taken only by a route that says so (`config: { acceptsApiKey: true }`); anywhere else it
 * is refused before it is even verified (403), so writes that need a person stay session-only.
 */
export function requireAuth(authenticator: RequestAuthenticator) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.auth || req.apiKey || req.oauthToken) return;
    if (isOAuthTokenRequest(req)) return authenticateOAuthToken(authenticator, req, reply);
    if (isApiKeyRequest(req)) {
      if (!req.routeOptions.config?.acceptsApiKey || !authenticator.authenticateApiKey) {
        return sendApiError(reply, new ApiError('forbidden', 'This endpoint does not accept API keys.'));
      }
      const verified = await authenticator.authenticateApiKey(req);
      if (!verified.ok) {
        if (verified.refusal === 'limited') {
          reply.header('retry-after', String(verified.retryAfterSeconds));
          return sendApiError(reply, new ApiError('too_many_requests', verified.reason));
        }
        // No answer about the key (the Backend API is away): not the key's fault, so not a 401.
        if (verified.refusal === 'unavailable') {
          return sendApiError(reply.header('retry-after', '2'), new ApiError('service_unavailable'));
        }
        return sendApiError(
          reply.header('www-authenticate', 'Bearer'),
          new ApiError('unauthenticated', verified.reason),
        );
      }
      req.apiKey = verified.apiKey;
      return;
    }
    const result = await authenticator.authenticate(req);
    if (!result.ok) {
      return sendApiError(
        reply.header('www-authenticate', 'Bearer'),
        new ApiError('unauthenticated', result.reason),
      );
    }
    req.auth = result.auth;
  };
}

/**
 * An OAuth access token, taken only by a route that names the scopes it needs (`config.oauthScopes`) and
 * refused anywhere else before it is verified (403); verified on every call; a token without one of the
 * scopes is 403 with RFC 6750's `insufficient_scope` challenge.
 */
async function authenticateOAuthToken(
  authenticator: RequestAuthenticator,
  req: FastifyRequest,
  reply: FastifyReply,
) {
  const needed = req.routeOptions.config?.oauthScopes;
  if (!needed || !authenticator.authenticateOAuthToken) {
    return sendApiError(
      reply,
      new ApiError('forbidden', 'This endpoint does not accept OAuth access tokens.'),
    );
  }
  const verified = await authenticator.authenticateOAuthToken(req);
  if (!verified.ok) {
    if (verified.refusal === 'unavailable') {
      return sendApiError(reply.header('retry-after', '2'), new ApiError('service_unavailable'));
    }
    return sendApiError(
      reply.header('www-authenticate', 'Bearer error="invalid_token"'),
      new ApiError('unauthenticated', verified.reason),
    );
  }
  const missing = needed.filter((scope) => !verified.oauthToken.scopes.includes(scope));
  if (missing.length) {
    return sendApiError(
      reply.header('www-authenticate', `Bearer error="insufficient_scope", scope="${needed.join(' ')}"`),
      new ApiError('forbidden', `This endpoint needs the scopes ${needed.join(', ')}.`),
    );
  }
  req.oauthToken = verified.oauthToken;
}

/** The verified caller of a route guarded by requireAuth; a missing one is a wiring bug. */
export function authOf(req: FastifyRequest): AuthContext {
  if (req.oauthToken) throw new ApiError('forbidden', 'This endpoint does not accept OAuth access tokens.');
  if (req.apiKey) throw new ApiError('forbidden', 'This endpoint does not accept API keys.');
  if (!req.auth) throw new Error(`${req.routeOptions.url ?? req.url} is not guarded by requireAuth.`);
  return req.auth;
}

/**
 * The organisation the request acts for: an organisation's API key's own, or the session token's active
 * one; null for a user's key or a session without an active organisation.
 */
export function activeOrganizationIdOf(req: FastifyRequest): string | null {
  if (req.apiKey) return req.apiKey.orgId;
  return authOf(req).orgId;
}
