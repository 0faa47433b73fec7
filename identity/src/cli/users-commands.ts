import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { currentAuditContext } from '../audit/audit-context.ts';
import { identityConfigFromEnv } from '../config.ts';
import { sha256 } from '../crypto/secrets.ts';
import type { Database } from '../db/database.ts';
import { recordWithoutChange } from '../db/auditing.ts';
import { configuredSecretKey } from '../instance/instance-keys.ts';
import { storedCodePepper, storedSecretKeyHash } from '../store/instance-secrets.ts';
import { exportUsersCsv } from '../users/transfer/export-users.ts';
import { IMPORT_FORMATS, type ImportFormat } from '../users/transfer/import-record.ts';
import { formatOfName } from '../users/transfer/read-import-file.ts';
import { printReport, readImportFile, writeNewFile } from './import-report.ts';
import { importUsers, readUsers } from './users-import.ts';
import { CliError } from './actor-token-admin.ts';
import { onDatabase, openCommandDatabase, UsageError, type CliCommand, type CliIo } from './cli-command.ts';

type UsersCommand =
  | { action: 'import'; file: string; format: ImportFormat; dryRun: boolean; batchSize: number }
  | { action: 'export'; file: string; passwordHashes: boolean; totpSecrets: boolean };

const USAGE_LINE =
  'users takes "import <file> [--format clerk-csv|auth0|jsonl] [--dry-run] [--batch-size <n>]" or ' +
  '"export <file> [--include-password-hashes] [--include-totp-secrets]".';

/** `users import` and `users export`: moving users in from hosted Clerk or Auth0, and out (docs/operations.md). */
export const usersCommand: CliCommand = {
  name: 'users',
  usage: `  users import <file> [--format clerk-csv|auth0|jsonl] [--dry-run] [--batch-size <n>]
      Imports users from hosted Clerk's export CSV, an Auth0 export (JSON or NDJSON, gzipped or not) or
      JSON lines of users.createUser bodies (with organization_memberships); the format follows the file's
      extension (.csv, .json/.ndjson, .jsonl) unless --format says it. A user whose id, external id, email
      address, phone number or username exists is skipped, a bad line reported with its number; --dry-run
      checks everything and writes nothing.

  users export <file> [--include-password-hashes] [--include-totp-secrets]
      Writes every user to <file> (mode 0600) in hosted Clerk's export CSV; password digests and TOTP
      secrets only with their flag. Recorded in the audit log.
`,
  parse(rest) {
    const command = parseUsersCommand(rest);
    return (io) => users(command, io);
  },
};

function parseUsersCommand(rest: string[]): UsersCommand {
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      format: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      'batch-size': { type: 'string' },
      'include-password-hashes': { type: 'boolean', default: false },
      'include-totp-secrets': { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: true,
  });
  const [action, file, ...more] = positionals;
  if (!file || more.length) throw new UsageError(USAGE_LINE);
  if (action === 'import' && !values['include-password-hashes'] && !values['include-totp-secrets']) {
    const format = (values.format ?? formatOfName(file)) as ImportFormat | null;
    if (!format) throw new UsageError(`Say the file's format: --format ${IMPORT_FORMATS.join('|')}.`);
    if (!IMPORT_FORMATS.includes(format))
      throw new UsageError(`--format must be one of ${IMPORT_FORMATS.join(', ')}.`);
    const batchSize = values['batch-size'] === undefined ? 100 : Number(values['batch-size']);
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 1000)
      throw new UsageError('--batch-size must be from 1 to 1000.');
    return { action, file, format, dryRun: values['dry-run'] ?? false, batchSize };
  }
  if (action === 'export' && !values.format && !values['dry-run'] && values['batch-size'] === undefined) {
    return {
      action,
      file,
      passwordHashes: values['include-password-hashes'] ?? false,
      totpSecrets: values['include-totp-secrets'] ?? false,
    };
  }
  throw new UsageError(USAGE_LINE);
}

/** The instance secret key the database's TOTP secrets are sealed under, checked against the database. */
async function instanceSecretKeyOf(io: CliIo, db: Database): Promise<string> {
  const secretKey = configuredSecretKey(identityConfigFromEnv(io.env));
  if (!secretKey) {
    throw new CliError(
      'There is no instance secret key: set IDENTITY_SECRET_KEY, or DATA_DIR to the directory holding identity-secret-key.',
    );
  }
  const stored = await storedSecretKeyHash(db);
  if (!stored)
    throw new CliError('The database has not been started on yet: start the server once (npm start).');
  if (stored !== sha256(secretKey)) {
    throw new CliError(
      'The configured instance secret key is not the one this database was last started with: TOTP secrets would be sealed or read under the wrong key. Point IDENTITY_SECRET_KEY or DATA_DIR at the right key.',
    );
  }
  return secretKey;
}

async function users(command: UsersCommand, io: CliIo): Promise<number> {
  return onDatabase(io, openCommandDatabase(io, `users ${command.action}`), async (db) => {
    const secretKey = await instanceSecretKeyOf(io, db);
    if (command.action === 'export') await exportCommand(command, io, db, secretKey);
    else await importCommand(command, io, db, secretKey);
  });
}

async function exportCommand(
  command: Extract<UsersCommand, { action: 'export' }>,
  io: CliIo,
  db: Database,
  secretKey: string,
): Promise<void> {
  if (existsSync(resolve(command.file)))
    throw new CliError(`${resolve(command.file)} exists already; choose another file.`);
  const { csv, users } = await exportUsersCsv(db, secretKey, {
    passwordHashes: command.passwordHashes,
    totpSecrets: command.totpSecrets,
  });
  const target = writeNewFile(command.file, csv);
  await recordWithoutChange(db, {
    users,
    include_password_hashes: command.passwordHashes,
    include_totp_secrets: command.totpSecrets,
  });
  io.out(target);
  io.err(
    `Exported ${users} user${users === 1 ? '' : 's'}` +
      (command.passwordHashes ? ', with password digests' : '') +
      (command.totpSecrets ? ', with TOTP secrets' : '') +
      '.',
  );
}

async function importCommand(
  command: Extract<UsersCommand, { action: 'import' }>,
  io: CliIo,
  db: Database,
  secretKey: string,
): Promise<void> {
  const codePepper = await storedCodePepper(db);
  if (!codePepper)
    throw new CliError('The database has not been started on yet: start the server once (npm start).');
  const read = readImportFile(command.file, (text) => readUsers(text, command.format));
  const context = currentAuditContext();
  if (context?.pending) context.pending.summary = { format: command.format, records: read.records.length };
  const report = await importUsers(
    { db, config: identityConfigFromEnv(io.env), keys: { secretKey, codePepper }, clock: () => new Date() },
    read,
    {
      dryRun: command.dryRun,
      batchSize: command.batchSize,
      progress: (done, total) => {
        if (total > command.batchSize) io.err(`… ${done}/${total}`);
      },
    },
  );
  printReport(io, report, { dryRun: command.dryRun, noun: 'user' });
}
