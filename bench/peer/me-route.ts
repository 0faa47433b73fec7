import type { IncomingMessage, ServerResponse } from 'node:http';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';

/** The part of better-auth's context (`auth.$context`) the peer reads: its database adapters. */
export interface PeerContext {
  adapter: {
    findOne<T>(query: { model: string; where: { field: string; value: string }[] }): Promise<T | null>;
  };
  internalAdapter: {
    findUserById(userId: string): Promise<{ id: string; name: string; email: string } | null>;
  };
}

/**
 * The peer's GET /api/me, the same work as ours (server/src/api/me.ts):
 * - ours verifies the bearer session token with @clerk/backend against the provider's JWKS, fetched
 *   once and cached in the process; here jose verifies it against the peer's JWKS (GET
 *   /api/auth/jwks), fetched once at start and kept as a local key set: signature, expiry, issuer,
 *   audience;
 * - ours then loads the user (users.getUser through the Backend API); here better-auth's internal
 *   adapter reads the user row (findUserById, the lookup its own endpoints use);
 * - both answer the same JSON: who the token says the caller is, in which organisation, and the user.
 */
export function meRoute(opts: {
  jwks: JSONWebKeySet;
  issuer: string;
  audience: string;
  context: Promise<PeerContext>;
}) {
  const keys = createLocalJWKSet(opts.jwks);
  return async (req: IncomingMessage, res: ServerResponse) => {
    const header = req.headers.authorization;
    if (!header?.startsWith('Bearer ') || header.length <= 7)
      return send(res, 401, { error: 'Missing bearer session token.' });
    let claims: Record<string, unknown>;
    try {
      ({ payload: claims } = await jwtVerify(header.slice(7), keys, {
        issuer: opts.issuer,
        audience: opts.audience,
        clockTolerance: 5,
      }));
    } catch {
      return send(res, 401, { error: 'Invalid or expired session token.' });
    }
    const userId = typeof claims.sub === 'string' ? claims.sub : null;
    if (!userId) return send(res, 401, { error: 'Session is not active.' });
    const user = await (await opts.context).internalAdapter.findUserById(userId);
    if (!user) return send(res, 401, { error: 'Session is not active.' });
    const orgId = typeof claims.org_id === 'string' ? claims.org_id : null;
    const [firstName, ...rest] = user.name.split(' ');
    send(res, 200, {
      userId,
      sessionId: claims.sid ?? null,
      orgId,
      orgSlug: orgId ? (claims.org_slug ?? null) : null,
      orgRole: orgId ? (claims.org_role ?? null) : null,
      orgPermissions: orgId ? (claims.org_permissions ?? []) : [],
      user: {
        id: user.id,
        firstName: firstName || null,
        lastName: rest.join(' ') || null,
        primaryEmailAddress: user.email,
      },
      actor: null,
    });
  };
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}
