import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { randomBase62 } from '../ids.ts';
import type { AuditActorKind } from '../store/audit-events.ts';
import type { AuditedRow } from '../store/audited-rows.ts';

/**
 * Who acts in the work running now (a Backend API call, a command, a Frontend API request), and the event
 * that work records when it changes something (docs/audit-log.md). The context follows the work's async
 * calls; `auditing(db)` reads it on every transaction.
 */
export interface AuditContext {
  actor: { kind: AuditActorKind; id: string | null };
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  clock: () => Date;
  /** The change this work records once, in the first transaction that writes (none for the Frontend API). */
  pending?: {
    action: string;
    objectType: string | null;
    objectId: string | null;
    summary: Record<string, unknown>;
    /**
     * The row the change names and the fields of `summary.after` that are its columns: the transaction that
     * records the event reads their previous values, locking the row, before its first write.
     */
    before?: { row: AuditedRow; fields: string[] };
  };
  /** The pending event is written (in a transaction that committed, or is committing). */
  recorded: boolean;
}

const storage = new AsyncLocalStorage<AuditContext>();

/** Runs `work` with `context` as the audit context of everything it calls. */
export function withAuditContext<T>(context: AuditContext, work: () => Promise<T>): Promise<T> {
  return storage.run(context, work);
}

/** The audit context of the work running now, if any. */
export function currentAuditContext(): AuditContext | undefined {
  return storage.getStore();
}

/** The secret key as the audit log names it: not the key, and not enough to find it again. */
export function secretKeyFingerprint(secretKey: string): string {
  return `sk_fp_${createHash('sha256').update(secretKey).digest('hex').slice(0, 16)}`;
}

/** Field names whose values the audit log never keeps (only the name says the field was given). */
const SECRET_FIELD =
  /password|secret|token|code|private|key|digest|hash|totp|backup|signature|ticket|credential|otp/i;

/**
 * A value as the audit log keeps it under the field `name`: a short scalar of a field whose name is not
 * secret (a date as its ISO text); undefined for anything else, whose name alone is kept.
 */
export function auditedValue(name: string, value: unknown): unknown {
  if (SECRET_FIELD.test(name)) return undefined;
  if (value instanceof Date) return Number.isFinite(value.getTime()) ? value.toISOString() : undefined;
  if (
    value === null ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value)) ||
    (typeof value === 'string' && value.length <= 200)
  ) {
    return value;
  }
  return undefined;
}

/** The values of `row` that the audit log keeps, by the same rule as `auditedValue`, for `fields` only. */
export function auditedValues(
  fields: readonly string[],
  row: Record<string, unknown>,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const name of fields) {
    const value = auditedValue(name, row[name]);
    if (value !== undefined) values[name] = value;
  }
  return values;
}

/**
 * What a request's body changed, as the audit log keeps it: the names of the fields given, and the values of
 * those that are short scalars and not secret. Metadata and other objects: the name only.
 */
export function changeSummary(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
  const fields = Object.keys(body).sort();
  return fields.length ? { fields, after: auditedValues(fields, body as Record<string, unknown>) } : {};
}

/** A new audit event's id. */
export function auditEventId(): string {
  return `aud_${randomBase62(27)}`;
}
