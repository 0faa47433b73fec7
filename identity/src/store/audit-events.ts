import type { Queryable } from '../db/database.ts';

/** One row of `audit_events` (migration 040), as read back. */
export interface AuditEventRow {
  id: string;
  /** The order of insertion (bigint, as text). */
  seq: string;
  actor_kind: AuditActorKind;
  actor_id: string | null;
  action: string;
  object_type: string | null;
  object_id: string | null;
  summary: Record<string, unknown>;
  ip_address: string | null;
  user_agent: string | null;
  request_id: string | null;
  created_at: Date;
}

const COLUMNS = `id, seq::text AS seq, actor_kind, actor_id, action, object_type, object_id, summary,
  ip_address, user_agent, request_id, created_at`;

export type AuditActorKind = 'operator' | 'secret_key' | 'api_key' | 'cli' | 'user' | 'system';

export type NewAuditEvent = Omit<AuditEventRow, 'seq'>;

/**
 * Appends one event (the table refuses any other change). With `ifChanged`, only when the transaction has
 * changed a row (PostgreSQL gives a transaction its id at its first change: a statement that matched
 * nothing, a read, leaves none): answers whether it was appended.
 */
export async function insertAuditEvent(
  db: Queryable,
  event: NewAuditEvent,
  opts: { ifChanged?: boolean } = {},
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO audit_events (id, actor_kind, actor_id, action, object_type, object_id, summary,
       ip_address, user_agent, request_id, created_at)
     SELECT $1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11
      WHERE NOT $12::boolean OR pg_current_xact_id_if_assigned() IS NOT NULL
     RETURNING 1`,
    [
      event.id,
      event.actor_kind,
      event.actor_id,
      event.action,
      event.object_type,
      event.object_id,
      JSON.stringify(event.summary),
      event.ip_address,
      event.user_agent,
      event.request_id,
      event.created_at,
      opts.ifChanged === true,
    ],
  );
  return rows.length > 0;
}

/**
 * Tells the triggers of migration 040 who acts in this transaction and from where (`identity.audit_context`,
 * local to the transaction).
 */
export async function setAuditContext(db: Queryable, context: Record<string, unknown>): Promise<void> {
  await db.query(`SELECT set_config('identity.audit_context', $1, true)`, [JSON.stringify(context)]);
}

export interface AuditFilter {
  actorKind?: string;
  actorId?: string;
  action?: string;
  objectType?: string;
  objectId?: string;
  since?: Date;
  until?: Date;
}

function whereOf(filter: AuditFilter): { sql: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const add = (column: string, op: string, value: unknown) => {
    if (value === undefined) return;
    params.push(value);
    conditions.push(`${column} ${op} $${params.length}`);
  };
  add('actor_kind', '=', filter.actorKind);
  add('actor_id', '=', filter.actorId);
  add('action', '=', filter.action);
  add('object_type', '=', filter.objectType);
  add('object_id', '=', filter.objectId);
  add('created_at', '>=', filter.since);
  add('created_at', '<', filter.until);
  return { sql: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', params };
}

/** The events `filter` selects, newest first, one page of them, with how many there are in all. */
export async function listAuditEvents(
  db: Queryable,
  filter: AuditFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: AuditEventRow[]; total: number }> {
  const where = whereOf(filter);
  const n = where.params.length;
  const rows = await db.query<AuditEventRow>(
    `SELECT ${COLUMNS} FROM audit_events ${where.sql} ORDER BY created_at DESC, seq DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...where.params, page.limit, page.offset],
  );
  const [count] = await db.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM audit_events ${where.sql}`,
    where.params,
  );
  return { rows, total: count?.total ?? 0 };
}

/** The events `filter` selects, oldest first, after `after` (the last one of the previous batch). */
export async function auditEventsBatch(
  db: Queryable,
  filter: AuditFilter,
  after: { created_at: Date; seq: string } | null,
  limit: number,
): Promise<AuditEventRow[]> {
  const where = whereOf(filter);
  const params = [...where.params];
  let sql = where.sql;
  if (after) {
    params.push(after.created_at, after.seq);
    const cursor = `(created_at, seq) > ($${params.length - 1}::timestamptz, $${params.length}::bigint)`;
    sql = sql ? `${sql} AND ${cursor}` : `WHERE ${cursor}`;
  }
  params.push(limit);
  return db.query<AuditEventRow>(
    `SELECT ${COLUMNS} FROM audit_events ${sql} ORDER BY created_at, seq LIMIT $${params.length}`,
    params,
  );
}
