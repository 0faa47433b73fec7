import {
  auditedValues,
  auditEventId,
  currentAuditContext,
  type AuditContext,
} from '../audit/audit-context.ts';
import { insertAuditEvent, setAuditContext } from '../store/audit-events.ts';
import { lockedRowValues } from '../store/audited-rows.ts';
import type { Database, Queryable, Transaction } from './database.ts';

const WRITE = /^\s*(INSERT|UPDATE|DELETE|WITH|MERGE)\b/i;
const WRAPPED = Symbol('auditing database');

type Pending = NonNullable<AuditContext['pending']>;

function pendingEvent(context: AuditContext, pending: Pending, before?: Record<string, unknown>) {
  return {
    id: auditEventId(),
    actor_kind: context.actor.kind,
    actor_id: context.actor.id,
    action: pending.action,
    object_type: pending.objectType,
    object_id: pending.objectId,
    summary: before ? { ...pending.summary, before } : pending.summary,
    ip_address: context.ip,
    user_agent: context.userAgent,
    request_id: context.requestId,
    created_at: context.clock(),
  };
}

/**
 * The previous values of the fields the pending event names, read in the transaction about to change them,
 * the row locked until it ends (two concurrent changes: the second reads what the first wrote). None when
 * the event names no row, or the row is not there (the change will fail, or change something else).
 */
async function previousValues(tx: Queryable, pending: Pending): Promise<Record<string, unknown> | undefined> {
  if (!pending.before?.fields.length) return undefined;
  const row = await lockedRowValues(tx, pending.before.row, pending.before.fields);
  return row ? auditedValues(pending.before.fields, row) : undefined;
}

/**
 * Records the work's event although it changed nothing, with `summary`: for a command whose effect is
 * outside the database (`users export` writes a file of users). Outside an audit context, nothing.
 */
export async function recordWithoutChange(db: Database, summary: Record<string, unknown>): Promise<void> {
  const context = currentAuditContext();
  if (!context?.pending || context.recorded) return;
  const pending = { ...context.pending, summary };
  await db.transaction(async (tx) => {
    // Marked first: the insert is this transaction's write, after which `auditing` would add the event again.
    context.recorded = true;
    try {
      await insertAuditEvent(tx, pendingEvent(context, pending));
    } catch (err) {
      context.recorded = false;
      throw err;
    }
  });
}

/**
 * `db` whose transactions, in an audit context, tell the database who acts (for the triggers of migration
 * 040) before their first write, and write the context's pending event before they commit: an event exists
 * exactly when a change of its work committed. A write outside a transaction runs in one, for the same
 * reason. Outside an audit context (background jobs, the purge), `db` as it is.
 */
export function auditing(db: Database): Database {
  if ((db as unknown as Record<symbol, boolean>)[WRAPPED]) return db;
  const transaction = <T>(fn: (tx: Transaction) => Promise<T>): Promise<T> => {
    const context = currentAuditContext();
    if (!context) return db.transaction(fn);
    let recordedHere = false;
    return db
      .transaction(async (tx) => {
        let wrote = false;
        let before: Record<string, unknown> | undefined;
        const beforeWrite = async () => {
          if (wrote) return;
          wrote = true;
          await setAuditContext(tx, {
            kind: context.actor.kind,
            id: context.actor.id,
            ip: context.ip,
            ua: context.userAgent,
            rid: context.requestId,
            at: context.clock().toISOString(),
          });
          if (context.pending && !context.recorded) before = await previousValues(tx, context.pending);
        };
        const result = await fn({
          query: async (sql, params) => {
            if (WRITE.test(sql)) await beforeWrite();
            return tx.query(sql, params);
          },
          exec: async (sql) => {
            await beforeWrite();
            return tx.exec(sql);
          },
        });
        if (wrote && context.pending && !context.recorded) {
          // Recorded only when the work changed a row: an UPDATE that matched nothing (a 404) records none.
          context.recorded = recordedHere = await insertAuditEvent(
            tx,
            pendingEvent(context, context.pending, before),
            { ifChanged: true },
          );
        }
        return result;
      })
      .catch((err: unknown) => {
        // Rolled back: the event went with it, and the next transaction of the work records it.
        if (recordedHere) context.recorded = false;
        throw err;
      });
  };
  const wrapped: Database & { [WRAPPED]: true } = {
    [WRAPPED]: true,
    get kind() {
      return db.kind;
    },
    query: (sql, params) =>
      currentAuditContext() && WRITE.test(sql)
        ? transaction((tx) => tx.query(sql, params))
        : db.query(sql, params),
    transaction,
    close: () => db.close(),
  };
  return wrapped;
}
