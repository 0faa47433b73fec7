import { z } from '@app/contract';

/** The audit log (docs/audit-log.md): how long its events are kept. Absent: 365 days. */
export const auditLogSettings = z
  .object({
    /** Days an event is kept before the retention purge deletes it (1 to 3650). */
    retentionDays: z.number().int().min(1).max(3650).default(365),
  })
  .strict();
export type AuditLogSettings = z.output<typeof auditLogSettings>;

export const DEFAULT_AUDIT_RETENTION_DAYS = 365;
