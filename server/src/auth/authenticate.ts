import { createClerkClient, type ClerkClient } from '@clerk/backend';
import { verifyJwt } from '@clerk/backend/jwt';
import { __experimental_JWTPayloadToAuthObjectProperties as authPropertiesOf } from '@clerk/shared/jwtPayloadParser';
import type { FastifyRequest } from 'fastify';
import {
  JwksKeys,
  PemKey,
  type JwksTiming,
  type SessionTokenKeys,
  type VerificationKey,
} from './session-token-keys.ts';
import { VerifiedTokens } from './verified-tokens.ts';

/** A verified token's claims, as @clerk/backend returns them. */
type JwtPayload = Awaited<ReturnType<typeof verifyJwt>>;

export interface AuthContext {
  userId: string;
  sessionId: string;
  /** The session's active organisation, from the verified token; null without one. */
  orgId: string | null;
  orgSlug: string | null;
  /** The caller's role in the active organisation (`org:admin`, `org:member`, `org:vciso`). */
  orgRole: string | null;
  /** Permissions of that role (`org:<feature>:<permission>`); empty without an active organisation. */
  orgPermissions: string[];
  /**
   * Impersonation: the `act.sub` of the verified token, the one really acting as `userId`. Null (or
   * absent) when the user acts for themselves.
   */
  actorId?: string | null;
  /**
   * The user's name and primary address from the token's custom claims (`first_name`, `last_name`,
   * `email`: the instance's session-token template); null when the token does not carry all three.
   */
  profile?: SessionProfile | null;
  /**
   * The token's `fva`: minutes since the session last proved its first and second factor (-1: never,
   * or no such factor); null when the token has none. Read for re-verification (console/reverification.ts).
   */
  factorVerificationAge?: readonly [number, number] | null;
}

/** What the session-token template puts in every token about its user. */
export interface SessionProfile {
  firstName: string | null;
  lastName: string | null;
  primaryEmailAddress: string | null;
}

export type AuthResult = { ok: true; auth: AuthContext } | { ok: false; reason: string };

/**
 * A caller authenticated by an API key (`Authorization: Bearer ak_…`, docs/api-keys.md): no session and
 * no role, only the key's subject (an organisation's key acts for that organisation, a user's for that
 * user) and the scopes it was given.
 */
export interface ApiKeyCaller {
  keyId: string;
  name: string;
  /** `org_…` or `user_…`. */
  subject: string;
  orgId: string | null;
  userId: string | null;
  scopes: readonly string[];
}

/**
 * Why a key was not taken: `invalid`, no key at all (unknown, revoked, expired, or not even shaped like
 * one), counted against the address (api-key-failures.ts); `unavailable`, the Backend API could not say;
 * `limited`, the address failed too often lately and the key was not looked at.
 */
export type ApiKeyRefusal =
  | { ok: false; refusal: 'invalid' | 'unavailable'; reason: string }
  | { ok: false; refusal: 'limited'; reason: string; retryAfterSeconds: number };

export type ApiKeyResult = { ok: true; apiKey: ApiKeyCaller } | ApiKeyRefusal;

/**
 * A caller authenticated by an OAuth access token (`Authorization: Bearer oat_…`, docs/oauth-provider.md):
 * an application acting for the user who allowed it, within the token's scopes; no session, no organisation.
 */
export interface OAuthTokenCaller {
  userId: string;
  clientId: string;
  scopes: readonly string[];
}

/** Why a token was not taken, as ApiKeyRefusal says of keys (`limited`: oauth token failures, bearer-failures). */
export type OAuthTokenResult = { ok: true; oauthToken: OAuthTokenCaller } | ApiKeyRefusal;

/**
 * A machine calling with an M2M token (`Authorization: Bearer mt_…`, docs/api-keys.md): a machine the
 * product API's own machine is scoped to, with no user, no session and no organisation.
 */
export interface M2mTokenCaller {
  tokenId: string;
  /** The calling machine (`mch_…`). */
  machineId: string;
  /** The token's custom claims, as the calling machine set them: information, never authority. */
  claims: Readonly<Record<string, unknown>> | null;
}

export type M2mTokenResult = { ok: true; m2mToken: M2mTokenCaller } | ApiKeyRefusal;

/** What the product API needs to know about a request's caller. */
export interface RequestAuthenticator {
  authenticate(req: FastifyRequest): Promise<AuthResult>;
  /** Verifies an API key through the Backend API; without it API keys are refused everywhere. */
  authenticateApiKey?(req: FastifyRequest): Promise<ApiKeyResult>;
  /** Verifies an OAuth access token through the Backend API; without it such tokens are refused everywhere. */
  authenticateOAuthToken?(req: FastifyRequest): Promise<OAuthTokenResult>;
  /**
   * Verifies an M2M token through the Backend API with the product's machine key; without it (no
   * `CLERK_MACHINE_SECRET_KEY`) M2M tokens are refused everywhere.
   */
  authenticateM2mToken?(req: FastifyRequest): Promise<M2mTokenResult>;
  /** The product API's RFC 9728 metadata URL, named in its Bearer challenges (protected-resource.ts). */
  readonly resourceMetadataUrl?: string;
}

/** @clerk/backend's prefix of OAuth access tokens (tokens/machine.ts): the token is no session token. */
export function isOAuthTokenRequest(req: FastifyRequest): boolean {
  return req.headers.authorization?.startsWith('Bearer oat_') === true;
}

/** An OAuth access token as this product's provider (and hosted Clerk) make them: `oat_` and a token. */
const OAUTH_TOKEN_SHAPE = /^oat_[0-9A-Za-z_-]{16,256}$/;
const INVALID_OAUTH_TOKEN = 'Invalid, revoked or expired access token.';

/** @clerk/backend's prefix of M2M tokens (tokens/machine.ts): the token is no session token. */
export function isM2mTokenRequest(req: FastifyRequest): boolean {
  return req.headers.authorization?.startsWith('Bearer mt_') === true;
}

/** An M2M token as the embedded provider (and hosted Clerk, of which only the prefix is documented) make them. */
const M2M_TOKEN_SHAPE = /^mt_[0-9A-Za-z_-]{16,256}$/;
const INVALID_M2M_TOKEN = 'Invalid, revoked or expired machine token.';

/** @clerk/backend's prefix of API-key secrets (tokens/machine.ts): the token is no session token. */
export function isApiKeyRequest(req: FastifyRequest): boolean {
  return req.headers.authorization?.startsWith('Bearer ak_') === true;
}

export interface AuthenticatorOptions {
  publishableKey: string;
  secretKey: string;
  apiUrl?: string;
  /** The instance's PEM public key (hosted Clerk's `CLERK_JWT_KEY`): the JWKS is then never fetched. */
  jwtKey?: string | null;
  /** The origins a token's `azp` may name; empty: any. */
  authorizedParties: string[];
  jwksTiming?: JwksTiming;
  /** Where the keys come from, instead of `jwtKey` or the JWKS (tests). */
  keys?: SessionTokenKeys;
  /**
   * What an API key's secret looks like (the embedded provider's exact shape): a bearer `ak_…` of any other
   * prefix, length or alphabet is refused without asking the Backend API. Default: hosted Clerk's, of which
   * only the prefix is documented, so a broad shape.
   */
  apiKeyShape?: RegExp;
  /**
   * The product API's own machine's secret key: M2M tokens are verified with it, so only the tokens of
   * machines scoped to it are valid here. Null: M2M tokens are refused.
   */
  machineSecretKey?: string | null;
}

/** Hosted Clerk's API keys: `ak_` (@clerk/backend's prefix), then a token of a sane length. */
export const HOSTED_API_KEY_SHAPE = /^ak_[0-9A-Za-z_-]{16,256}$/;

const INVALID_KEY = 'Invalid, revoked or expired API key.';

type Authenticated = Extract<AuthResult, { ok: true }>;

/**
 * Verifies the `Authorization: Bearer <session token>` of a product API call with @clerk/backend, the same
 * way against hosted Clerk and the embedded provider, with no network call on the way: the instance's
 * keys are held (`jwtKey`, or the JWKS fetched with the secret key and kept, see session-token-keys.ts)
 * and @clerk/backend's `verifyJwt` checks the token against them: RS256 signature, `exp`/`nbf`/`iat`
 * with its 5 s clock skew, `azp` among the authorized parties, `sub`.
 *
 * This is what `authenticateRequest` does for a token in the Authorization header, without the rest of
 * it: a Request built per call, its cookies and handshake parameters parsed (a header token is never
 * refreshed nor handshaken: only cookie sessions on document requests are), and `toAuth()`, which builds
 * a Backend API client per request. A pending session (`sts`) is refused, as `toAuth()` treats it.
 */
export class Authenticator implements RequestAuthenticator {
  readonly clerk: ClerkClient;
  private readonly keys: SessionTokenKeys;
  private readonly authorizedParties: string[] | undefined;
  private readonly verified = new VerifiedTokens<Authenticated>();
  private readonly apiKeyShape: RegExp;
  private readonly machineSecretKey: string | null;

  constructor(opts: AuthenticatorOptions) {
    this.clerk = createClerkClient({
      publishableKey: opts.publishableKey,
      secretKey: opts.secretKey,
      apiUrl: opts.apiUrl,
    });
    this.keys =
      opts.keys ??
      (opts.jwtKey
        ? new PemKey(opts.jwtKey)
        : new JwksKeys(() => this.clerk.jwks.getJwks(), opts.jwksTiming));
    this.authorizedParties = opts.authorizedParties.length ? opts.authorizedParties : undefined;
    this.apiKeyShape = opts.apiKeyShape ?? HOSTED_API_KEY_SHAPE;
    this.machineSecretKey = opts.machineSecretKey ?? null;
  }

  async authenticate(req: FastifyRequest): Promise<AuthResult> {
    const header = req.headers.authorization;
    if (!header?.startsWith('Bearer ') || header.length <= 7)
      return { ok: false, reason: 'Missing bearer session token.' };
    const token = header.slice(7);
    const known = this.verified.get(token, Date.now());
    if (known) {
      // Still the instance's key for that kid (a key dropped since is refused, as the first time would).
      if ((await this.keys.keyFor(known.kid).catch(() => null)) === known.key) return known.value;
      this.verified.forget(token);
    }
    let verified: { claims: JwtPayload; key: VerificationKey; kid: string | undefined };
    try {
      verified = await this.verify(token);
    } catch (err) {
      return { ok: false, reason: (err as Error)?.message || 'Invalid or expired session token.' };
    }
    const result = this.authenticated(verified.claims);
    if (result.ok && typeof verified.claims.exp === 'number') {
      // Shared by every request with this token: nothing may change it.
      Object.freeze(result.auth.orgPermissions);
      if (result.auth.profile) Object.freeze(result.auth.profile);
      Object.freeze(result.auth);
      this.verified.set(token, {
        value: Object.freeze(result),
        key: verified.key,
        kid: verified.kid,
        expiresAt: verified.claims.exp * 1000,
      });
    }
    return result;
  }

  /**
   * An API key, verified by @clerk/backend's `authenticateRequest({acceptsToken: 'api_key'})`: it asks
   * the Backend API (`POST /api_keys/verify`) on every call, nothing is kept, so a key revoked or expired
   * a moment ago is refused at once. Only the Authorization header goes into the request it checks, and
   * only when its token has the shape of a key: anything else is refused here.
   */
  async authenticateApiKey(req: FastifyRequest): Promise<ApiKeyResult> {
    const authorization = req.headers.authorization ?? '';
    if (!this.apiKeyShape.test(authorization.slice('Bearer '.length))) {
      return { ok: false, refusal: 'invalid', reason: INVALID_KEY };
    }
    let state;
    try {
      state = await this.clerk.authenticateRequest(
        new Request('http://product.invalid/api', { headers: { authorization } }),
        { acceptsToken: 'api_key' },
      );
    } catch {
      return { ok: false, refusal: 'unavailable', reason: 'The API key could not be verified.' };
    }
    if (!state.isAuthenticated) {
      // The Backend API's 404 (no such key now) is `token-invalid`; anything else is no answer about the key.
      return state.reason === 'token-invalid'
        ? { ok: false, refusal: 'invalid', reason: INVALID_KEY }
        : { ok: false, refusal: 'unavailable', reason: 'The API key could not be verified.' };
    }
    const auth = state.toAuth();
    if (auth.tokenType !== 'api_key' || !auth.isAuthenticated) {
      return { ok: false, refusal: 'invalid', reason: INVALID_KEY };
    }
    return {
      ok: true,
      apiKey: Object.freeze({
        keyId: auth.id,
        name: auth.name,
        subject: auth.subject,
        orgId: auth.orgId ?? null,
        userId: auth.userId ?? null,
        scopes: Object.freeze([...(auth.scopes ?? [])]),
      }),
    };
  }

  /**
   * An OAuth access token, verified by @clerk/backend's `authenticateRequest({acceptsToken: 'oauth_token'})`,
   * which asks the Backend API (`POST /oauth_applications/access_tokens/verify`) on every call: a token
   * revoked, or whose consent was withdrawn, a moment ago is refused at once.
   */
  async authenticateOAuthToken(req: FastifyRequest): Promise<OAuthTokenResult> {
    const authorization = req.headers.authorization ?? '';
    if (!OAUTH_TOKEN_SHAPE.test(authorization.slice('Bearer '.length))) {
      return { ok: false, refusal: 'invalid', reason: INVALID_OAUTH_TOKEN };
    }
    let state;
    try {
      state = await this.clerk.authenticateRequest(
        new Request('http://product.invalid/api', { headers: { authorization } }),
        { acceptsToken: 'oauth_token' },
      );
    } catch {
      return { ok: false, refusal: 'unavailable', reason: 'The access token could not be verified.' };
    }
    if (!state.isAuthenticated) {
      return state.reason === 'token-invalid'
        ? { ok: false, refusal: 'invalid', reason: INVALID_OAUTH_TOKEN }
        : { ok: false, refusal: 'unavailable', reason: 'The access token could not be verified.' };
    }
    const auth = state.toAuth();
    if (auth.tokenType !== 'oauth_token' || !auth.isAuthenticated || !auth.userId || !auth.clientId) {
      return { ok: false, refusal: 'invalid', reason: INVALID_OAUTH_TOKEN };
    }
    return {
      ok: true,
      oauthToken: Object.freeze({
        userId: auth.userId,
        clientId: auth.clientId,
        scopes: Object.freeze([...(auth.scopes ?? [])]),
      }),
    };
  }

  /**
   * An M2M token, verified by @clerk/backend's `authenticateRequest({acceptsToken: 'm2m_token'})` with the
   * product's machine key, which asks the Backend API (`POST /m2m_tokens/verify`) on every call: valid
   * only while the token's machine is scoped to the product's machine, and refused at once once revoked.
   */
  async authenticateM2mToken(req: FastifyRequest): Promise<M2mTokenResult> {
    const authorization = req.headers.authorization ?? '';
    if (!this.machineSecretKey || !M2M_TOKEN_SHAPE.test(authorization.slice('Bearer '.length))) {
      return { ok: false, refusal: 'invalid', reason: INVALID_M2M_TOKEN };
    }
    let state;
    try {
      state = await this.clerk.authenticateRequest(
        new Request('http://product.invalid/api', { headers: { authorization } }),
        { acceptsToken: 'm2m_token', machineSecretKey: this.machineSecretKey },
      );
    } catch {
      return { ok: false, refusal: 'unavailable', reason: 'The machine token could not be verified.' };
    }
    if (!state.isAuthenticated) {
      return state.reason === 'token-invalid'
        ? { ok: false, refusal: 'invalid', reason: INVALID_M2M_TOKEN }
        : { ok: false, refusal: 'unavailable', reason: 'The machine token could not be verified.' };
    }
    const auth = state.toAuth();
    if (auth.tokenType !== 'm2m_token' || !auth.isAuthenticated || !auth.machineId) {
      return { ok: false, refusal: 'invalid', reason: INVALID_M2M_TOKEN };
    }
    const claims = auth.claims && typeof auth.claims === 'object' ? { ...auth.claims } : null;
    return {
      ok: true,
      m2mToken: Object.freeze({
        tokenId: auth.id,
        machineId: auth.machineId,
        claims: claims && Object.freeze(claims),
      }),
    };
  }

  private authenticated(claims: JwtPayload): AuthResult {
    const auth = authPropertiesOf(claims);
    if (!auth.userId || !auth.sessionId || auth.sessionStatus === 'pending')
      return { ok: false, reason: 'Session is not active.' };
    // The organisation claims are only ever read from the verified token: never from the request.
    return {
      ok: true,
      auth: {
        userId: auth.userId,
        sessionId: auth.sessionId,
        orgId: auth.orgId ?? null,
        orgSlug: auth.orgId ? (auth.orgSlug ?? null) : null,
        orgRole: auth.orgId ? (auth.orgRole ?? null) : null,
        orgPermissions: auth.orgId ? (auth.orgPermissions ?? []) : [],
        actorId: typeof auth.actor?.sub === 'string' ? auth.actor.sub : null,
        profile: profileOf(claims),
        factorVerificationAge: auth.factorVerificationAge
          ? Object.freeze([auth.factorVerificationAge[0], auth.factorVerificationAge[1]] as const)
          : null,
      },
    };
  }

  private async verify(
    token: string,
  ): Promise<{ claims: JwtPayload; key: VerificationKey; kid: string | undefined }> {
    const kid = kidOf(token);
    const key = await this.keys.keyFor(kid);
    if (!key) {
      // @clerk/backend's words for the same refusal (JWKKidMismatch).
      throw new Error(
        `Unable to find a signing key in JWKS that matches the kid='${kid}' of the provided session token.`,
      );
    }
    return { claims: await verifyJwt(token, { key, authorizedParties: this.authorizedParties }), key, kid };
  }
}

/** The `kid` of the token's header; a token that is not three base64url JSON parts is refused here. */
function kidOf(token: string): string | undefined {
  const parts = token.split('.');
  let header: unknown;
  try {
    header = parts.length === 3 ? JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) : null;
  } catch {
    header = null;
  }
  if (!header || typeof header !== 'object')
    throw new Error('Invalid JWT form. A JWT consists of three parts separated by dots.');
  const { kid } = header as { kid?: unknown };
  return typeof kid === 'string' ? kid : undefined;
}

const nameOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';

/**
 * `email`, `first_name` and `last_name` as the session-token template puts them (a user without one
 * gets null). All three or none: a token without them (hosted Clerk without the template) makes the
 * product ask the Backend API instead.
 */
function profileOf(claims: JwtPayload): SessionProfile | null {
  const { email, first_name: firstName, last_name: lastName } = claims as Record<string, unknown>;
  if (!nameOrNull(email) || !nameOrNull(firstName) || !nameOrNull(lastName)) return null;
  return { firstName: firstName || null, lastName: lastName || null, primaryEmailAddress: email || null };
}
