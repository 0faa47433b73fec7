import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { identityConfigFromEnv } from '../config.ts';
import { openDatabase, type Queryable } from '../db/database.ts';
import { holderOf } from '../db/pglite-lock.ts';
import { CliError } from './actor-token-admin.ts';

export interface PurgeTarget {
  db: Queryable;
  close(): Promise<void>;
}

/**
 * The instance's database for `purge`: DATABASE_URL, or the PGlite directory when no server holds it.
 * A server holding it purges it on its own schedule, so there is nothing to do through its API.
 */
export async function openPurgeTarget(env: NodeJS.ProcessEnv): Promise<PurgeTarget> {
  if (env.DATABASE_URL) return open({ url: env.DATABASE_URL });
  const pgliteDir = resolve(env.DATA_DIR ?? '.data', 'pglite');
  if (!existsSync(pgliteDir)) throw new CliError(`There is no database in ${pgliteDir}.`);
  const holder = holderOf(pgliteDir);
  if (holder !== null) {
    const { intervalSeconds } = identityConfigFromEnv(env).retention;
    throw new CliError(
      `The database in ${pgliteDir} is in use by process ${holder}, which purges it itself` +
        (intervalSeconds ? ` every ${intervalSeconds} s.` : ' (IDENTITY_PURGE_INTERVAL_SECONDS=0: never).'),
    );
  }
  return open({ dataDir: pgliteDir });
}

async function open(options: Parameters<typeof openDatabase>[0]): Promise<PurgeTarget> {
  const db = await openDatabase(options);
  return { db, close: () => db.close() };
}
