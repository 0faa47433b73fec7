import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * SQL lives in `identity/src/store/` (queries, one file per table or concern) and `identity/src/db/` (the
 * connection and the migrations): routes and services call store functions (issue #12). This scans the
 * source for query calls anywhere else.
 */

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const SQL_HOMES = ['store/', 'db/'];

/** `.query(` and `.query<Row>(`, also split over lines (`tx\n  .query(`). */
const QUERY_CALL = /\.query\s*(<|\()/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** Each file (relative to src/, `/`-separated) with the lines of its query calls. */
function queryCalls(): Map<string, number[]> {
  const calls = new Map<string, number[]>();
  for (const path of sourceFiles(SRC)) {
    const text = readFileSync(path, 'utf8');
    const lines = [...text.matchAll(QUERY_CALL)].map((m) => text.slice(0, m.index).split('\n').length);
    if (lines.length) calls.set(relative(SRC, path).split(sep).join('/'), lines);
  }
  return calls;
}

it('finds the query calls it looks for (the store itself is full of them)', () => {
  const inStore = [...queryCalls().keys()].filter((file) => file.startsWith('store/'));
  assert.ok(inStore.length >= 10, `only ${inStore.length} store files with queries found`);
});

it('has no SQL query outside identity/src/store/ and identity/src/db/', () => {
  const stray = [...queryCalls()]
    .filter(([file]) => !SQL_HOMES.some((home) => file.startsWith(home)))
    .map(([file, lines]) => `identity/src/${file}:${lines.join(',')}`);
  assert.deepEqual(stray, [], 'move these queries into a store/ module and call it by name');
});
