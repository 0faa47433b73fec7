import type { Queryable } from '../db/database.ts';
import type { ActorTokenRow } from './rows.ts';

/** Every column but the token's hash, which never leaves the database. */
const COLUMNS = `id, user_id, actor, status, expires_at, session_max_duration_seconds, session_id, created_at,
  updated_at`;

export async function insertActorToken(
  tx: Queryable,
  input: {
    id: string;
    userId: string;
    actorJson: string;
    tokenHash: string;
    expiresAt: Date;
    sessionMaxDurationSeconds: number;
    now: Date;
  },
): Promise<ActorTokenRow> {
  const [row] = await tx.query<ActorTokenRow>(
    `INSERT INTO actor_tokens (id, user_id, actor, status, token_hash, expires_at, session_max_duration_seconds,
       created_at, updated_at)
     VALUES ($1, $2, $3::jsonb, 'pending', $4, $5, $6, $7, $7) RETURNING ${COLUMNS}`,
    [
      input.id,
      input.userId,
      input.actorJson,
      input.tokenHash,
      input.expiresAt,
      input.sessionMaxDurationSeconds,
      input.now,
    ],
  );
  return row!;
}

export async function lockActorToken(tx: Queryable, id: string): Promise<ActorTokenRow | null> {
  const [row] = await tx.query<ActorTokenRow>(
    `SELECT ${COLUMNS} FROM actor_tokens WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return row ?? null;
}

export async function markActorTokenRevoked(tx: Queryable, id: string, now: Date): Promise<ActorTokenRow> {
  const [row] = await tx.query<ActorTokenRow>(
    `UPDATE actor_tokens SET status = 'revoked', updated_at = $2 WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, now],
  );
  return row!;
}

/** `lock` holds the row for this transaction. */
export async function findActorTokenByHash(
  tx: Queryable,
  tokenHash: string,
  opts: { lock?: boolean } = {},
): Promise<ActorTokenRow | null> {
  const [row] = await tx.query<ActorTokenRow>(
    `SELECT ${COLUMNS} FROM actor_tokens WHERE token_hash = $1${opts.lock ? ' FOR UPDATE' : ''}`,
    [tokenHash],
  );
  return row ?? null;
}

/** Null when the token was no longer pending: then nothing changed. */
export async function markActorTokenAccepted(
  tx: Queryable,
  id: string,
  sessionId: string,
  now: Date,
): Promise<ActorTokenRow | null> {
  const [row] = await tx.query<ActorTokenRow>(
    `UPDATE actor_tokens SET status = 'accepted', session_id = $2, updated_at = $3
     WHERE id = $1 AND status = 'pending' RETURNING ${COLUMNS}`,
    [id, sessionId, now],
  );
  return row ?? null;
}
