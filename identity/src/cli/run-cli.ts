import { withAuditContext } from '../audit/audit-context.ts';
import { ALL_CAPABILITIES } from '../capabilities.ts';
import { UsageError, type CliCommand, type CliIo } from './cli-command.ts';
import { backupCommand, keysCommand, restoreCommand } from './backup-commands.ts';
import { purgeCommand, settingsCommand } from './instance-commands.ts';
import { organizationsCommand } from './organizations-commands.ts';
import { usersCommand } from './users-commands.ts';

export type { CliIo } from './cli-command.ts';

/**
 * Every command: the instance's own (its settings, the purge, backups, keys, users and organisations) first, then each capability's (its `cli`),
 * in the order of capabilities.ts, which is also the order of the help.
 */
export const CLI_COMMANDS: readonly CliCommand[] = [
  settingsCommand,
  purgeCommand,
  backupCommand,
  restoreCommand,
  keysCommand,
  usersCommand,
  organizationsCommand,
  ...ALL_CAPABILITIES.flatMap((capability) => capability.cli ?? []),
];

export const USAGE = `Usage: npm run identity -- <command> [options]

Commands:
${CLI_COMMANDS.map((command) => command.usage).join('\n')}
The instance is the server's: DATABASE_URL, or the PGlite directory under DATA_DIR (default ./.data).
While the server has that directory open, the command goes through the server's Backend API
(IDENTITY_API_URL, or http://127.0.0.1:$PORT/__clerk_backend) with the instance secret key.
`;

/** Runs one command; resolves with the exit status (0 done, 1 refused or failed, 2 bad command line). */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === 'help' || name === '--help' || name === '-h') {
    io.out(USAGE);
    return 0;
  }
  let run: (io: CliIo) => Promise<number>;
  try {
    if (!name) throw new UsageError('Missing command.');
    const command = CLI_COMMANDS.find((c) => c.name === name);
    if (!command) throw new UsageError(`Unknown command: ${name}`);
    run = command.parse(rest);
  } catch (err) {
    if (!(err instanceof UsageError) && !(err instanceof TypeError)) throw err;
    io.err(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  // Every change the command makes is recorded in the audit log with the command line as its actor
  // (docs/audit-log.md): the command's name and first word, never its values (a secret may be one).
  const sub = rest.find((arg) => !arg.startsWith('-'));
  return withAuditContext(
    {
      actor: { kind: 'cli', id: null },
      ip: null,
      userAgent: null,
      requestId: null,
      clock: () => new Date(),
      pending: {
        action: `cli.${name}${sub && /^[a-z][a-z_-]{0,40}$/.test(sub) ? `.${sub}` : ''}`,
        objectType: null,
        objectId: null,
        summary: {},
      },
      recorded: false,
    },
    () => run(io),
  );
}
