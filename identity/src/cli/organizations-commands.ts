import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { currentAuditContext } from '../audit/audit-context.ts';
import { recordWithoutChange } from '../db/auditing.ts';
import { CliError } from './actor-token-admin.ts';
import { onDatabase, openCommandDatabase, UsageError, type CliCommand, type CliIo } from './cli-command.ts';
import { printReport, readImportFile, writeNewFile } from './import-report.ts';
import { exportOrganizations, importOrganizations, readOrganizations } from './organizations-import.ts';

type OrganizationsCommand =
  { action: 'import'; file: string; dryRun: boolean } | { action: 'export'; file: string };

const USAGE_LINE = 'organizations takes "import <file.jsonl> [--dry-run]" or "export <file.jsonl>".';

/** `organizations import` and `export`: organisations and their memberships in and out (docs/operations.md). */
export const organizationsCommand: CliCommand = {
  name: 'organizations',
  usage: `  organizations import <file.jsonl> [--dry-run]
      Imports organisations from JSON lines of organizations.createOrganization bodies, with the id to keep,
      created_at and memberships: [{ user_id, role }]. One whose id or slug exists is skipped (its missing
      memberships added when the id is the same); a membership whose user does not exist is reported and
      skipped; a bad line reported with its number; --dry-run checks everything and writes nothing.

  organizations export <file.jsonl>
      Writes every organisation with its memberships to <file> (mode 0600) in the import's format.
      Recorded in the audit log.
`,
  parse(rest) {
    const command = parseOrganizationsCommand(rest);
    return (io) => organizations(command, io);
  },
};

function parseOrganizationsCommand(rest: string[]): OrganizationsCommand {
  const { values, positionals } = parseArgs({
    args: rest,
    options: { 'dry-run': { type: 'boolean', default: false } },
    strict: true,
    allowPositionals: true,
  });
  const [action, file, ...more] = positionals;
  if (!file || more.length) throw new UsageError(USAGE_LINE);
  if (action === 'import') return { action, file, dryRun: values['dry-run'] ?? false };
  if (action === 'export' && !values['dry-run']) return { action, file };
  throw new UsageError(USAGE_LINE);
}

async function organizations(command: OrganizationsCommand, io: CliIo): Promise<number> {
  return onDatabase(io, openCommandDatabase(io, `organizations ${command.action}`), async (db) => {
    if (command.action === 'export') {
      if (existsSync(resolve(command.file)))
        throw new CliError(`${resolve(command.file)} exists already; choose another file.`);
      const { jsonl, organizations, memberships } = await exportOrganizations(db);
      const target = writeNewFile(command.file, jsonl);
      await recordWithoutChange(db, { organizations, memberships });
      io.out(target);
      io.err(
        `Exported ${organizations} organization${organizations === 1 ? '' : 's'} with ${memberships} membership${memberships === 1 ? '' : 's'}.`,
      );
      return;
    }
    const read = readImportFile(command.file, readOrganizations);
    const context = currentAuditContext();
    if (context?.pending) context.pending.summary = { records: read.records.length };
    const report = await importOrganizations(db, read, {
      dryRun: command.dryRun,
      clock: () => new Date(),
    });
    const added = report.membershipsAdded;
    printReport(io, report, {
      dryRun: command.dryRun,
      noun: 'organization',
      extra: `; ${added} membership${added === 1 ? '' : 's'} ${command.dryRun ? 'to add' : 'added'}`,
    });
  });
}
