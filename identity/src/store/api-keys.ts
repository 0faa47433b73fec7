import type { Queryable } from '../db/database.ts';

/** A row of `api_keys` (migration 025). Exactly one of `user_id` and `organization_id` is set. */
export interface ApiKeyRow {
  id: string;
  user_id: string | null;
  organization_id: string | null;
  type: string;
  name: string;
  description: string | null;
  scopes: string[];
  claims: Record<string, unknown> | null;
  secret_hash: string;
  secret_sealed: string;
  created_by: string | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  revocation_reason: string | null;
  last_used_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** Who a key belongs to: a user of this instance, or an organisation. */
export type ApiKeyOwner = { kind: 'user'; id: string } | { kind: 'organization'; id: string };

const ownerColumn = (owner: ApiKeyOwner) => (owner.kind === 'user' ? 'user_id' : 'organization_id');

/**
 * Locks the owner's row for the rest of the transaction, so two creations cannot both pass the name and
 * count checks; false when the owner does not exist.
 */
export async function lockApiKeyOwner(tx: Queryable, owner: ApiKeyOwner): Promise<boolean> {
  const table = owner.kind === 'user' ? 'users' : 'organizations';
  const rows = await tx.query(`SELECT 1 FROM ${table} WHERE id = $1 FOR UPDATE`, [owner.id]);
  return rows.length > 0;
}

/** The owner's keys that are not revoked (expired ones included), oldest first, at most `limit`. */
export async function liveApiKeysOf(tx: Queryable, owner: ApiKeyOwner, limit: number): Promise<ApiKeyRow[]> {
  return tx.query<ApiKeyRow>(
    `SELECT * FROM api_keys WHERE ${ownerColumn(owner)} = $1 AND revoked_at IS NULL
     ORDER BY created_at DESC, id DESC LIMIT $2`,
    [owner.id, limit],
  );
}

/**
 * The owner's keys, newest first, a page of them and how many there are: those neither revoked nor expired
 * at `now`, or every one with `includeInvalid` (the Backend API's list).
 */
export async function apiKeyPageOf(
  db: Queryable,
  owner: ApiKeyOwner,
  options: { includeInvalid: boolean; now: Date; limit: number; offset: number },
): Promise<{ rows: ApiKeyRow[]; total: number }> {
  const valid = options.includeInvalid
    ? ''
    : ' AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)';
  const where = `${ownerColumn(owner)} = $1${valid}`;
  const params = options.includeInvalid ? [owner.id] : [owner.id, options.now];
  const n = params.length;
  const rows = await db.query<ApiKeyRow>(
    `SELECT * FROM api_keys WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...params, options.limit, options.offset],
  );
  const [count] = await db.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM api_keys WHERE ${where}`,
    params,
  );
  return { rows, total: count!.total };
}

/** How many keys the owner holds that are not revoked, and whether one of them is named `name`. */
export async function liveApiKeyCount(
  tx: Queryable,
  owner: ApiKeyOwner,
  name: string,
): Promise<{ count: number; nameTaken: boolean }> {
  const [row] = await tx.query<{ count: number; name_taken: boolean }>(
    `SELECT count(*)::int AS count, coalesce(bool_or(name = $2), false) AS name_taken
     FROM api_keys WHERE ${ownerColumn(owner)} = $1 AND revoked_at IS NULL`,
    [owner.id, name],
  );
  return { count: row!.count, nameTaken: row!.name_taken };
}

export interface NewApiKey {
  id: string;
  owner: ApiKeyOwner;
  name: string;
  description: string | null;
  scopes: string[];
  claims: Record<string, unknown> | null;
  secretHash: string;
  secretSealed: string;
  createdBy: string | null;
  expiresAt: Date | null;
  now: Date;
}

export async function insertApiKey(tx: Queryable, key: NewApiKey): Promise<ApiKeyRow> {
  const [row] = await tx.query<ApiKeyRow>(
    `INSERT INTO api_keys (id, user_id, organization_id, name, description, scopes, claims, secret_hash,
       secret_sealed, created_by, expires_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) RETURNING *`,
    [
      key.id,
      key.owner.kind === 'user' ? key.owner.id : null,
      key.owner.kind === 'organization' ? key.owner.id : null,
      key.name,
      key.description,
      JSON.stringify(key.scopes),
      key.claims === null ? null : JSON.stringify(key.claims),
      key.secretHash,
      key.secretSealed,
      key.createdBy,
      key.expiresAt,
      key.now,
    ],
  );
  return row!;
}

/** One key by id (`lock`: for the rest of the transaction), whoever owns it. */
export async function findApiKey(tx: Queryable, id: string, lock = false): Promise<ApiKeyRow | null> {
  const [row] = await tx.query<ApiKeyRow>(
    `SELECT * FROM api_keys WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return row ?? null;
}

/** The key whose secret has this keyed hash. */
export async function findApiKeyBySecretHash(db: Queryable, hash: string): Promise<ApiKeyRow | null> {
  const [row] = await db.query<ApiKeyRow>('SELECT * FROM api_keys WHERE secret_hash = $1', [hash]);
  return row ?? null;
}

export async function revokeApiKeyRow(
  tx: Queryable,
  id: string,
  reason: string | null,
  now: Date,
): Promise<ApiKeyRow> {
  const [row] = await tx.query<ApiKeyRow>(
    `UPDATE api_keys SET revoked_at = $2, revocation_reason = $3, updated_at = $2 WHERE id = $1 RETURNING *`,
    [id, now, reason],
  );
  return row!;
}

/**
 * Records a use; the caller writes at most once per interval (the row it read says when it last did),
 * and the condition keeps two concurrent verifications from both writing.
 */
export async function touchApiKey(db: Queryable, id: string, now: Date, notSince: Date): Promise<void> {
  await db.query(
    `UPDATE api_keys SET last_used_at = $2
     WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $3)`,
    [id, now, notSince],
  );
}
