#!/usr/bin/env node
// Builds the web app (web/dist) only when what it is built from changed since the last build:
// `npm start` calls it so that a second start serves at once. `--force` (what `npm run build` passes)
// builds whatever the stamp says.
//
// The stamp (web/dist/.build-inputs) is a SHA-256 of every file the build reads from the repository
// (web/ but its output and tests, contract/src, the lockfile, which pins every dependency including
// clerk-js and Vite), written only after a build succeeded: an interrupted or failed build leaves none,
// so the next start builds again. Environment variables do not enter the build (the server hands the
// page its configuration at run time, /app-config.json), so they are not part of the stamp.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = join(ROOT, 'web', 'dist', '.build-inputs');
const INPUTS = ['web', 'contract/src', 'package-lock.json'];
const SKIP = new Set(['node_modules', 'dist', 'test']);

function files(path, found) {
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).sort()) if (!SKIP.has(name)) files(join(path, name), found);
  } else found.push(path);
  return found;
}

function inputsHash() {
  const hash = createHash('sha256');
  for (const input of INPUTS)
    for (const file of files(join(ROOT, input), [])) {
      hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
    }
  return hash.digest('hex');
}

const force = process.argv.includes('--force');
const t0 = Date.now();
const wanted = inputsHash();
if (!force && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === wanted) {
  console.log(`web: the build is current (${Date.now() - t0} ms to check; npm run build forces one)`);
  process.exit(0);
}
const build = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: ROOT, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
writeFileSync(STAMP, wanted);
