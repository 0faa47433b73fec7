import type { Queryable } from '../db/database.ts';

/** A row of `machines` (migration 041), without its secret's hashes: those never leave this file. */
export interface MachineRow {
  id: string;
  name: string;
  default_token_ttl: number;
  secret_sealed: string;
  created_at: Date;
  updated_at: Date;
}

/** A row of `m2m_tokens` (migration 041), without its hash. */
export interface M2mTokenRow {
  id: string;
  machine_id: string;
  scopes: string[];
  claims: Record<string, unknown> | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  revocation_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

const MACHINE = 'id, name, default_token_ttl, secret_sealed, created_at, updated_at';
const TOKEN =
  'id, machine_id, scopes, claims, expires_at, revoked_at, revocation_reason, created_at, updated_at';

export async function insertMachine(
  tx: Queryable,
  m: { id: string; name: string; ttl: number; secretHash: string; secretSealed: string; now: Date },
): Promise<MachineRow> {
  const [row] = await tx.query<MachineRow>(
    `INSERT INTO machines (id, name, default_token_ttl, secret_hash, secret_sealed, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING ${MACHINE}`,
    [m.id, m.name, m.ttl, m.secretHash, m.secretSealed, m.now],
  );
  return row!;
}

export async function findMachine(db: Queryable, id: string, lock = false): Promise<MachineRow | null> {
  const [row] = await db.query<MachineRow>(
    `SELECT ${MACHINE} FROM machines WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return row ?? null;
}

/**
 * The machine whose current key, or whose previous key still in its grace period, has this hash; with
 * the hash it matched, for the caller's constant-time comparison.
 */
export async function findMachineBySecretHash(
  db: Queryable,
  hash: string,
  now: Date,
): Promise<{ machine: MachineRow; storedHash: string } | null> {
  const [row] = await db.query<MachineRow & { stored_hash: string }>(
    `SELECT ${MACHINE}, CASE WHEN secret_hash = $1 THEN secret_hash ELSE previous_secret_hash END AS stored_hash
     FROM machines
     WHERE secret_hash = $1 OR (previous_secret_hash = $1 AND previous_secret_expires_at > $2)`,
    [hash, now],
  );
  if (!row) return null;
  const { stored_hash: storedHash, ...machine } = row;
  return { machine, storedHash };
}

/** A page of machines, newest first; `query` is part of the name or the whole id. */
export async function listMachines(
  db: Queryable,
  opts: { query: string | undefined; limit: number; offset: number },
): Promise<{ rows: MachineRow[]; total: number }> {
  const where = opts.query ? `strpos(lower(name), lower($1)) > 0 OR id = $1` : '$1::text IS NULL';
  return pageOf<MachineRow>(
    db,
    { columns: MACHINE, table: 'machines', where, params: [opts.query ?? null] },
    opts,
  );
}

/**
 * A page of `table`'s rows matching `where` (over `params`), newest first, with the total: counted with the
 * page, or apart when the page is past the end.
 */
async function pageOf<Row>(
  db: Queryable,
  q: { columns: string; table: string; where: string; params: unknown[] },
  page: { limit: number; offset: number },
): Promise<{ rows: Row[]; total: number }> {
  const n = q.params.length;
  const rows = await db.query<Row & { total: number }>(
    `SELECT ${q.columns}, count(*) OVER ()::int AS total FROM ${q.table} WHERE ${q.where}
     ORDER BY created_at DESC, id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...q.params, page.limit, page.offset],
  );
  if (rows.length === 0 && page.offset > 0) {
    const [count] = await db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM ${q.table} WHERE ${q.where}`,
      q.params,
    );
    return { rows: [], total: count!.total };
  }
  return { rows: rows.map(({ total: _t, ...row }) => row as Row), total: rows[0]?.total ?? 0 };
}

export async function countMachines(db: Queryable): Promise<number> {
  const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM machines');
  return row!.n;
}

/** Which of `ids` are machines of this instance. */
export async function existingMachineIds(db: Queryable, ids: string[]): Promise<string[]> {
  const rows = await db.query<{ id: string }>('SELECT id FROM machines WHERE id = ANY($1::text[])', [ids]);
  return rows.map((r) => r.id);
}

export async function updateMachine(
  tx: Queryable,
  id: string,
  change: { name?: string; ttl?: number },
  now: Date,
): Promise<MachineRow> {
  const [row] = await tx.query<MachineRow>(
    `UPDATE machines SET name = coalesce($2, name), default_token_ttl = coalesce($3, default_token_ttl),
       updated_at = $4
     WHERE id = $1 RETURNING ${MACHINE}`,
    [id, change.name ?? null, change.ttl ?? null, now],
  );
  return row!;
}

/** A new key; the old one is accepted until `previousUntil` (null: not at all). */
export async function replaceMachineSecret(
  tx: Queryable,
  id: string,
  next: { secretHash: string; secretSealed: string; previousUntil: Date | null },
  now: Date,
): Promise<MachineRow> {
  const [row] = await tx.query<MachineRow>(
    `UPDATE machines SET
       previous_secret_hash = CASE WHEN $4::timestamptz IS NULL THEN NULL ELSE secret_hash END,
       previous_secret_expires_at = $4, secret_hash = $2, secret_sealed = $3, updated_at = $5
     WHERE id = $1 RETURNING ${MACHINE}`,
    [id, next.secretHash, next.secretSealed, next.previousUntil, now],
  );
  return row!;
}

/** Deletes the machine; its scopes (both ways) and its tokens go with it (ON DELETE CASCADE). */
export async function deleteMachine(tx: Queryable, id: string): Promise<void> {
  await tx.query('DELETE FROM machines WHERE id = $1', [id]);
}

/** The machines each of `ids` is scoped to (may present its tokens to), oldest scope first. */
export async function scopedMachinesOf(db: Queryable, ids: string[]): Promise<Map<string, MachineRow[]>> {
  const rows = await db.query<MachineRow & { from_machine_id: string }>(
    `SELECT s.from_machine_id, m.id, m.name, m.default_token_ttl, m.secret_sealed, m.created_at, m.updated_at
     FROM machine_scopes s JOIN machines m ON m.id = s.to_machine_id
     WHERE s.from_machine_id = ANY($1::text[]) ORDER BY s.created_at, m.id`,
    [ids],
  );
  const out = new Map<string, MachineRow[]>(ids.map((id) => [id, []]));
  for (const { from_machine_id: from, ...machine } of rows) out.get(from)!.push(machine);
  return out;
}

/** Adds the scope; an existing one is answered as it is. */
export async function insertMachineScope(
  tx: Queryable,
  from: string,
  to: string,
  now: Date,
): Promise<{ created_at: Date }> {
  await tx.query(
    `INSERT INTO machine_scopes (from_machine_id, to_machine_id, created_at) VALUES ($1, $2, $3)
     ON CONFLICT DO NOTHING`,
    [from, to, now],
  );
  const [row] = await tx.query<{ created_at: Date }>(
    'SELECT created_at FROM machine_scopes WHERE from_machine_id = $1 AND to_machine_id = $2',
    [from, to],
  );
  return row!;
}

/** Whether a scope was there to delete. */
export async function deleteMachineScope(tx: Queryable, from: string, to: string): Promise<boolean> {
  const rows = await tx.query(
    'DELETE FROM machine_scopes WHERE from_machine_id = $1 AND to_machine_id = $2 RETURNING 1',
    [from, to],
  );
  return rows.length > 0;
}

export async function hasMachineScope(db: Queryable, from: string, to: string): Promise<boolean> {
  const rows = await db.query(
    'SELECT 1 FROM machine_scopes WHERE from_machine_id = $1 AND to_machine_id = $2',
    [from, to],
  );
  return rows.length > 0;
}

export async function insertM2mToken(
  tx: Queryable,
  t: {
    id: string;
    machineId: string;
    tokenHash: string;
    scopes: string[];
    claims: Record<string, unknown> | null;
    expiresAt: Date | null;
    now: Date;
  },
): Promise<M2mTokenRow> {
  const [row] = await tx.query<M2mTokenRow>(
    `INSERT INTO m2m_tokens (id, machine_id, token_hash, scopes, claims, expires_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4::text[], $5::jsonb, $6, $7, $7) RETURNING ${TOKEN}`,
    [
      t.id,
      t.machineId,
      t.tokenHash,
      t.scopes,
      t.claims === null ? null : JSON.stringify(t.claims),
      t.expiresAt,
      t.now,
    ],
  );
  return row!;
}

export async function findM2mToken(db: Queryable, id: string, lock = false): Promise<M2mTokenRow | null> {
  const [row] = await db.query<M2mTokenRow>(
    `SELECT ${TOKEN} FROM m2m_tokens WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return row ?? null;
}

/** The token with this hash, with the hash, for the caller's constant-time comparison. */
export async function findM2mTokenByHash(
  db: Queryable,
  hash: string,
): Promise<{ token: M2mTokenRow; storedHash: string } | null> {
  const [row] = await db.query<M2mTokenRow & { token_hash: string }>(
    `SELECT ${TOKEN}, token_hash FROM m2m_tokens WHERE token_hash = $1`,
    [hash],
  );
  if (!row) return null;
  const { token_hash: storedHash, ...token } = row;
  return { token, storedHash };
}

export async function revokeM2mTokenRow(
  tx: Queryable,
  id: string,
  reason: string | null,
  now: Date,
): Promise<M2mTokenRow> {
  const [row] = await tx.query<M2mTokenRow>(
    `UPDATE m2m_tokens SET revoked_at = $3, revocation_reason = $2, updated_at = $3
     WHERE id = $1 RETURNING ${TOKEN}`,
    [id, reason, now],
  );
  return row!;
}

/**
 * A page of `machineId`'s tokens, newest first, with their total: the live ones, with the revoked ones
 * and the expired ones only when asked (a token both revoked and expired needs both).
 */
export async function listM2mTokens(
  db: Queryable,
  q: {
    machineId: string;
    revoked: boolean;
    expired: boolean;
    now: Date;
    limit: number;
    offset: number;
  },
): Promise<{ rows: M2mTokenRow[]; total: number }> {
  const shown = ['machine_id = $1'];
  const params: unknown[] = [q.machineId];
  if (!q.revoked) shown.push('revoked_at IS NULL');
  if (!q.expired) {
    params.push(q.now);
    shown.push('(expires_at IS NULL OR expires_at > $2)');
  }
  const where = shown.join(' AND ');
  return pageOf<M2mTokenRow>(db, { columns: TOKEN, table: 'm2m_tokens', where, params }, q);
}
