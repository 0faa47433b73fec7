import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { BetterAuthOptions } from 'better-auth';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect.ts';

export type PeerDatabaseChoice = { kind: 'postgres'; url: string } | { kind: 'pglite' };

/** A fresh, empty database for the peer: better-auth's `database` option and how to throw it away. */
export interface PeerDatabase {
  kind: PeerDatabaseChoice['kind'];
  option: NonNullable<BetterAuthOptions['database']>;
  close(): Promise<void>;
}

/**
 * Opened the way our identity provider opens its own (identity/src/db/database.ts), so both sides
 * pay the same for the database: on PostgreSQL a pool of 10 whose search_path is a schema of its own
 * on the same server (dropped on close), on PGlite a fresh data directory on disk (removed on close).
 */
export async function openPeerDatabase(choice: PeerDatabaseChoice): Promise<PeerDatabase> {
  if (choice.kind === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'better-auth-peer-'));
    const db = await PGlite.create(dir);
    return {
      kind: 'pglite',
      option: { dialect: new PGliteDialect(db), type: 'postgres' },
      async close() {
        try {
          await db.close();
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  }

  const schema = `better_auth_peer_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: choice.url });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA "${schema}"`);
  } finally {
    await admin.end();
  }
  const pool = new pg.Pool({
    connectionString: choice.url,
    max: 10,
    connectionTimeoutMillis: 5000,
    options: `-c search_path="${schema}"`,
  });
  pool.on('error', () => {});
  return {
    kind: 'postgres',
    // better-auth takes a pg Pool as is (its Kysely adapter wraps it in kysely's PostgresDialect).
    option: pool,
    async close() {
      try {
        await pool.query(`DROP SCHEMA "${schema}" CASCADE`);
      } finally {
        await pool.end();
      }
    },
  };
}
