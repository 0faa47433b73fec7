#!/usr/bin/env node
// Runs the given npm scripts side by side (`node scripts/run-parallel.mjs typecheck lint build`), prints
// each one's output whole when it ends, and fails when any fails. For `npm test`: the type check, the lint
// and the web build are single-threaded most of their time and independent of each other, so on a 2-core
// machine running them together takes about the longest one's time instead of the sum.
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const started = Date.now();
const results = await Promise.all(
  names.map(
    (name) =>
      new Promise((resolve) => {
        const t0 = Date.now();
        const child = spawn(npm, ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'] });
        const chunks = [];
        child.stdout.on('data', (c) => chunks.push(c));
        child.stderr.on('data', (c) => chunks.push(c));
        child.on('close', (code) => {
          const seconds = ((Date.now() - t0) / 1000).toFixed(1);
          process.stdout.write(`\n━━ ${code === 0 ? 'pass' : 'FAIL'} npm run ${name} (${seconds} s)\n`);
          process.stdout.write(Buffer.concat(chunks));
          resolve({ name, ok: code === 0 });
        });
      }),
  ),
);
const failed = results.filter((r) => !r.ok).map((r) => r.name);
console.log(
  `\n${names.join(', ')}: ${failed.length ? `FAILED: ${failed.join(', ')}` : 'passed'} in ` +
    `${((Date.now() - started) / 1000).toFixed(0)} s`,
);
process.exit(failed.length ? 1 : 0);
