import type { FastifyContextConfig, FastifyReply, FastifyRequest } from 'fastify';
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

/** Where a route's handler reads a bearer's verified caller (the request's field). */
type BearerField = 'apiKey' | 'oauthToken' | 'm2mToken';
type CallerOf<F extends BearerField> = NonNullable<FastifyRequest[F]>;
type VerifiedBearer<F extends BearerField> = ({ ok: true } & Record<F, CallerOf<F>>) | ApiKeyRefusal;
type Challenge = ReturnType<typeof bearerChallenge>;

/**
 * A kind of bearer other than a session token (a machine token of @clerk/backend's, told apart by its
 * prefix): taken only by a route whose config says so and refused anywhere else before it is verified
 * (403), so that writes that need a person stay session-only; else verified on every call.
 */
interface BearerKind<F extends BearerField> {
  /** The request carries one (`Bearer ak_…`, `oat_…`, `mt_…`). */
  carries(req: FastifyRequest): boolean;
  field: F;
  /** The route's config takes this kind. */
  takenBy(config: FastifyContextConfig | undefined): boolean;
  /** The authenticator's verifier of the kind; without one the kind is refused everywhere. */
  verifier(
    authenticator: RequestAuthenticator,
  ): ((req: FastifyRequest) => Promise<VerifiedBearer<F>>) | undefined;
  /** The kind in "This endpoint does not accept …". */
  words: string;
  /** The challenge answered with a bearer that is not valid. */
  invalid(challenge: Challenge): string;
  /** A verified bearer the route still refuses (an access token without a scope it needs): the answer. */
  refuses?(
    caller: CallerOf<F>,
    req: FastifyRequest,
    reply: FastifyReply,
    challenge: Challenge,
  ): FastifyReply | null;
}

/** One of the kinds, its field and its caller's type kept together. */
type AnyBearerKind = { [F in BearerField]: BearerKind<F> }[BearerField];

/** Every kind of bearer the product API knows; the next kind is one entry here. */
const BEARER_KINDS: readonly AnyBearerKind[] = [
  {
    carries: isOAuthTokenRequest,
    field: 'oauthToken',
    takenBy: (config) => config?.oauthScopes !== undefined,
    verifier: (authenticator) => authenticator.authenticateOAuthToken?.bind(authenticator),
    words: 'OAuth access tokens',
    invalid: (challenge) => challenge('error="invalid_token"'),
    refuses: lacksScope,
  },
  {
    carries: isM2mTokenRequest,
    field: 'm2mToken',
    takenBy: (config) => config?.acceptsM2mToken === true,
    verifier: (authenticator) => authenticator.authenticateM2mToken?.bind(authenticator),
    words: 'machine tokens',
    invalid: () => 'Bearer',
  },
  {
    carries: isApiKeyRequest,
    field: 'apiKey',
    takenBy: (config) => config?.acceptsApiKey === true,
    verifier: (authenticator) => authenticator.authenticateApiKey?.bind(authenticator),
    words: 'API keys',
    invalid: () => 'Bearer',
  },
];

const notAccepted = (kind: { words: string }) =>
  new ApiError('forbidden', `This endpoint does not accept ${kind.words}.`);

/**
 * Authenticates the caller once: the product API runs it as an onRequest hook for every route (before
 * any body is read); a route may name it again, which then finds the caller already known. A bearer of
 * one of BEARER_KINDS is taken only where the route says so; any other is a session token.
 */
export function requireAuth(authenticator: RequestAuthenticator) {
  const challenge = bearerChallenge(authenticator.resourceMetadataUrl);
  return async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.auth || BEARER_KINDS.some((kind) => req[kind.field])) return;
    const kind = BEARER_KINDS.find((k) => k.carries(req));
    if (kind) return takeBearer(kind, authenticator, challenge, req, reply);
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

async function takeBearer<F extends BearerField>(
  kind: BearerKind<F>,
  authenticator: RequestAuthenticator,
  challenge: Challenge,
  req: FastifyRequest,
  reply: FastifyReply,
) {
  const verify = kind.verifier(authenticator);
  if (!kind.takenBy(req.routeOptions.config) || !verify) return sendApiError(reply, notAccepted(kind));
  const verified = await verify(req);
  if (!verified.ok) return sendRefusal(reply, verified, kind.invalid(challenge));
  const caller: CallerOf<F> = verified[kind.field];
  const refused = kind.refuses?.(caller, req, reply, challenge);
  if (refused) return refused;
  req[kind.field] = caller;
}

/**
 * An OAuth access token taken by a route naming the scopes it needs (`config.oauthScopes`): one without
 * one of them is 403 with RFC 6750's `insufficient_scope` challenge.
 */
function lacksScope(token: OAuthTokenCaller, req: FastifyRequest, reply: FastifyReply, challenge: Challenge) {
  const needed = req.routeOptions.config?.oauthScopes ?? [];
  if (needed.every((scope) => token.scopes.includes(scope))) return null;
  return sendApiError(
    reply.header('www-authenticate', challenge(`error="insufficient_scope", scope="${needed.join(' ')}"`)),
    new ApiError('forbidden', `This endpoint needs the scopes ${needed.join(', ')}.`),
  );
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
  const bearer = BEARER_KINDS.find((kind) => req[kind.field]);
  if (bearer) throw notAccepted(bearer);
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
