import type { AuditEventRow } from '../store/audit-events.ts';

/** An audit event as the Backend API and the export show it (docs/audit-log.md). */
export function auditEventJSON(row: AuditEventRow) {
  return {
    object: 'audit_event' as const,
    id: row.id,
    actor: { type: row.actor_kind, id: row.actor_id },
    action: row.action,
    subject: { type: row.object_type, id: row.object_id },
    summary: row.summary,
    ip_address: row.ip_address,
    user_agent: row.user_agent,
    request_id: row.request_id,
    created_at: new Date(row.created_at).getTime(),
  };
}
