import type { Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';
import { randomToken, sha256 } from '../crypto/secrets.ts';
import type { ClientRow, SessionRow, SignInRow, SignUpRow } from './rows.ts';
import { rotateClientDomainToken } from './satellite-links.ts';

/** `lock` holds the client row for the transaction, so one browser's writes happen one at a time. */
export async function findClientByToken(
  db: Queryable,
  token: string,
  lock = false,
): Promise<ClientRow | null> {
  const hash = sha256(token);
  const [row] = await db.query<ClientRow>(
    `SELECT id, sign_in_id, sign_up_id, last_active_session_id, created_at, updated_at
     FROM clients WHERE token_hash = $1${lock ? ' FOR UPDATE' : ''}`,
    [hash],
  );
  if (row) return row;
  // A satellite domain's cookie holds a credential of its own for the same client (satellites.md).
  const [viaSatellite] = await db.query<ClientRow>(
    `SELECT c.id, c.sign_in_id, c.sign_up_id, c.last_active_session_id, c.created_at, c.updated_at
     FROM client_domain_tokens t JOIN clients c ON c.id = t.client_id
     WHERE t.token_hash = $1${lock ? ' FOR UPDATE OF c' : ''}`,
    [hash],
  );
  return viaSatellite ?? null;
}

/** Holds the client row for the transaction (GET requests read it without the lock). */
export async function lockClient(db: Queryable, clientId: string): Promise<void> {
  await db.query('SELECT id FROM clients WHERE id = $1 FOR UPDATE', [clientId]);
}

/** Creates a client; only the SHA-256 of its cookie token is stored. */
export async function createClient(db: Queryable, now: Date): Promise<{ client: ClientRow; token: string }> {
  const token = randomToken(32);
  const [client] = await db.query<ClientRow>(
    `INSERT INTO clients (id, token_hash, created_at, updated_at) VALUES ($1, $2, $3, $3)
     RETURNING id, sign_in_id, sign_up_id, last_active_session_id, created_at, updated_at`,
    [newId('client'), sha256(token), now],
  );
  return { client: client!, token };
}

/**
 * Gives the client a new token and returns it; the old one finds nothing from now on. The row, and so the
 * client's id, attempts and sessions, stays: only who can present it changes (session fixation).
 */
export async function rotateClientToken(db: Queryable, clientId: string, presented: string): Promise<string> {
  const token = randomToken(32);
  // A satellite's credential is replaced on its own: the primary domain's cookie keeps working.
  const onSatellite = await rotateClientDomainToken(db, sha256(presented), sha256(token));
  if (onSatellite) return token;
  await db.query('UPDATE clients SET previous_token_hash = token_hash, token_hash = $2 WHERE id = $1', [
    clientId,
    sha256(token),
  ]);
  return token;
}

/** Whether `token` is a client's credential from before its last rotation. */
export async function isReplacedClientToken(db: Queryable, token: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM clients WHERE previous_token_hash = $1 LIMIT 1', [
    sha256(token),
  ]);
  return rows.length > 0;
}

export interface ClientChanges {
  sign_in_id?: string | null;
  sign_up_id?: string | null;
  last_active_session_id?: string | null;
}

/** Applies changes and always bumps updated_at, which drives `__client_uat`. */
export async function updateClient(
  db: Queryable,
  clientId: string,
  changes: ClientChanges,
  now: Date,
): Promise<ClientRow> {
  const keys = Object.keys(changes) as (keyof ClientChanges)[];
  const sets = keys.map((k, i) => `${k} = $${i + 3}`);
  const [row] = await db.query<ClientRow>(
    `UPDATE clients SET ${[...sets, 'updated_at = GREATEST(updated_at, $2)'].join(', ')} WHERE id = $1
     RETURNING id, sign_in_id, sign_up_id, last_active_session_id, created_at, updated_at`,
    [clientId, now, ...keys.map((k) => changes[k])],
  );
  return row!;
}

export async function findClientById(db: Queryable, id: string): Promise<ClientRow | null> {
  const [row] = await db.query<ClientRow>(
    'SELECT id, sign_in_id, sign_up_id, last_active_session_id, created_at, updated_at FROM clients WHERE id = $1',
    [id],
  );
  return row ?? null;
}

/** The client's sign-in in progress, unless abandoned. */
export async function findLiveSignIn(db: Queryable, id: string, now: Date): Promise<SignInRow | null> {
  const [row] = await db.query<SignInRow>('SELECT * FROM sign_ins WHERE id = $1 AND abandon_at > $2', [
    id,
    now,
  ]);
  return row ?? null;
}

/** The client's sign-up in progress, unless abandoned. */
export async function findLiveSignUp(db: Queryable, id: string, now: Date): Promise<SignUpRow | null> {
  const [row] = await db.query<SignUpRow>('SELECT * FROM sign_ups WHERE id = $1 AND abandon_at > $2', [
    id,
    now,
  ]);
  return row ?? null;
}

/**
 * The user of a sign-in or a session of the client whose token hashes to `tokenHash`, read without locks
 * (a session id of null: the client's last active session).
 */
export async function userIdOfClientRow(
  db: Queryable,
  table: 'sign_ins' | 'sessions',
  id: string | null,
  tokenHash: string,
): Promise<string | null> {
  const target = table === 'sessions' ? 'COALESCE($1, c.last_active_session_id)' : '$1';
  const [row] = await db.query<{ user_id: string | null }>(
    `SELECT t.user_id FROM clients c JOIN ${table} t ON t.client_id = c.id AND t.id = ${target}
     WHERE c.token_hash = $2`,
    [id, tokenHash],
  );
  return row?.user_id ?? null;
}

/** A session of the client whose token hashes to `tokenHash` (null id: its last active one), without locks. */
export async function sessionOfClientToken(
  db: Queryable,
  id: string | null,
  tokenHash: string,
): Promise<SessionRow | null> {
  const [row] = await db.query<SessionRow>(
    `SELECT s.* FROM clients c JOIN sessions s ON s.client_id = c.id AND s.id = COALESCE($1, c.last_active_session_id)
     WHERE c.token_hash = $2`,
    [id, tokenHash],
  );
  return row ?? null;
}

/** The client, locked for the request; null when it is gone. */
export async function lockClientById(db: Queryable, id: string): Promise<ClientRow | null> {
  const [row] = await db.query<ClientRow>(
    `SELECT id, sign_in_id, sign_up_id, last_active_session_id, created_at, updated_at
     FROM clients WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return row ?? null;
}
