import { sha256 } from '../crypto/secrets.ts';
import type { Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';

export interface OAuthStateRow {
  id: string;
  client_id: string;
  /** `connect_account`: a signed-in user connecting (or reauthorizing) the external account `attempt_id`. */
  attempt_kind: 'sign_in' | 'sign_up' | 'connect_account';
  attempt_id: string;
  strategy: string;
  code_verifier: string;
  nonce: string;
  redirect_url: string | null;
  action_complete_redirect_url: string | null;
  expire_at: Date;
  consumed_at: Date | null;
  /** The session that asked to connect an account (connect_account only). */
  session_id: string | null;
  /** The scopes asked for (connect_account only): the granted ones when the provider does not say. */
  scopes: string | null;
}

export async function insertOAuthState(
  tx: Queryable,
  input: Omit<OAuthStateRow, 'id' | 'consumed_at' | 'session_id' | 'scopes'> &
    Partial<Pick<OAuthStateRow, 'session_id' | 'scopes'>> & { state: string; now: Date },
): Promise<void> {
  await tx.query(
    `INSERT INTO oauth_states (id, state_hash, client_id, attempt_kind, attempt_id, strategy, code_verifier,
                               nonce, redirect_url, action_complete_redirect_url, expire_at, created_at,
                               session_id, scopes)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [
      newId('oas'),
      sha256(input.state),
      input.client_id,
      input.attempt_kind,
      input.attempt_id,
      input.strategy,
      input.code_verifier,
      input.nonce,
      input.redirect_url,
      input.action_complete_redirect_url,
      input.expire_at,
      input.now,
      input.session_id ?? null,
      input.scopes ?? null,
    ],
  );
}

/**
 * The redirect `state` names, if it was made for the browser whose client token hashes to
 * `clientTokenHash`, is unused and unexpired (read without locks, before the transaction: the code
 * exchange happens with no connection held).
 */
export async function findUsableOAuthState(
  db: Queryable,
  state: string,
  clientTokenHash: string,
  now: Date,
): Promise<OAuthStateRow | null> {
  const [row] = await db.query<OAuthStateRow>(
    `SELECT s.* FROM oauth_states s JOIN clients c ON c.id = s.client_id
      WHERE s.state_hash = $1 AND c.token_hash = $2 AND s.consumed_at IS NULL AND s.expire_at > $3`,
    [sha256(state), clientTokenHash, now],
  );
  return row ?? null;
}

/**
 * Spends the redirect `state` names: answers it only if it was made for `clientId`, unused and unexpired.
 * Whatever the answer, a state presented here is never usable again (a replay, or a state shown to the
 * wrong browser, burns it).
 */
export async function consumeOAuthState(
  tx: Queryable,
  state: string,
  clientId: string | null,
  now: Date,
): Promise<OAuthStateRow | null> {
  const [row] = await tx.query<OAuthStateRow>(
    `UPDATE oauth_states SET consumed_at = $2
      WHERE state_hash = $1 AND consumed_at IS NULL
      RETURNING *`,
    [sha256(state), now],
  );
  if (!row || row.client_id !== clientId || row.expire_at <= now) return null;
  return row;
}
