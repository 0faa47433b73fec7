import type { ActorTokenAdmin } from './actor-token-admin.ts';
import { CliError } from './actor-token-admin.ts';
import type { OAuthAppsAdmin } from './oauth-apps-admin.ts';
import { openInstanceDatabase, type PurgeTarget, type UsersTarget } from './purge-database.ts';
import type { SettingsTarget } from './settings-admin.ts';
import type { WaitlistAdmin } from './waitlist-admin.ts';
import type { WebhooksTarget } from './webhooks-admin.ts';

export interface CliIo {
  env: NodeJS.ProcessEnv;
  /** The operator's output: the link, and nothing secret besides it. */
  out: (line: string) => void;
  /** Explanations and errors. */
  err: (line: string) => void;
  /** Tests hand in their own way to the instance. */
  openAdmin?: (env: NodeJS.ProcessEnv) => Promise<ActorTokenAdmin>;
  /** Tests hand in their own database for `purge`. */
  openDatabase?: (env: NodeJS.ProcessEnv) => Promise<PurgeTarget>;
  /** Tests hand in their own database for `settings`. */
  openSettings?: (env: NodeJS.ProcessEnv) => Promise<SettingsTarget>;
  /** Tests hand in their own database for `webhooks`. */
  openWebhooks?: (env: NodeJS.ProcessEnv) => Promise<WebhooksTarget>;
  /** Tests hand in their own way to the waitlist. */
  openWaitlist?: (env: NodeJS.ProcessEnv) => Promise<WaitlistAdmin>;
  /** Tests hand in their own way to the OAuth applications. */
  openOAuthApps?: (env: NodeJS.ProcessEnv) => Promise<OAuthAppsAdmin>;
  /** Tests hand in their own database for `users` and `organizations` import and export. */
  openUsers?: (env: NodeJS.ProcessEnv) => Promise<UsersTarget>;
}

/**
 * One command of `npm run identity -- <name> …`, declared by the capability it belongs to (its `cli`) or,
 * for the instance's own (settings, purge), by `run-cli.ts`, which assembles them.
 */
export interface CliCommand {
  /** The command line's first word. */
  name: string;
  /** Its part of the help: lines indented by two spaces (the command) and six (what it does). */
  usage: string;
  /**
   * Reads the rest of the command line and answers the work to run; a mistake in the command line throws
   * a `UsageError` (or `parseArgs`'s TypeError) before anything is opened: the help is shown, exit status 2.
   * The work resolves with the exit status: 0 done, 1 refused or failed.
   */
  parse(args: string[]): (io: CliIo) => Promise<number>;
}

/** A mistake in the command line itself: usage is shown, exit status 2. */
export class UsageError extends Error {}

/** Opens the instance's database, runs `work` on it and closes it: exit 0, or 1 with the reason. */
export async function onDatabase<Db>(
  io: CliIo,
  open: (env: NodeJS.ProcessEnv) => Promise<{ db: Db; close(): Promise<void> }>,
  work: (db: Db) => Promise<void>,
): Promise<number> {
  let target: { close(): Promise<void> } | null = null;
  try {
    const opened = await open(io.env);
    target = opened;
    await work(opened.db);
    return 0;
  } catch (err) {
    io.err(err instanceof CliError ? err.message : `Failed: ${(err as Error).message}`);
    return 1;
  } finally {
    await target?.close();
  }
}

/**
 * How `command` (`users export`, `organizations import`, …) opens the instance's database: the test's own
 * (`io.openUsers`), or DATABASE_URL, or the PGlite directory when no server holds it.
 */
export function openCommandDatabase(
  io: CliIo,
  command: string,
): (env: NodeJS.ProcessEnv) => Promise<UsersTarget> {
  return (
    io.openUsers ??
    ((env) =>
      openInstanceDatabase(
        env,
        (pgliteDir, holder) =>
          `The database in ${pgliteDir} is in use by process ${holder}. Stop it and run ${command} again ` +
          `(PGlite opens in one process at a time), or use DATABASE_URL.`,
      ))
  );
}
