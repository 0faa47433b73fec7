import { randomToken, sha256 } from '../crypto/secrets.ts';
import type { Queryable } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import { errors } from '../errors.ts';
import { newId } from '../ids.ts';
import { ticketUrl } from '../tickets/ticket-url.ts';
import {
  findActorTokenByHash,
  insertActorToken,
  lockActorToken,
  markActorTokenAccepted,
  markActorTokenRevoked,
} from '../store/actor-tokens.ts';
import type { ActorTokenRow } from '../store/rows.ts';
import { findUserById } from '../store/users.ts';

/**
 * Actor tokens, as Clerk's Backend API has them: a one-time ticket that signs a browser in as `user_id`
 * with `actor` (who is really acting) recorded on the session and in its tokens' `act` claim. Redeemed by
 * the Frontend API's `ticket` sign-in strategy. Only the token's SHA-256 is stored.
 */

/** Clerk's defaults: the link works for an hour, the session it opens lasts 30 minutes. */
export const ACTOR_TOKEN_TTL_SECONDS = 3600;
export const ACTOR_SESSION_MAX_DURATION_SECONDS = 1800;
/** Like a sign-in token's default lifetime; an impersonation link should not live longer than that. */
export const MAX_ACTOR_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
/** Tokens are 43 base64url characters; anything far longer is not one of ours. */
const MAX_TOKEN_LENGTH = 200;
/** The actor travels in every session token (`act`), refreshed about once a minute: keep it small. */
const MAX_ACTOR_JSON_LENGTH = 4096;

export interface ActorTokenRequest {
  userId: string | undefined;
  actor: Record<string, unknown> | undefined;
  expiresInSeconds?: number;
  sessionMaxDurationInSeconds?: number;
}

export interface IssuedActorToken {
  actorToken: ActorTokenRow;
  /** The token and its sign-in link exist only here, in the answer to the call that created them. */
  token: string;
  url: string;
}

function wholeSeconds(name: string, value: number | undefined, fallback: number, max: number): number {
  const seconds = value ?? fallback;
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > max) {
    throw errors.paramValueInvalid(name, `${name} must be a whole number of seconds from 1 to ${max}.`);
  }
  return seconds;
}

export async function createActorToken(
  tx: Queryable,
  deps: Pick<IdentityDeps, 'config' | 'fapiBase'>,
  request: ActorTokenRequest,
  now: Date,
): Promise<IssuedActorToken> {
  if (!request.userId) throw errors.paramMissing('user_id');
  if (!request.actor) throw errors.paramMissing('actor');
  const sub = request.actor.sub;
  if (typeof sub !== 'string' || !sub.trim()) {
    throw errors.paramValueInvalid('actor', 'actor must include a "sub" with the ID of the acting user.');
  }
  const actorJson = JSON.stringify(request.actor);
  if (actorJson.length > MAX_ACTOR_JSON_LENGTH) {
    throw errors.paramValueInvalid(
      'actor',
      `actor must not exceed ${MAX_ACTOR_JSON_LENGTH} characters as JSON.`,
    );
  }
  const expiresIn = wholeSeconds(
    'expires_in_seconds',
    request.expiresInSeconds,
    ACTOR_TOKEN_TTL_SECONDS,
    MAX_ACTOR_TOKEN_TTL_SECONDS,
  );
  // Never longer than an ordinary session of this instance.
  const sessionMax = wholeSeconds(
    'session_max_duration_in_seconds',
    request.sessionMaxDurationInSeconds,
    Math.min(ACTOR_SESSION_MAX_DURATION_SECONDS, deps.config.sessionLifetimeSeconds),
    deps.config.sessionLifetimeSeconds,
  );
  if (!(await findUserById(tx, request.userId))) throw errors.notFound('user');

  const token = randomToken(32);
  const actorToken = await insertActorToken(tx, {
    id: newId('act'),
    userId: request.userId,
    actorJson,
    tokenHash: sha256(token),
    expiresAt: new Date(now.getTime() + expiresIn * 1000),
    sessionMaxDurationSeconds: sessionMax,
    now,
  });
  // The same Frontend API ticket link as Clerk's (and as our invitations'): it lands on the sign-in page.
  return { actorToken, token, url: ticketUrl(deps, token) };
}

export function isExpired(row: ActorTokenRow, now: Date): boolean {
  return row.expires_at.getTime() <= now.getTime();
}

export async function revokeActorToken(tx: Queryable, id: string, now: Date): Promise<ActorTokenRow> {
  const row = await lockActorToken(tx, id);
  if (!row) throw errors.notFound('actor token');
  if (row.status !== 'pending') throw errors.actorTokenNotPending(row.status);
  return markActorTokenRevoked(tx, id, now);
}

/** The actor token a ticket belongs to (any status), or null; `lock` holds it for this transaction. */
export async function actorTokenByTicket(
  tx: Queryable,
  ticket: string,
  opts: { lock?: boolean } = {},
): Promise<ActorTokenRow | null> {
  if (!ticket || ticket.length > MAX_TOKEN_LENGTH) return null;
  return findActorTokenByHash(tx, sha256(ticket), opts);
}

/** Clerk's ticket errors for a token that can no longer open a session. */
export function assertRedeemable(row: ActorTokenRow, now: Date): void {
  if (row.status !== 'pending') throw errors.actorTokenInvalid();
  if (isExpired(row, now)) throw errors.actorTokenExpired();
}

/**
 * Marks the token used by `sessionId`. Conditional on the token still being pending, so that even without
 * the row lock two redemptions cannot both succeed: the second one changes nothing and is refused.
 */
export async function acceptActorToken(
  tx: Queryable,
  id: string,
  sessionId: string,
  now: Date,
): Promise<ActorTokenRow> {
  const row = await markActorTokenAccepted(tx, id, sessionId, now);
  if (!row) throw errors.actorTokenInvalid();
  return row;
}
