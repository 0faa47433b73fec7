import { createClerkClient, type ClerkClient } from '@clerk/backend';
import type { FastifyRequest } from 'fastify';

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
}

export type AuthResult = { ok: true; auth: AuthContext } | { ok: false; reason: string };

/** What the product API needs to know about a request's caller. */
export interface RequestAuthenticator {
  authenticate(req: FastifyRequest): Promise<AuthResult>;
}

/**
 * Verifies the `Authorization: Bearer <session token>` of a product API call with @clerk/backend,
 * exactly as against hosted Clerk (JWKS fetched from the Backend API with the secret key).
 */
export class Authenticator implements RequestAuthenticator {
  readonly clerk: ClerkClient;

  constructor(
    private readonly opts: {
      publishableKey: string;
      secretKey: string;
      apiUrl?: string;
      authorizedParties: string[];
    },
  ) {
    this.clerk = createClerkClient({
      publishableKey: opts.publishableKey,
      secretKey: opts.secretKey,
      apiUrl: opts.apiUrl,
    });
  }

  async authenticate(req: FastifyRequest): Promise<AuthResult> {
    const header = req.headers.authorization;
    if (!header?.startsWith('Bearer ') || header.length <= 7)
      return { ok: false, reason: 'Missing bearer session token.' };
    const request = new Request(`http://internal${req.url}`, { headers: { authorization: header } });
    const state = await this.clerk.authenticateRequest(request, {
      acceptsToken: 'session_token',
      authorizedParties: this.opts.authorizedParties.length ? this.opts.authorizedParties : undefined,
    });
    if (!state.isAuthenticated)
      return { ok: false, reason: state.message || 'Invalid or expired session token.' };
    const auth = state.toAuth();
    if (!auth.userId || !auth.sessionId) return { ok: false, reason: 'Session is not active.' };
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
      },
    };
  }
}
