import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { openDatabase, type Database } from '../src/db/database.ts';
import { runMigrations, type MigrationSet } from '../src/db/migrate.ts';
import { forEachBackend, type Store } from './support/backends.ts';

// A function body and a DO block: semicolons inside dollar quotes, which a split at `;` would break.
const WITH_FUNCTION = `
CREATE TABLE counters (name text PRIMARY KEY, value int NOT NULL);

CREATE FUNCTION bump(counter text) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  result int;
BEGIN
  INSERT INTO counters (name, value) VALUES (counter, 1)
    ON CONFLICT (name) DO UPDATE SET value = counters.value + 1
    RETURNING value INTO result;
  RETURN result;
END;
$$;

DO $$
BEGIN
  PERFORM bump('seeded');
  PERFORM bump('seeded');
END;
$$;
`;

// Creates a table, then fails: the table must not survive.
const FAILING = `
CREATE TABLE half_done (id int);
INSERT INTO half_done VALUES (1);
SELECT bump(NULL::text) / 0;
`;

forEachBackend('migrations', (backend) => {
  let store: Store;
  let db: Database;
  let dir: string;
  let set: MigrationSet;

  before(async () => {
    store = await backend.createStore({ empty: true });
    db = await openDatabase(store.options);
    dir = mkdtempSync(join(tmpdir(), 'migrations-test-'));
    set = { dir, table: 'test_migrations', lockKey: 4242001 };
  });
  after(async () => {
    await db.close();
    await store.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const recorded = async () =>
    (await db.query<{ name: string }>('SELECT name FROM test_migrations ORDER BY name')).map((r) => r.name);

  it('runs a file with a function body and a DO block whole, and records it', async () => {
    writeFileSync(join(dir, '001_counters.sql'), WITH_FUNCTION);
    assert.deepEqual(await runMigrations(db, set), ['001_counters.sql']);
    const [row] = await db.query<{ value: number }>("SELECT value FROM counters WHERE name = 'seeded'");
    assert.equal(row?.value, 2);
    const [bumped] = await db.query<{ v: number }>("SELECT bump('seeded') AS v");
    assert.equal(bumped?.v, 3);
    assert.deepEqual(await recorded(), ['001_counters.sql']);
    assert.deepEqual(await runMigrations(db, set), [], 'a second run applies nothing');
  });

  it('a failing file leaves nothing of itself, and the files before it stay recorded', async () => {
    writeFileSync(join(dir, '002_half.sql'), FAILING);
    writeFileSync(join(dir, '003_after.sql'), 'CREATE TABLE after_failure (id int);');
    await assert.rejects(runMigrations(db, set));
    assert.deepEqual(await recorded(), ['001_counters.sql']);
    const tables = await db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
        WHERE table_name IN ('half_done', 'after_failure') AND table_schema = current_schema()`,
    );
    assert.deepEqual(tables, [], 'neither the failed file nor a later one left a table');
    // The earlier file's function still runs: its transaction was committed before.
    const [bumped] = await db.query<{ v: number }>("SELECT bump('seeded') AS v");
    assert.equal(bumped?.v, 4);

    writeFileSync(join(dir, '002_half.sql'), 'CREATE TABLE half_done (id int);');
    assert.deepEqual(await runMigrations(db, set), ['002_half.sql', '003_after.sql']);
    assert.deepEqual(await recorded(), ['001_counters.sql', '002_half.sql', '003_after.sql']);
  });

  it('refuses a table name that is not a plain identifier', async () => {
    await assert.rejects(runMigrations(db, { ...set, table: 'x; DROP TABLE counters' }), /Invalid/);
  });
});
