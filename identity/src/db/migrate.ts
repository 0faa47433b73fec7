import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.ts';

/** A folder of numbered SQL files and where their application is recorded. */
export interface MigrationSet {
  /** The folder of `NNN_name.sql` files, applied in name order. */
  dir: string;
  /** The table recording the files applied (created when missing), in the connection's schema. */
  table: string;
  /**
   * The advisory lock that keeps several processes on one PostgreSQL server from applying the same set
   * at once. Advisory locks are per database, not per schema: each set needs its own key.
   */
  lockKey: number;
}

/** The identity provider's own migrations. */
export const IDENTITY_MIGRATIONS: MigrationSet = {
  dir: fileURLToPath(new URL('./migrations/', import.meta.url)),
  table: 'schema_migrations',
  lockKey: 7261532,
};

const TABLE_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * Applies the files of `set` not yet recorded, each in its own transaction: the file's text runs whole
 * (never split into statements, so a function body with `;` inside works), then its name is recorded, and
 * both commit together. A file that fails rolls back alone: nothing of it stays, it is not recorded, and
 * the files before it stay applied and recorded. Each transaction first takes the set's advisory lock and
 * reads the record again, so concurrent processes apply each file once. Answers the files applied now.
 */
export async function runMigrations(
  db: Database,
  set: MigrationSet,
  opts: { until?: string } = {},
): Promise<string[]> {
  if (!TABLE_NAME.test(set.table)) throw new Error(`Invalid migrations table name: ${set.table}`);
  const dir = set.dir.endsWith('/') ? set.dir : `${set.dir}/`;
  const files = readdirSync(dir)
    .filter((f) => /^\d+_.+\.sql$/.test(f) && (opts.until === undefined || f <= opts.until))
    .sort();
  const applied: string[] = [];
  for (const file of files) {
    const ran = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [set.lockKey]);
      await tx.query(`CREATE TABLE IF NOT EXISTS ${set.table} (
        name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
      const done = await tx.query(`SELECT 1 FROM ${set.table} WHERE name = $1`, [file]);
      if (done.length) return false;
      await tx.exec(readFileSync(dir + file, 'utf8'));
      await tx.query(`INSERT INTO ${set.table} (name) VALUES ($1)`, [file]);
      return true;
    });
    if (ran) applied.push(file);
  }
  return applied;
}

/** Applies the identity provider's migrations (see runMigrations), or those up to `until` (a restore's). */
export function migrate(db: Database, opts: { until?: string } = {}): Promise<string[]> {
  return runMigrations(db, IDENTITY_MIGRATIONS, opts);
}

/** The identity provider's migration files this version has, in order. */
export function identityMigrationFiles(): string[] {
  return readdirSync(IDENTITY_MIGRATIONS.dir)
    .filter((f) => /^\d+_.+\.sql$/.test(f))
    .sort();
}
