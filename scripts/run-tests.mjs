#!/usr/bin/env node
// Runs every *.test.ts under the given workspaces (or the given test files), a few processes at a time:
// files in groups, one after the other in one Node process each (scripts/test-group.mjs), each file's
// output, duration and CPU reported as if it had run alone; a file alone, or marked (below), in a Node
// test-runner process of its own. The files run as bundles (scripts/test-bundle.mjs), or through tsx.
//
//   node scripts/run-tests.mjs identity server            every test file under these folders
//   node scripts/run-tests.mjs e2e IDENTITY_KEYS=development e2e/tests/sign-in.test.ts
//                                                          a NAME=value argument sets that variable for the
//                                                          files named after it (here: sign-in runs twice,
//                                                          the second time with development keys)
//
// The files share one pool of TEST_CONCURRENCY slots, whatever their settings, so a second set (the
// development-keys e2e run) fills the slots the first leaves idle instead of running after it. Files that
// took longest last time start first (durations kept in scripts/test-durations.json, which is committed so
// that a fresh clone and CI order by it too; files it does not know yet start first among the rest), so
// that no long file starts last and runs alone. A file's output is
// printed whole when it ends (streamed when only one file runs), then a table of durations.
//
// A file with a line beginning `// run-tests: own-process`, or one that sets process.env at its top level
// (e.g. the password hashing cost, read by every test of the process), runs in a process of its own.
// A file with a line beginning `// run-tests: alone` runs with no other file beside it: those start
// several server processes and PostgreSQL clusters of their own and wait for them with deadlines, which
// a second file's load on a 2-core machine could push past. They run first, one after the other.
import {
  accessSync,
  constants,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bundleTests } from './test-bundle.mjs';
import { END_MARK, writeGroupEntry } from './test-group.mjs';
import { REPORT_MARK } from './test-group-reporter.mjs';
import { TEST_SETS } from './test-sets.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DURATIONS = join(ROOT, 'scripts', 'test-durations.json');
const ALONE = /^\/\/ run-tests: alone\b/m;
// A file that changes what the whole process shares (process.env read by every test, e.g. the password
// hashing cost) at its top level runs in a process of its own.
const OWN_PROCESS = /^\/\/ run-tests: own-process\b|^process\.env\b/m;

/** @type {{ file: string, env: Record<string, string>, label: string, alone: boolean, own: boolean }[]} */
const jobs = [];
let env = {};
const walk = (dir, found) => {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, found);
    else if (name.endsWith('.test.ts')) found.push(path);
  }
  return found;
};
// `@name` stands for a named set of arguments (scripts/test-sets.mjs); its settings end with it.
const args = process.argv.slice(2).flatMap((arg) => {
  if (!arg.startsWith('@')) return [arg];
  const set = TEST_SETS[arg.slice(1)];
  if (!set) throw new Error(`unknown test set ${arg} (scripts/test-sets.mjs)`);
  return ['@begin', ...set, '@end'];
});
let outside = env;
for (const arg of args) {
  if (arg === '@begin') {
    outside = env;
    continue;
  }
  if (arg === '@end') {
    env = outside;
    continue;
  }
  const setting = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(arg);
  if (setting) {
    env = { ...env, [setting[1]]: setting[2] };
    continue;
  }
  const files = statSync(arg).isDirectory() ? walk(arg, []).sort() : [arg];
  const tag = Object.entries(env)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const alone = ALONE.test(text);
    jobs.push({
      file,
      env,
      label: tag ? `${file} [${tag}]` : file,
      alone,
      own: alone || OWN_PROCESS.test(text),
    });
  }
}
if (jobs.length === 0) {
  console.error(`no test files found in ${process.argv.slice(2).join(', ')}`);
  process.exit(1);
}

let previous = {};
try {
  previous = JSON.parse(readFileSync(DURATIONS, 'utf8'));
} catch {
  // first run in this clone
}
const key = (job) =>
  relative(ROOT, job.file) + (job.label === job.file ? '' : job.label.slice(job.file.length));
const expected = (job) => {
  if (previous[key(job)] !== undefined) return previous[key(job)];
  // Unknown files first among the rest: a new file may be long.
  return 1e8;
};
// A stable sort: equal expectations keep the order given.
const queue = jobs
  .map((job, i) => ({ job, i }))
  .sort((a, b) => expected(b.job) - expected(a.job) || a.i - b.i);

// Test processes run bundles of the test files (scripts/test-bundle.mjs); TEST_BUNDLE=0 runs the
// TypeScript sources through tsx instead, as `node --import tsx --test file.ts` would.
const BUILD_DIR = join(ROOT, 'node_modules', '.cache', 'test-build', String(process.pid));
const bundles =
  process.env.TEST_BUNDLE === '0'
    ? null
    : await bundleTests(ROOT, [...new Set(jobs.map((job) => job.file))], BUILD_DIR);
/**
 * Each file's temporary directory (TMPDIR, where its servers' data directories, PGlite copies and
 * PostgreSQL clusters go): its own folder under /dev/shm when the machine has that memory file system,
 * removed when the file ends, so nothing a file leaves behind outlives it. Copying an 80 MB data-directory
 * template and deleting it cost the disk ≈ 3 s per end-to-end file; in memory a fraction of that. The data
 * itself behaves the same (tests kill processes, not the machine). TEST_TMPDIR names another parent;
 * TEST_TMPDIR=os keeps the system's.
 */
const TMP_ROOT = (() => {
  const asked = process.env.TEST_TMPDIR;
  if (asked === 'os') return null;
  const parent = asked || '/dev/shm';
  try {
    accessSync(parent, constants.W_OK);
    return join(parent, `test-run-${process.pid}`);
  } catch {
    return null;
  }
})();
let tmpCount = 0;
const removeBuild = () => {
  rmSync(BUILD_DIR, { recursive: true, force: true });
  if (TMP_ROOT) rmSync(TMP_ROOT, { recursive: true, force: true });
};

const concurrency = Math.max(1, Number(process.env.TEST_CONCURRENCY ?? 2));
const stream = jobs.length === 1;
const results = [];
const started = Date.now();

// Stopping the runner stops the files it runs (a CI timeout signals only the runner).
const children = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    for (const child of children) signalTree(child, signal);
    removeBuild();
    process.exit(130);
  });
}
process.on('exit', () => {
  for (const child of children) signalTree(child, 'SIGKILL');
});

/**
 * Signals a test process and every process of its group (each starts a group of its own): `node --test`
 * runs the file in a child process, which a signal to the parent alone leaves running, an orphan that
 * kept its CPU and its Chromium after its file was reported stopped.
 */
function signalTree(child, signal) {
  try {
    if (process.platform === 'win32') throw new Error('no process groups');
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

/**
 * CPU seconds of the runner's waited-for children so far (Linux: cutime + cstime of /proc/self/stat),
 * which include each file's own children (servers, Chromium) once reaped; null elsewhere. Read when a file
 * ends, the growth since the last read is that file's: a file whose CPU is far below its wall time is
 * waiting (a timer, a lock, a connection that will not close), not working.
 */
const TICKS_PER_SECOND = 100;
function childrenCpu() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}
let lastChildrenCpu = childrenCpu();

// Node refuses --test-name-pattern in NODE_OPTIONS; TEST_NAME_PATTERN passes it to every file.
const only = process.env.TEST_NAME_PATTERN ? [`--test-name-pattern=${process.env.TEST_NAME_PATTERN}`] : [];
// Node options NODE_OPTIONS refuses too, for every test process: TEST_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'.
const nodeArgs = process.env.TEST_NODE_ARGS ? process.env.TEST_NODE_ARGS.split(/\s+/).filter(Boolean) : [];

/** How long one test process may run: a group is about a minute, the longest file under two. */
const PROCESS_TIMEOUT_S = Number(process.env.TEST_PROCESS_TIMEOUT ?? 600);
const STOPPED = `stopped after ${PROCESS_TIMEOUT_S} s`;

/** Starts one test process with its own TMPDIR; `output` collects what it prints unless streamed. */
function spawnTest(args, jobEnv, onOutput) {
  const tmp = TMP_ROOT && join(TMP_ROOT, String(++tmpCount));
  if (tmp) {
    mkdirSync(tmp, { recursive: true });
    // tsx keeps its compiled files in TMPDIR/tsx-<uid>: the processes a file starts through tsx share the
    // system's, which outlives the file, instead of compiling everything again.
    const tsxCache = `tsx-${process.getuid?.() ?? 0}`;
    mkdirSync(join(tmpdir(), tsxCache), { recursive: true });
    symlinkSync(join(tmpdir(), tsxCache), join(tmp, tsxCache));
  }
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd: process.cwd(),
    detached: process.platform !== 'win32',
    env: { ...process.env, NODE_ENV: 'test', ...(tmp ? { TMPDIR: tmp } : {}), ...jobEnv },
    stdio: stream ? 'inherit' : ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  if (!stream) {
    child.stdout.on('data', (c) => onOutput(c, 'stdout'));
    child.stderr.on('data', (c) => onOutput(c, 'stderr'));
  }
  // A process that outlives PROCESS_TIMEOUT_S hangs (a handle left open, a wait that never ends): it and
  // its group are stopped (SIGTERM lets Playwright close its Chromium; SIGKILL 10 s later) instead of
  // holding the run.
  let timedOut = false;
  const watchdog = setTimeout(() => {
    timedOut = true;
    signalTree(child, 'SIGTERM');
    setTimeout(() => signalTree(child, 'SIGKILL'), 10_000).unref();
  }, PROCESS_TIMEOUT_S * 1000);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(watchdog);
      children.delete(child);
      // What the file left running in its group (a process it started and did not stop, the file's own
      // process when `node --test` was stopped above it) ends with it.
      signalTree(child, 'SIGKILL');
      if (tmp) rmSync(tmp, { recursive: true, force: true });
      const cpuNow = childrenCpu();
      const cpu = cpuNow === null || lastChildrenCpu === null ? null : cpuNow - lastChildrenCpu;
      lastChildrenCpu = cpuNow;
      resolve({ code, signal, cpu, timedOut });
    });
  });
}

const moduleOf = (job) => bundles?.get(job.file) ?? job.file;
const runtime = () => (bundles ? ['--enable-source-maps'] : ['--import', 'tsx']);

function report(job, seconds, cpu, ok, why, output) {
  if (!stream) {
    process.stdout.write(`\n━━ ${ok ? 'pass' : 'FAIL'} ${job.label} (${seconds.toFixed(1)} s)\n`);
    process.stdout.write(output);
  }
  results.push({ job, seconds, cpu, ok, why, excerpt: ok ? '' : failureExcerpt(String(output)) });
}

/** How many lines of a failed file's own account the closing summary repeats. */
const EXCERPT_LINES = 40;
/** e2e/support/suite.ts's FAILURE_MARK. */
const PAGE_AT_FAILURE = 'page at failure: ';

/**
 * The start of the test runner's "failing tests" account of a failed file (the assertion and where), or
 * the output's last lines without one: repeated at the very end, where a CI log cut to its tail keeps it.
 */
function failureExcerpt(output) {
  // eslint-disable-next-line no-control-regex
  const lines = output.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  const start = lines.findIndex((l) => l.includes('failing tests:'));
  const picked = start >= 0 ? lines.slice(start + 1, start + 1 + EXCERPT_LINES) : lines.slice(-EXCERPT_LINES);
  // Where a failed end-to-end test's tabs stood (e2e/support/suite.ts): printed beside the test, not
  // under "failing tests".
  const pages = lines.filter((l) => l.includes(PAGE_AT_FAILURE)).slice(0, 6);
  return [...picked, ...pages].filter((l) => l.trim() !== '').join('\n');
}

/** One file in a Node test-runner process of its own. */
async function run(job) {
  const t0 = Date.now();
  const chunks = [];
  const { code, signal, cpu, timedOut } = await spawnTest(
    ['--test', '--test-reporter=spec', ...only, ...runtime(), moduleOf(job)],
    job.env,
    (c) => chunks.push(c),
  );
  const ok = code === 0 && !timedOut;
  const why = timedOut ? STOPPED : (signal ?? `exit ${code}`);
  report(job, (Date.now() - t0) / 1000, cpu, ok, ok ? '' : why, Buffer.concat(chunks));
}

/**
 * Several files one after the other in one process (scripts/test-group.mjs), each with its own output,
 * duration and CPU as if alone. A file the group did not finish (the process died) runs again alone, so
 * that the file at fault is named by its own run.
 */
async function runGroup(group) {
  const t0 = Date.now();
  const id = ++groupCount;
  const entry = join(BUILD_DIR, 'groups', `${id}.mjs`);
  const reportFile = join(BUILD_DIR, 'groups', `${id}.out`);
  mkdirSync(dirname(entry), { recursive: true });
  writeGroupEntry(
    entry,
    group.map((job) => ({ name: job.label, module: moduleOf(job) })),
  );
  // Each file's output: what it printed (cut at the marks the entry writes after each file), in order.
  const pieces = group.map(() => []);
  const marks = [];
  const current = { stdout: 0, stderr: 0 };
  const pending = { stdout: '', stderr: '' };
  const onOutput = (chunk, name) => {
    let text = pending[name] + chunk.toString('utf8');
    for (let at = text.indexOf(END_MARK); at !== -1; at = text.indexOf(END_MARK)) {
      const eol = text.indexOf('\n', at);
      if (eol === -1) break;
      pieces[Math.min(current[name], group.length - 1)].push(text.slice(0, at));
      const mark = JSON.parse(text.slice(at + END_MARK.length, eol));
      if (name === 'stdout') marks[mark.index] = mark;
      current[name] = mark.index + 1;
      text = text.slice(eol + 1);
    }
    // Keep a possible start of a mark for the next chunk.
    const keep = text.lastIndexOf('\x1e');
    pending[name] = keep === -1 ? '' : text.slice(keep);
    pieces[Math.min(current[name], group.length - 1)].push(keep === -1 ? text : text.slice(0, keep));
  };
  const { code, signal, cpu, timedOut } = await spawnTest(
    [
      `--test-reporter=${join(ROOT, 'scripts', 'test-group-reporter.mjs')}`,
      `--test-reporter-destination=${reportFile}`,
      ...only,
      ...runtime(),
      entry,
    ],
    group[0].env,
    onOutput,
  );
  for (const name of ['stdout', 'stderr'])
    pieces[Math.min(current[name], group.length - 1)].push(pending[name]);
  const reports = new Map();
  let text = '';
  try {
    text = readFileSync(reportFile, 'utf8');
  } catch {
    // the process died before its reporter wrote anything
  }
  for (const part of text.split(REPORT_MARK).slice(1)) {
    const eol = part.indexOf('\n');
    const head = JSON.parse(part.slice(0, eol));
    reports.set(head.index, { ok: head.ok, output: part.slice(eol + 1) });
  }
  const again = [];
  let seconds = 0;
  let used = 0;
  let hungFile = null;
  group.forEach((job, index) => {
    const done = reports.get(index);
    if (!done || !marks[index]) {
      // Stopped by the watchdog: the first file not done is the one that hung; the others run again.
      if (timedOut && !hungFile) {
        hungFile = job;
        report(job, (Date.now() - t0) / 1000 - seconds, null, false, STOPPED, pieces[index].join(''));
      } else again.push(job);
      return;
    }
    seconds += marks[index].seconds;
    used += marks[index].cpu;
    const last = index === group.length - 1;
    // The last file also carries the process's exit (and all of its CPU the marks did not see).
    const wall = last ? (Date.now() - t0) / 1000 - seconds + marks[index].seconds : marks[index].seconds;
    const fileCpu = last && cpu !== null ? Math.max(0, cpu - used + marks[index].cpu) : marks[index].cpu;
    // Every file done, yet the process had to be stopped: the last one left something open.
    const hung = last && timedOut;
    const why = hung ? `${STOPPED}: the process did not exit` : 'failed';
    report(
      job,
      wall,
      fileCpu,
      done.ok && !hung,
      done.ok && !hung ? '' : why,
      done.output + pieces[index].join(''),
    );
  });
  if (again.length > 0) {
    process.stdout.write(
      `\n━━ group process ended (${signal ?? `exit ${code}`}) before ${again.map((j) => j.label).join(', ')}` +
        ` ${again.length === 1 ? 'was' : 'were'} done: running ${again.length === 1 ? 'it' : 'them'} alone\n` +
        again.map((job) => pieces[group.indexOf(job)].join('')).join(''),
    );
    for (const job of again) await run(job);
  }
}

/**
 * Files that may share a process go in groups of about GROUP_SECONDS of their last durations (at most
 * TEST_GROUP files; TEST_GROUP=1 gives every file a process of its own), taken from the head of the
 * queue, longest first; near its end the groups shrink to a quarter of what is left per slot, so that the
 * slots finish together.
 */
const GROUP_SIZE = Math.max(1, Number(process.env.TEST_GROUP ?? 12));
const GROUP_SECONDS = 60;
let groupCount = 0;
function takeGroup(list) {
  const next = list.shift();
  const group = [next.job];
  let seconds = expected(next.job);
  // Near the end of the queue, smaller groups, so that the slots finish together.
  const left = list.reduce((sum, q) => sum + Math.min(expected(q.job), GROUP_SECONDS), seconds);
  const limit = Math.max(20, Math.min(GROUP_SECONDS * 1.25, left / (2 * concurrency)));
  while (
    !next.job.own &&
    group.length < GROUP_SIZE &&
    list[0] &&
    !list[0].job.own &&
    JSON.stringify(list[0].job.env) === JSON.stringify(next.job.env) &&
    seconds + expected(list[0].job) <= limit
  ) {
    seconds += expected(list[0].job);
    group.push(list.shift().job);
  }
  return group;
}
const runOne = (group) => (group.length === 1 ? run(group[0]) : runGroup(group));

/**
 * The machine's idle cores, averaged over the last IDLE_WINDOW samples of /proc/stat (one a second);
 * null where there is no /proc/stat. A test process that waits (a token lifetime, a server's restart, a
 * PostgreSQL round trip) leaves its core idle while the other slots cannot use it: then one more process
 * starts, up to TEST_MAX_CONCURRENCY, so that the machine stays busy without more processes than cores
 * fighting over it the rest of the time.
 */
const IDLE_WINDOW = 6;
const cores = availableParallelism();
const idleSamples = [];
let lastStat = null;
function sampleIdle() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // Idle, I/O wait and nice: the checks `npm test` runs beside the tests at the lowest priority
    // (scripts/run-parallel.mjs --idle) take only what the tests leave, so their time counts as idle.
    const idle = fields[3] + (fields[4] ?? 0) + fields[1];
    const total = fields.reduce((a, b) => a + b, 0);
    if (lastStat && total > lastStat.total) {
      idleSamples.push(((idle - lastStat.idle) / (total - lastStat.total)) * cores);
      if (idleSamples.length > IDLE_WINDOW) idleSamples.shift();
    }
    lastStat = { idle, total };
  } catch {
    // not Linux: no extra slots
  }
}
const idleCores = () =>
  idleSamples.length < IDLE_WINDOW ? 0 : idleSamples.reduce((a, b) => a + b, 0) / idleSamples.length;
const maxConcurrency = Math.max(concurrency, Number(process.env.TEST_MAX_CONCURRENCY ?? concurrency + 1));
/** An extra process starts when at least this much of a core was idle over the window. */
const IDLE_TO_START = 0.6;
let peak = 0;

/** Runs the groups of `list` in up to `concurrency` processes, and more while cores sit idle. */
function runPool(list) {
  return new Promise((done) => {
    let running = 0;
    const start = () => {
      running += 1;
      peak = Math.max(peak, running);
      // A new process needs a few seconds to load before its load shows: the window starts again.
      idleSamples.length = 0;
      void runOne(takeGroup(list)).then(() => {
        running -= 1;
        pump();
      });
    };
    const pump = () => {
      while (list.length > 0 && running < concurrency) start();
      if (list.length > 0 && running < maxConcurrency && idleCores() >= IDLE_TO_START) start();
      if (list.length === 0 && running === 0) {
        clearInterval(ticker);
        done();
      }
    };
    const ticker = setInterval(() => {
      sampleIdle();
      pump();
    }, 1000);
    sampleIdle();
    pump();
  });
}
// `alone` files one after the other, nothing beside them; then the rest.
for (const q of queue.filter((q) => q.job.alone)) await run(q.job);
await runPool(queue.filter((q) => !q.job.alone));

// An end-to-end file that failed runs once more, alone, when few did: a real browser on a loaded 2-core
// machine now and then loses a page load (a profile's tab that never shows the card it was sent to). A
// file that passes the second time is reported as flaky, with its first failure, and does not fail the
// run; one that fails again does. Many failures at once are a real break, not retried.
// (Playwright Test's own `retries` does the same per test.)
const E2E_RETRIES_UP_TO = Number(process.env.TEST_E2E_RETRIES_UP_TO ?? 3);
const flaky = [];
const firstFailures = results.filter((r) => !r.ok && r.job.file.startsWith('e2e/'));
if (firstFailures.length > 0 && firstFailures.length <= E2E_RETRIES_UP_TO) {
  for (const first of firstFailures) {
    if (!stream) process.stdout.write(`\n━━ again, alone: ${first.job.label}\n`);
    const at = results.length;
    await run(first.job);
    results.splice(results.indexOf(first), 1);
    if (results[at - 1]?.ok) flaky.push(first);
  }
}

removeBuild();

// Whole seconds, keys sorted: a run changes the file only where a file's time changed by a second or more.
const durations = { ...previous };
for (const r of results) durations[key(r.job)] = Math.round(r.seconds);
try {
  mkdirSync(dirname(DURATIONS), { recursive: true });
  const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(DURATIONS, `${JSON.stringify(sorted, null, 2)}\n`);
} catch {
  // a read-only checkout only loses the ordering hint
}

const failed = results.filter((r) => !r.ok);
const wall = (Date.now() - started) / 1000;
if (!stream) {
  console.log(
    `\n━━ durations (${results.length} files, ${concurrency} at a time, up to ${peak} while cores sat idle): wall, then CPU`,
  );
  for (const r of [...results].sort((a, b) => b.seconds - a.seconds)) {
    const cpu = r.cpu === null ? '' : `${r.cpu.toFixed(1).padStart(7)} s cpu`;
    console.log(`${r.seconds.toFixed(1).padStart(7)} s ${cpu}  ${r.ok ? '' : 'FAIL '}${r.job.label}`);
  }
  const cpus = results.map((r) => r.cpu);
  if (cpus.every((c) => c !== null))
    console.log(`CPU of all files: ${(cpus.reduce((a, b) => a + b, 0) / 60).toFixed(1)} min`);
}
for (const r of flaky)
  console.log(
    `\n━━ flaky: ${r.job.label} failed (${r.why}), then passed alone; its first failure\n${r.excerpt}`,
  );
for (const r of failed) console.log(`\n━━ why ${r.job.label} failed\n${r.excerpt}`);
console.log(
  `\n${results.length - failed.length}/${results.length} files passed in ${(wall / 60).toFixed(1)} min` +
    (flaky.length
      ? `; flaky (passed alone the second time): ${flaky.map((r) => r.job.label).join(', ')}`
      : '') +
    (failed.length ? `; failed:\n${failed.map((r) => `  ${r.job.label} (${r.why})`).join('\n')}` : ''),
);
process.exit(failed.length ? 1 : 0);
