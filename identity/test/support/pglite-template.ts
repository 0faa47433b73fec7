import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { Database, PgliteStart } from '../../src/db/database.ts';
import { IDENTITY_MIGRATIONS, migrate } from '../../src/db/migrate.ts';

/*
 * A fresh in-memory PGlite runs initdb, then the identity provider runs its 25+ migrations: several
 * seconds per test set-up on a busy 2-core machine, most of a short test file's time. Instead the first
 * file of a run migrates one cluster and dumps its data directory to node_modules/.cache (named after the
 * migrations' text and PGlite's version, so a changed migration makes a new one; `npm ci` wipes it); every
 * in-memory store then starts from that dump, with the WebAssembly compiled once per process. The dump is
 * what the real migrations produced: migrations.test.ts and database.test.ts still start from empty
 * clusters (createStore({ empty: true })) to test the migrations themselves.
 */

const require = createRequire(import.meta.url);
const PGLITE_DIST = dirname(require.resolve('@electric-sql/pglite'));
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'identity-test');

/** Changed whenever migratedDump() builds the cluster differently, so a cached dump is not reused. */
const TEMPLATE_RECIPE = 'wal-segsize=1, min_wal_size=2MB, no template databases';

/** A short hash of the migrations' text and PGlite's version: a changed migration makes a new template. */
export function migrationsHash(): string {
  const hash = createHash('sha256');
  const pkg = JSON.parse(readFileSync(join(PGLITE_DIST, '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  hash.update(`pglite ${pkg.version}\n${TEMPLATE_RECIPE}\n`);
  for (const file of readdirSync(IDENTITY_MIGRATIONS.dir).sort()) {
    if (!file.endsWith('.sql')) continue;
    hash.update(`${file}\n`).update(readFileSync(join(IDENTITY_MIGRATIONS.dir, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

/** migrate() on a bare PGlite handle, whose data directory can then be dumped. */
function asDatabase(lite: PGlite): Database {
  return {
    kind: 'pglite',
    query: async (sql, params) => (await lite.query(sql, params)).rows as never[],
    transaction: (fn) =>
      lite.transaction((tx) =>
        fn({
          query: async (sql, params) => (await tx.query(sql, params)).rows as never[],
          exec: async (sql) => {
            await tx.exec(sql);
          },
        }),
      ),
    close: () => lite.close(),
  };
}

const dumpPath = () => join(CACHE_DIR, `pglite-migrated-${migrationsHash()}.tar`);

/**
 * A Blob whose bytes PGlite reads at every start (`arrayBuffer()`), answered from memory. Node's own Blob
 * streams its bytes out in 64 KiB chunks and concatenates them, every time: for the 44 MB dump that was
 * about half of a store's 1.3 core-seconds of start. PGlite only reads the copy it is given.
 */
function inMemoryBlob(bytes: Uint8Array): Blob {
  const blob = new Blob([]);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return Object.defineProperties(blob, {
    size: { value: bytes.byteLength },
    arrayBuffer: { value: () => Promise.resolve(buffer.slice(0)) },
  });
}

async function migratedDump(engine: Omit<PgliteStart, 'loadDataDir'>): Promise<Blob> {
  const path = dumpPath();
  try {
    return inMemoryBlob(readFileSync(path));
  } catch {
    // First file of this run (or of these migrations): build it.
  }
  // Every store loads the whole dump at its start: WAL segments of 1 MB instead of 16 (initdb's
  // --wal-segsize) and no template databases (only CREATE DATABASE reads them, which no store runs) take
  // it from 44 to 13 MB. The schema and data are the migrations' own.
  const lite = await PGlite.create({
    ...engine,
    initDbStartParams: ['--wal-segsize=1'],
    // Past segments deleted at the checkpoint, not kept for reuse.
    startParams: [...PGlite.defaultStartParams, '-c', 'min_wal_size=2MB', '-c', 'wal_recycle=off'],
  });
  await migrate(asDatabase(lite));
  for (const template of ['template0', 'template1']) {
    await lite.exec(`UPDATE pg_database SET datistemplate = false WHERE datname = '${template}'`);
    await lite.exec(`DROP DATABASE ${template}`);
  }
  await lite.exec('CHECKPOINT');
  const dump = await lite.dumpDataDir('none');
  await lite.close();
  const bytes = new Uint8Array(await dump.arrayBuffer());
  // Written aside then renamed: a file running beside this one reads a whole dump or none.
  mkdirSync(CACHE_DIR, { recursive: true });
  const partial = `${path}.${process.pid}`;
  writeFileSync(partial, bytes);
  renameSync(partial, path);
  return inMemoryBlob(bytes);
}

let start: Promise<PgliteStart> | undefined;

/** How an in-memory store starts: from the migrated dump, with this process's compiled engine. */
export function migratedPglite(): Promise<PgliteStart> {
  start ??= (async () => {
    const engine = {
      pgliteWasmModule: await WebAssembly.compile(readFileSync(join(PGLITE_DIST, 'pglite.wasm'))),
      fsBundle: inMemoryBlob(readFileSync(join(PGLITE_DIST, 'pglite.data'))),
    };
    return { ...engine, loadDataDir: await migratedDump(engine) };
  })();
  return start;
}

/**
 * Lays the migrated dump out as an on-disk PGlite data directory `dir` (the dump is a tar of one), for a
 * store the command line opens itself that need not test the migrations: opened, it starts migrated.
 */
export async function migratedPgliteDir(dir: string): Promise<void> {
  await migratedPglite();
  mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['-xf', dumpPath(), '-C', dir], { stdio: 'ignore' });
}
