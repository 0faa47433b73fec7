import { parseArgs } from 'node:util';
import { auditEventJSON } from '../audit/audit-json.ts';
import { auditEventsBatch, type AuditEventRow } from '../store/audit-events.ts';
import { onDatabase, UsageError, type CliCommand } from './cli-command.ts';
import { openPurgeTarget } from './purge-database.ts';

function instantOf(name: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) {
    throw new UsageError(`--${name} takes a date or an ISO 8601 instant (2026-01-31, 2026-01-31T12:00:00Z).`);
  }
  return date;
}

/** `audit export`: the audit log as JSON lines, oldest first (docs/audit-log.md). */
export const auditCommand: CliCommand = {
  name: 'audit',
  usage: `  audit export [--since <date>] [--until <date>]
      Prints the audit log's events as JSON lines, oldest first, from --since (included) to --until
      (excluded), e.g. audit export --since 2026-01-01 > audit.jsonl.
`,
  parse(rest) {
    const { positionals, values } = parseArgs({
      args: rest,
      options: { since: { type: 'string' }, until: { type: 'string' } },
      strict: true,
      allowPositionals: true,
    });
    if (positionals.length !== 1 || positionals[0] !== 'export') {
      throw new UsageError('audit takes "export [--since <date>] [--until <date>]".');
    }
    const filter = { since: instantOf('since', values.since), until: instantOf('until', values.until) };
    return (io) =>
      onDatabase(io, io.openDatabase ?? openPurgeTarget, async (db) => {
        let after: AuditEventRow | null = null;
        for (;;) {
          const rows = await auditEventsBatch(db, filter, after, 500);
          for (const row of rows) io.out(JSON.stringify(auditEventJSON(row)));
          if (rows.length < 500) break;
          after = rows[rows.length - 1]!;
        }
      });
  },
};
