import type { Database, Queryable } from './database.ts';
import { identityMigrationFiles, migrate } from './migrate.ts';
import type { BackupContents } from '../backup/backup-file.ts';

/** Why a restore was refused before anything changed. */
export class RestoreRefused extends Error {}

const MIGRATIONS_TABLE = 'schema_migrations';
/** Rows per INSERT when restoring: one parameter of JSON each, well under any message size limit. */
const RESTORE_CHUNK = 500;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The identity provider's tables: every ordinary table of the connection's schema. */
async function tableNames(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') ORDER BY c.relname`,
  );
  return rows.map((r) => r.name);
}

async function sequenceNames(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind = 'S' ORDER BY c.relname`,
  );
  return rows.map((r) => r.name);
}

/** The columns an INSERT may set (generated ones are computed again). */
async function insertableColumns(db: Queryable, table: string): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    `SELECT a.attname AS name FROM pg_attribute a
     JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relname = $1 AND a.attnum > 0 AND NOT a.attisdropped
       AND a.attgenerated = '' ORDER BY a.attnum`,
    [table],
  );
  return rows.map((r) => r.name);
}

/**
 * Every table and sequence of the provider, read in one REPEATABLE READ, READ ONLY transaction: one
 * consistent moment, however long the copy takes, while the servers keep running (PostgreSQL).
 */
export async function takeSnapshot(db: Database): Promise<Omit<BackupContents, 'secretKey'>> {
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const names = await tableNames(tx);
    if (!names.includes(MIGRATIONS_TABLE)) {
      throw new RestoreRefused('This database has no identity provider tables (it was never started).');
    }
    const tables: BackupContents['tables'] = [];
    for (const name of names) {
      const rows = await tx.query<{ r: string }>(`SELECT row_to_json(t)::text AS r FROM ${ident(name)} t`);
      tables.push({ name, rows: rows.map((row) => row.r) });
    }
    const sequences: BackupContents['sequences'] = [];
    for (const name of await sequenceNames(tx)) {
      const [seq] = await tx.query<{ last_value: string; is_called: boolean }>(
        `SELECT last_value::text AS last_value, is_called FROM ${ident(name)}`,
      );
      sequences.push({ name, lastValue: seq!.last_value, isCalled: seq!.is_called });
    }
    const migrations = (
      await tx.query<{ name: string }>(`SELECT name FROM ${MIGRATIONS_TABLE} ORDER BY name`)
    ).map((r) => r.name);
    return { migrations, tables, sequences };
  });
}

/** The migrations a store has applied (none for an empty one). */
async function appliedMigrations(db: Queryable): Promise<string[]> {
  if (!(await tableNames(db)).includes(MIGRATIONS_TABLE)) return [];
  return (await db.query<{ name: string }>(`SELECT name FROM ${MIGRATIONS_TABLE} ORDER BY name`)).map(
    (r) => r.name,
  );
}

/**
 * Checks, before anything is written, that this version can restore `contents`: its migrations are this
 * version's first ones (a backup made by a newer version is refused; an older one is upgraded after).
 */
export function checkRestorable(contents: BackupContents): void {
  const known = identityMigrationFiles();
  const foreign = contents.migrations.filter((m) => !known.includes(m));
  if (foreign.length || contents.migrations.some((m, i) => known[i] !== m)) {
    throw new RestoreRefused(
      `This backup was made by another version of the identity provider (migrations ${foreign.join(', ') || 'out of order'} are not this version's). Restore it with the version that made it, or a newer one.`,
    );
  }
}

/**
 * Restores `contents` onto the store: its migrations are brought to the backup's, the rows inserted in one
 * transaction (triggers and foreign-key checks off: the rows are a consistent whole already, and no
 * webhook fires for them), the sequences set, then the newer migrations of this version applied (an
 * upgrade). A store with rows is refused unless `force`, which empties it in the same transaction.
 */
export async function restoreSnapshot(
  db: Database,
  contents: BackupContents,
  opts: { force: boolean },
): Promise<{ tables: number; rows: number; upgradedWith: string[] }> {
  checkRestorable(contents);
  const last = contents.migrations.at(-1)!;
  const applied = await appliedMigrations(db);
  const ahead = applied.filter((m) => !contents.migrations.includes(m));
  if (ahead.length) {
    throw new RestoreRefused(
      `This store has migrations the backup predates (${ahead.join(', ')}). Restore onto an empty store (a new PGlite directory, or an empty database or schema), then start the server: it upgrades the backup's data.`,
    );
  }
  await migrate(db, { until: last });
  let rowCount = 0;
  await db.transaction(async (tx) => {
    const present = (await tableNames(tx)).filter((t) => t !== MIGRATIONS_TABLE);
    const withRows: string[] = [];
    for (const table of present) {
      const [row] = await tx.query(`SELECT 1 AS found FROM ${ident(table)} LIMIT 1`);
      if (row) withRows.push(table);
    }
    if (withRows.length && !opts.force) {
      throw new RestoreRefused(
        `This store is not empty (${withRows.slice(0, 5).join(', ')}${withRows.length > 5 ? ', …' : ''} have rows). Restore onto a fresh store, or add --force to replace everything in it.`,
      );
    }
    // Triggers off before anything is replaced: the restored rows are history (no webhook, no audit event
    // of their own), and the audit log's append-only triggers would refuse the TRUNCATE of --force, which
    // replaces that log with the backup's as it replaces everything else.
    try {
      await tx.query(`SET LOCAL session_replication_role = replica`);
    } catch (err) {
      throw new RestoreRefused(
        `Restoring needs a database role that may set session_replication_role (a superuser, or on PostgreSQL 15+ one granted SET on it): ${(err as Error).message}`,
      );
    }
    if (withRows.length) await tx.query(`TRUNCATE ${present.map(ident).join(', ')}`);
    for (const { name, rows } of contents.tables) {
      if (name === MIGRATIONS_TABLE) continue;
      if (!present.includes(name)) {
        throw new RestoreRefused(`The backup holds a table this store lacks after its migrations: ${name}.`);
      }
      const columns = (await insertableColumns(tx, name)).map(ident).join(', ');
      for (let i = 0; i < rows.length; i += RESTORE_CHUNK) {
        const chunk = rows.slice(i, i + RESTORE_CHUNK);
        await tx.query(
          `INSERT INTO ${ident(name)} (${columns}) OVERRIDING SYSTEM VALUE
           SELECT ${columns} FROM json_populate_recordset(NULL::${ident(name)}, $1::json)`,
          [`[${chunk.join(',')}]`],
        );
        rowCount += chunk.length;
      }
    }
    const sequences = await sequenceNames(tx);
    for (const seq of contents.sequences) {
      if (!sequences.includes(seq.name)) continue;
      await tx.query(`SELECT setval($1::regclass, $2::bigint, $3)`, [
        ident(seq.name),
        seq.lastValue,
        seq.isCalled,
      ]);
    }
    await tx.query(`SET LOCAL session_replication_role = DEFAULT`);
  });
  const upgradedWith = await migrate(db);
  return { tables: contents.tables.length - 1, rows: rowCount, upgradedWith };
}
