import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'node:test';
import pg from 'pg';
import type { DatabaseOptions } from '../../src/db/database.ts';

/** A place to keep one identity provider's data; `options` may be opened again after closing. */
export interface Store {
  options: DatabaseOptions;
  /** Removes the data. Call only after every database handle on it is closed. */
  dispose(): Promise<void>;
}

export interface Backend {
  name: 'pglite' | 'postgres';
  /** A fresh, empty store. `persistent` stores survive closing the database (PGlite on disk). */
  createStore(opts?: { persistent?: boolean }): Promise<Store>;
}

const pglite: Backend = {
  name: 'pglite',
  async createStore(opts = {}) {
    if (!opts.persistent) return { options: { memory: true }, dispose: async () => {} };
    const dataDir = await mkdtemp(join(tmpdir(), 'identity-test-'));
    return { options: { dataDir }, dispose: () => rm(dataDir, { recursive: true, force: true }) };
  },
};

function postgres(url: string): Backend {
  return {
    name: 'postgres',
    async createStore() {
      // Lower case only: the schema name is used unquoted in search_path.
      const schema = `test_${randomBytes(6).toString('hex')}`;
      return {
        options: { url, schema },
        async dispose() {
          const admin = new pg.Client({ connectionString: url });
          await admin.connect();
          try {
            await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
          } finally {
            await admin.end();
          }
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
