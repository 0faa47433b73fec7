import { randomToken, sha256 } from '../crypto/secrets.ts';
import type { Queryable } from '../db/database.ts';
import type { IdentityDeps } from '../deps.ts';
import { errors } from '../errors.ts';
import { newId } from '../ids.ts';
import type { SignInTokenRow } from '../store/rows.ts';
import {
  findSignInTokenByHash,
  insertSignInToken,
  lockSignInToken,
  markSignInToken,
} from '../store/sign-in-tokens.ts';
import { findUserById } from '../store/users.ts';
import { ticketUrl } from './ticket-url.ts';

/**
 * Sign-in tokens, as Clerk's Backend API has them: a one-time ticket, made by the operator, that signs
 * `user_id` in through the Frontend API's `ticket` strategy (a first factor only: a user with a second
 * factor is still asked for it). Only the token's SHA-256 is stored.
 */

/** Clerk's default and largest lifetime: 30 days. */
export const SIGN_IN_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
/** Tokens are 43 base64url characters; anything far longer is not one of ours. */
const MAX_TOKEN_LENGTH = 200;

export interface IssuedSignInToken {
  signInToken: SignInTokenRow;
  /** The token and its link exist only here, in the answer to the call that created them. */
  token: string;
  url: string;
}

export async function createSignInToken(
  tx: Queryable,
  deps: Pick<IdentityDeps, 'fapiBase'>,
  request: { userId: string | undefined; expiresInSeconds: number | undefined },
  now: Date,
): Promise<IssuedSignInToken> {
  if (!request.userId) throw errors.paramMissing('user_id');
  const seconds = request.expiresInSeconds ?? SIGN_IN_TOKEN_TTL_SECONDS;
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > SIGN_IN_TOKEN_TTL_SECONDS) {
    throw errors.paramValueInvalid(
      'expires_in_seconds',
      `expires_in_seconds must be a whole number of seconds from 1 to ${SIGN_IN_TOKEN_TTL_SECONDS}.`,
    );
  }
  if (!(await findUserById(tx, request.userId))) throw errors.notFound('user');
  const token = randomToken(32);
  const signInToken = await insertSignInToken(tx, {
    id: newId('sit'),
    userId: request.userId,
    tokenHash: sha256(token),
    expiresAt: new Date(now.getTime() + seconds * 1000),
    now,
  });
  return { signInToken, token, url: ticketUrl(deps, token) };
}

export async function revokeSignInToken(tx: Queryable, id: string, now: Date): Promise<SignInTokenRow> {
  const row = await lockSignInToken(tx, id);
  if (!row) throw errors.notFound('sign in token');
  if (row.status !== 'pending') throw errors.signInTokenNotPending(row.status);
  return (await markSignInToken(tx, id, 'revoked', now))!;
}

/** The sign-in token a ticket belongs to (any status), or null; `lock` holds it for this transaction. */
export async function signInTokenByTicket(
  tx: Queryable,
  ticket: string,
  opts: { lock?: boolean } = {},
): Promise<SignInTokenRow | null> {
  if (!ticket || ticket.length > MAX_TOKEN_LENGTH) return null;
  return findSignInTokenByHash(tx, sha256(ticket), opts);
}

export function isUsable(row: SignInTokenRow, now: Date): boolean {
  return row.status === 'pending' && row.expires_at.getTime() > now.getTime();
}

/**
 * Spends the token (Clerk's ticket errors when it can no longer be). Conditional on it still being
 * pending, so that even without the row lock two redemptions cannot both succeed.
 */
export async function spendSignInToken(tx: Queryable, row: SignInTokenRow, now: Date): Promise<void> {
  if (row.status !== 'pending') throw errors.signInTokenInvalid();
  if (row.expires_at.getTime() <= now.getTime()) throw errors.signInTokenExpired();
  if (!(await markSignInToken(tx, row.id, 'accepted', now))) throw errors.signInTokenInvalid();
}
