import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase, runMigrations, type MigrationSet } from '@app/identity';
import { IDENTITY_MIGRATIONS } from '../../../identity/src/db/migrate.ts';
import { PRODUCT_MIGRATIONS } from '../../src/db/product-database.ts';

/*
 * Every end-to-end file and server test starts a server on a fresh data directory, whose two PGlite clusters (the
 * provider's in `pglite`, the product's in `product`) would each run initdb and every migration: seconds
 * per file on a busy 2-core machine. Instead the first file of a run migrates both once into
 * node_modules/.cache (named after the migrations' text and PGlite's version, so a changed migration
 * makes a new one) and every fresh data directory starts as a copy. Only the migrations run there: the
 * instance, its keys and its secret key file are made by each server at its first start, as on a new
 * install. A file that passes its own data directory (a restart) gets no copy.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'server-data-template');
const SETS: Record<string, MigrationSet> = { pglite: IDENTITY_MIGRATIONS, product: PRODUCT_MIGRATIONS };

function templateHash(): string {
  const hash = createHash('sha256');
  const pglite = JSON.parse(
    readFileSync(join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8'),
  ) as { version: string };
  hash.update(`pglite ${pglite.version}\n`);
  for (const [name, set] of Object.entries(SETS)) {
    hash.update(`${name}\n`);
    for (const file of readdirSync(set.dir).sort()) {
      if (file.endsWith('.sql')) hash.update(`${file}\n`).update(readFileSync(join(set.dir, file)));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

let template: Promise<string> | undefined;

/** The migrated template directory of this run, built by the first file that needs it. */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const path = join(CACHE_DIR, templateHash());
    if (existsSync(path)) return path;
    mkdirSync(CACHE_DIR, { recursive: true });
    // Built aside then renamed: a file running beside this one sees a whole template or none.
    const partial = mkdtempSync(`${path}.partial-`);
    for (const [name, set] of Object.entries(SETS)) {
      const db = await openDatabase({ dataDir: join(partial, name) });
      try {
        await runMigrations(db, set);
      } finally {
        await db.close();
      }
    }
    try {
      renameSync(partial, path);
    } catch {
      // Another file renamed its own first: use that one.
      rmSync(partial, { recursive: true, force: true });
    }
    return path;
  })();
  return template;
}

/** Fills a new, empty data directory with the migrated clusters. */
export async function seedDataDir(dataDir: string): Promise<void> {
  const from = await migratedTemplate();
  for (const name of Object.keys(SETS)) {
    cpSync(join(from, name), join(dataDir, name), { recursive: true });
  }
}
