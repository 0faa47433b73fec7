// The documentation names environment variables, npm scripts and CLI commands; each must exist, and every
// variable the code reads must be documented. A mismatch names the variable or command and where it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { USAGE } from '../../identity/src/cli/run-cli.ts';

const ROOT = new URL('../..', import.meta.url).pathname;

/** Where the code reads its environment: the servers, the web build, the scripts and the test support. */
const CODE_DIRS = [
  'identity/src',
  'identity/test/support',
  'server/src',
  'server/test/support',
  'e2e/support',
  'bench',
  'scripts',
];
const CODE_FILES = ['web/vite.config.ts'];

function walk(dir: string, keep: (path: string) => boolean, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, keep, out);
    else if (keep(path)) out.push(path);
  }
  return out;
}

const isCode = (path: string) => /\.(ts|tsx|mjs|js)$/.test(path) && !/\.test\.ts$/.test(path);

function codeFiles(): string[] {
  const files = CODE_DIRS.flatMap((dir) => walk(join(ROOT, dir), isCode));
  return [...files, ...CODE_FILES.map((file) => join(ROOT, file))];
}

function docFiles(): string[] {
  return [join(ROOT, 'README.md'), ...walk(join(ROOT, 'docs'), (path) => path.endsWith('.md'))];
}

const rel = (path: string) => relative(ROOT, path);

/** name → the files that read it. */
export function variablesReadByCode(files: string[]): Map<string, Set<string>> {
  const patterns = [
    // process.env.X, env.X, env?.X, but not Vite's import.meta.env.PROD and friends
    /(?<!import\.meta\.)\benv\??\.([A-Z][A-Z0-9_]*)\b/g,
    /\benv\[['"]([A-Z][A-Z0-9_]*)['"]\]/g,
    // helpers that take the environment and a variable's name: positiveInteger(env, 'NAME', …)
    /\benv\s*,\s*['"]([A-Z][A-Z0-9_]*)['"]/g,
  ];
  const found = new Map<string, Set<string>>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of patterns) {
      for (const match of text.matchAll(pattern)) {
        const name = match[1]!;
        if (!found.has(name)) found.set(name, new Set());
        found.get(name)!.add(rel(file));
      }
    }
  }
  return found;
}

/**
 * name → the documents whose settings tables list it. A settings table is a Markdown table whose first
 * column is headed `variable`; every backquoted NAME in a row's first cell counts.
 */
export function variablesDocumented(files: string[]): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const file of files) {
    let inTable = false;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.startsWith('|')) {
        inTable = false;
        continue;
      }
      const firstCell = line.split('|')[1]!.trim();
      if (/^variables?$/i.test(firstCell)) {
        inTable = true;
        continue;
      }
      if (!inTable) continue;
      for (const match of firstCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) {
        const name = match[1]!;
        if (!found.has(name)) found.set(name, new Set());
        found.get(name)!.add(rel(file));
      }
    }
  }
  return found;
}

const listing = (names: Map<string, Set<string>>) =>
  [...names].map(([name, where]) => `  ${name} (${[...where].sort().join(', ')})`).join('\n');

test('every environment variable the code reads is in a settings table of the documentation', () => {
  const read = variablesReadByCode(codeFiles());
  const documented = variablesDocumented(docFiles());
  const missing = new Map([...read].filter(([name]) => !documented.has(name)));
  assert.equal(
    missing.size,
    0,
    `read by the code but in no settings table (add a row to docs/configuration.md, or docs/testing.md for test ` +
      `variables):\n${listing(missing)}`,
  );
});

test('every variable of a settings table is one the code reads', () => {
  const read = variablesReadByCode(codeFiles());
  const documented = variablesDocumented(docFiles());
  const unknown = new Map([...documented].filter(([name]) => !read.has(name)));
  assert.equal(unknown.size, 0, `documented but read nowhere in the code:\n${listing(unknown)}`);
});

test('the settings tables are found, so the checks above check something', () => {
  const documented = variablesDocumented(docFiles());
  for (const name of ['PORT', 'DATABASE_URL', 'IDENTITY_SECRET_KEY', 'TEST_DATABASE_URL']) {
    assert.ok(documented.has(name), `${name} is in no settings table: were the tables renamed?`);
  }
  assert.ok(
    variablesReadByCode(codeFiles()).has('IDENTITY_LOCKOUT_FREE_ATTEMPTS'),
    'helper-read names are seen',
  );
});

interface PackageJson {
  scripts?: Record<string, string>;
  workspaces?: string[];
}

const readPackage = (dir: string): PackageJson =>
  JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as PackageJson;

test('every `npm run` in the documentation is a script of package.json', () => {
  const root = readPackage('.');
  const problems: string[] = [];
  for (const file of docFiles()) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/npm run ([\w:.-]+)((?:\s+(?:-w|--workspace)[ =]\S+)?)/g)) {
      const script = match[1]!;
      const workspace = /(?:-w|--workspace)[ =](\S+)/.exec(match[2] ?? '')?.[1]?.replace(/[`)]+$/, '');
      const scripts = workspace ? readPackage(workspace).scripts : root.scripts;
      if (!scripts || !(script in scripts)) {
        problems.push(`  npm run ${script}${workspace ? ` -w ${workspace}` : ''} (${rel(file)})`);
      }
    }
  }
  assert.deepEqual(problems, [], `not a script of ${'package.json'}:\n${problems.join('\n')}`);
});

test('every `npm run identity -- <command>` in the documentation is a command of the identity CLI', () => {
  // The help as the CLI prints it, assembled from the capabilities' declarations (identity/src/cli/run-cli.ts).
  const commands = new Set([...USAGE.matchAll(/^ {2}([a-z][a-z-]+)\b/gm)].map((match) => match[1]!));
  const problems: string[] = [];
  for (const file of docFiles()) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/npm run identity -- ([a-z][a-z-]+)/g)) {
      if (!commands.has(match[1]!)) problems.push(`  ${match[1]} (${rel(file)})`);
    }
  }
  assert.deepEqual(problems, [], `not a command of the identity CLI (its USAGE):\n${problems.join('\n')}`);
});
