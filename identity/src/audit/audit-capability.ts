import type { Capability } from '../capability.ts';
import { auditCommand } from '../cli/audit-commands.ts';
import { DEFAULT_AUDIT_RETENTION_DAYS } from './audit-settings.ts';

/**
 * The audit log (docs/audit-log.md): events kept `auditLog.retentionDays` (instance settings) and then
 * purged. The table refuses deletes unless `identity.audit_purge` is on for the statement: the rule turns it
 * on for the rows it selects, and only the purge runs the rule.
 */
export const auditCapability: Capability = {
  name: 'audit',
  retention: [
    {
      table: 'audit_events',
      expired:
        `created_at < $1::timestamptz - make_interval(days => COALESCE((SELECT (settings->'auditLog'->>'retentionDays')::int ` +
        `FROM instance_settings_document), ${DEFAULT_AUDIT_RETENTION_DAYS})) ` +
        `AND set_config('identity.audit_purge', 'on', true) = 'on'`,
    },
  ],
  cli: [auditCommand],
};
