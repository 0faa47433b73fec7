import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'node:test';
import pg from 'pg';
import { openDatabase, type DatabaseOptions } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';
import { migratedPglite, migrationsHash } from './pglite-template.ts';

/** A place to keep one identity provider's data; `options` may be opened again after closing. */
export interface Store {
  options: DatabaseOptions;
  /** Removes the data. Call only after every database handle on it is closed. */
  dispose(): Promise<void>;
}

export interface Backend {
  name: 'pglite' | 'postgres';
  /**
   * A fresh store of its own, already migrated (a copy of a template migrated once per run), or `empty`
   * for the tests of the migrations themselves. `persistent` stores survive closing the database (PGlite
   * on disk; those start empty).
   */
  createStore(opts?: { persistent?: boolean; empty?: boolean }): Promise<Store>;
}

const pglite: Backend = {
  name: 'pglite',
  async createStore(opts = {}) {
    if (!opts.persistent) {
      const start = opts.empty ? {} : { start: await migratedPglite() };
      return { options: { memory: true, ...start }, dispose: async () => {} };
    }
    const dataDir = await mkdtemp(join(tmpdir(), 'identity-test-'));
    return { options: { dataDir }, dispose: () => rm(dataDir, { recursive: true, force: true }) };
  },
};

async function withAdmin<T>(url: string, fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

/** The schema every migrated copy holds its tables in (each copy is a database of its own). */
const TEMPLATE_SCHEMA = 'identity_test';

let template: Promise<string> | undefined;

/**
 * The name of a database migrated once, for these migrations (named after their text): built by the first
 * test file that needs it, under an advisory lock so files running side by side build it once, under a
 * temporary name renamed when complete so a build that died half way is never copied. Several worktrees
 * on one server with other migrations each get their own.
 */
function migratedTemplate(url: string): Promise<string> {
  template ??= withAdmin(url, async (admin) => {
    const name = `identity_template_${migrationsHash()}`;
    await admin.query('SELECT pg_advisory_lock(7261533)');
    try {
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount) return name;
      const building = `${name}_building`;
      await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${building}"`);
      const db = await openDatabase({ url: databaseUrl(url, building), schema: TEMPLATE_SCHEMA });
      try {
        await migrate(db);
      } finally {
        await db.close();
      }
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
      return name;
    } finally {
      await admin.query('SELECT pg_advisory_unlock(7261533)');
    }
  });
  return template;
}

function databaseUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

function postgres(url: string): Backend {
  return {
    name: 'postgres',
    async createStore(opts = {}) {
      // Lower case only: the names are used unquoted in search_path.
      const id = randomBytes(6).toString('hex');
      if (opts.empty) {
        const schema = `test_${id}`;
        return {
          options: { url, schema },
          async dispose() {
            await withAdmin(url, (admin) => admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
          },
        };
      }
      // A copy of the migrated template (CREATE DATABASE … TEMPLATE copies files: a fraction of a
      // second, where running the migrations takes seconds).
      const name = await migratedTemplate(url);
      const database = `test_${id}`;
      await withAdmin(url, (admin) => admin.query(`CREATE DATABASE "${database}" TEMPLATE "${name}"`));
      return {
        options: { url: databaseUrl(url, database), schema: TEMPLATE_SCHEMA },
        async dispose() {
          await withAdmin(url, (admin) => admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
        },
      };
    },
  };
}

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set. */
export const backends: Backend[] = [
  pglite,
  ...(process.env.TEST_DATABASE_URL ? [postgres(process.env.TEST_DATABASE_URL)] : []),
];

/** Registers `describe(name [backend])` once per available storage back end. */
export function forEachBackend(name: string, fn: (backend: Backend) => void): void {
  for (const backend of backends) describe(`${name} [${backend.name}]`, () => fn(backend));
}
