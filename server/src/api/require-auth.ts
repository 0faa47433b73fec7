import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  isApiKeyRequest,
  isM2mTokenRequest,
  isOAuthTokenRequest,
  type M2mTokenCaller,
  type OAuthTokenCaller,
  type ApiKeyCaller,
  type ApiKeyRefusal,
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
    /** The M2M token the request came with, on a route for machines (`config.acceptsM2mToken`). */
    m2mToken?: M2mTokenCaller;
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
    /**
     * The route is for machines: it takes an M2M token (`Authorization: Bearer mt_…`) of a machine scoped to
     * the product's machine; its handler reads `req.m2mToken`. Absent: no M2M token.
     */
    acceptsM2mToken?: boolean;
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
  const challenge = bearerChallenge(authenticator.resourceMetadataUrl);
  return async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.auth || req.apiKey || req.oauthToken || req.m2mToken) return;
    if (isOAuthTokenRequest(req)) return authenticateOAuthToken(authenticator, challenge, req, reply);
    if (isM2mTokenRequest(req)) {
      if (!req.routeOptions.config?.acceptsM2mToken || !authenticator.authenticateM2mToken) {
        return sendApiError(
          reply,
          new ApiError('forbidden', 'This endpoint does not accept machine tokens.'),
        );
      }
      const verified = await authenticator.authenticateM2mToken(req);
      if (!verified.ok) return sendRefusal(reply, verified, 'Bearer');
      req.m2mToken = verified.m2mToken;
      return;
    }
    if (isApiKeyRequest(req)) {
      if (!req.routeOptions.config?.acceptsApiKey || !authenticator.authenticateApiKey) {
        return sendApiError(reply, new ApiError('forbidden', 'This endpoint does not accept API keys.'));
      }
      const verified = await authenticator.authenticateApiKey(req);
      if (!verified.ok) return sendRefusal(reply, verified, 'Bearer');
      req.apiKey = verified.apiKey;
      return;
    }
    const result = await authenticator.authenticate(req);
    if (!result.ok) {
      // A route that takes access tokens tells a client without one where to get one.
      const takesOAuth = req.routeOptions.config?.oauthScopes !== undefined;
      return sendApiError(
        reply.header('www-authenticate', takesOAuth ? challenge() : 'Bearer'),
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
  challenge: (error?: string) => string,
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
  if (!verified.ok) return sendRefusal(reply, verified, challenge('error="invalid_token"'));
  const missing = needed.filter((scope) => !verified.oauthToken.scopes.includes(scope));
  if (missing.length) {
    return sendApiError(
      reply.header('www-authenticate', challenge(`error="insufficient_scope", scope="${needed.join(' ')}"`)),
      new ApiError('forbidden', `This endpoint needs the scopes ${needed.join(', ')}.`),
    );
  }
  req.oauthToken = verified.oauthToken;
}

/**
 * RFC 6750's Bearer challenge with `params`, naming the product API's protected-resource metadata (RFC
 * 9728 §5.1) so that a client without a token (an MCP client) finds the authorization server: on the
 * answers about access tokens, and on a route taking them when no token came. Routes that take none
 * keep the bare `Bearer`: nothing there to send a client for.
 */
function bearerChallenge(metadataUrl: string | undefined) {
  const named = metadataUrl ? [`resource_metadata="${metadataUrl}"`] : [];
  return (params?: string) => {
    const all = [...(params ? [params] : []), ...named];
    return all.length ? `Bearer ${all.join(', ')}` : 'Bearer';
  };
}

/**
 * A bearer (API key or access token) not taken: 429 with Retry-After when its address failed too often,
 * 503 when the Backend API could not say (not the bearer's fault, so not a 401), else 401 with `challenge`.
 */
function sendRefusal(reply: FastifyReply, refused: ApiKeyRefusal, challenge: string) {
  if (refused.refusal === 'limited') {
    reply.header('retry-after', String(refused.retryAfterSeconds));
    return sendApiError(reply, new ApiError('too_many_requests', refused.reason));
  }
  if (refused.refusal === 'unavailable') {
    return sendApiError(reply.header('retry-after', '2'), new ApiError('service_unavailable'));
  }
  return sendApiError(
    reply.header('www-authenticate', challenge),
    new ApiError('unauthenticated', refused.reason),
  );
}

/** The verified caller of a route guarded by requireAuth; a missing one is a wiring bug. */
export function authOf(req: FastifyRequest): AuthContext {
  if (req.m2mToken) throw new ApiError('forbidden', 'This endpoint does not accept machine tokens.');
  if (req.oauthToken) throw new ApiError('forbidden', 'This endpoint does not accept OAuth access tokens.');
  if (req.apiKey) throw new ApiError('forbidden', 'This endpoint does not accept API keys.');
  if (!req.auth) throw new Error(`${req.routeOptions.url ?? req.url} is not guarded by requireAuth.`);
  return req.auth;
}

/** The verified machine of a route for machines (permission `machine`); anyone else is refused. */
export function machineOf(req: FastifyRequest): M2mTokenCaller {
  if (!req.m2mToken) throw new ApiError('forbidden', 'This endpoint is for machines, with an M2M token.');
  return req.m2mToken;
}

/**
 * The organisation the request acts for: an organisation's API key's own, or the session token's active
 * one; null for a user's key or a session without an active organisation.
 */
export function activeOrganizationIdOf(req: FastifyRequest): string | null {
  if (req.apiKey) return req.apiKey.orgId;
  return authOf(req).orgId;
}
