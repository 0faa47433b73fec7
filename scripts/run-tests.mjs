#!/usr/bin/env node
// Runs every *.test.ts under the given workspaces (or the given test files) with Node's test runner
// (TypeScript through tsx). Node 20's runner takes no globs, so the files are listed here.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const workspaces = process.argv.slice(2);
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.test.ts')) files.push(path);
  }
};
for (const ws of workspaces) {
  if (statSync(ws).isDirectory()) walk(ws);
  else files.push(ws);
}
if (files.length === 0) {
  console.error(`no test files found in ${workspaces.join(', ')}`);
  process.exit(1);
}
const concurrency =
  process.env.TEST_CONCURRENCY ?? (workspaces.some((ws) => ws.startsWith('e2e')) ? '1' : '2');
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files.sort()],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(result.status ?? 1);
