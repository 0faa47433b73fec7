import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { auditing } from '../db/auditing.ts';
import { identityConfigFromEnv } from '../config.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { holderOf } from '../db/pglite-lock.ts';
import { CliError } from './actor-token-admin.ts';

/** The instance's database, opened by the command line itself. */
export interface DatabaseTarget {
  db: Database;
  close(): Promise<void>;
}
export type PurgeTarget = DatabaseTarget;
/** For `users import` / `users export`. */
export type UsersTarget = DatabaseTarget;

/**
 * The instance's database: DATABASE_URL (shared by design), or the PGlite directory when no server holds
 * it. A held directory is refused with `whenHeld`'s explanation (PGlite has one process at a time).
 */
export async function openInstanceDatabase(
  env: NodeJS.ProcessEnv,
  whenHeld: (pgliteDir: string, holder: number) => string,
): Promise<DatabaseTarget> {
  if (env.DATABASE_URL) return open({ url: env.DATABASE_URL });
  const pgliteDir = resolve(env.DATA_DIR ?? '.data', 'pglite');
  if (!existsSync(pgliteDir)) {
    throw new CliError(
      `There is no database in ${pgliteDir}. Start the product once (npm start), or set DATA_DIR or DATABASE_URL.`,
    );
  }
  const holder = holderOf(pgliteDir);
  if (holder !== null) throw new CliError(whenHeld(pgliteDir, holder));
  return open({ dataDir: pgliteDir });
}

/** For `purge`: a server holding the PGlite directory purges it on its own schedule, nothing to do. */
export function openPurgeTarget(env: NodeJS.ProcessEnv): Promise<PurgeTarget> {
  return openInstanceDatabase(env, (pgliteDir, holder) => {
    const { intervalSeconds } = identityConfigFromEnv(env).retention;
    return (
      `The database in ${pgliteDir} is in use by process ${holder}, which purges it itself` +
      (intervalSeconds ? ` every ${intervalSeconds} s.` : ' (IDENTITY_PURGE_INTERVAL_SECONDS=0: never).')
    );
  });
}

async function open(options: Parameters<typeof openDatabase>[0]): Promise<DatabaseTarget> {
  // A command's writes are recorded in the audit log (run-cli.ts sets who acts).
  const db = auditing(await openDatabase(options));
  return { db, close: () => db.close() };
}
