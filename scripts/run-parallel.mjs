#!/usr/bin/env node
// Runs npm scripts side by side and fails when any fails.
//
//   node scripts/run-parallel.mjs typecheck lint cycles     each one's output printed whole when it ends
//   node scripts/run-parallel.mjs test:all --idle typecheck lint cycles
//                                                            the scripts after --idle run at the lowest CPU
//                                                            priority (nice 19), beside the others
//
// With one script before --idle, that script's output streams as it comes (the test run's), and the
// others' is printed when they end.
//
// For `npm test`: the type check, the lint and the import-cycle check take about 150 core-seconds, and the
// test pool leaves about a tenth of the machine idle while its files wait (token lifetimes, restarts, the
// end of the run). At the lowest priority the checks take what the tests leave instead of running before
// them with the cores to themselves: Linux gives a nice-19 process (and a session weighted as one, below)
// about 1/70 of a core that a normal one wants. scripts/run-tests.mjs counts that time as idle when it
// decides to start one more test process.
import { spawn } from 'node:child_process';

const args = process.argv.slice(2);
const split = args.indexOf('--idle');
const normal = split === -1 ? args : args.slice(0, split);
const idle = split === -1 ? [] : args.slice(split + 1);
const streamed = idle.length > 0 && normal.length === 1 ? normal[0] : null;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const started = Date.now();

// Linux schedules each session's processes as one group (autogroup) before it weighs nice values, and the
// test runner starts each test file in a session of its own: a nice value alone would leave the checks a
// group's full share against every test file. So a low-priority script starts a session of its own and
// lowers that group's weight too (/proc/self/autogroup), then runs at nice 19 within it.
const LOW_PRIORITY = 'echo 19 > /proc/self/autogroup 2>/dev/null; exec nice -n 19 "$0" run --silent "$1"';
const detachedChildren = new Set();

function run(name, lowPriority) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const low = lowPriority && process.platform === 'linux';
    const child = spawn(low ? 'sh' : npm, low ? ['-c', LOW_PRIORITY, npm, name] : ['run', '--silent', name], {
      stdio: ['ignore', name === streamed ? 'inherit' : 'pipe', name === streamed ? 'inherit' : 'pipe'],
      detached: low,
    });
    if (low) detachedChildren.add(child);
    const chunks = [];
    child.stdout?.on('data', (c) => chunks.push(c));
    child.stderr?.on('data', (c) => chunks.push(c));
    child.on('close', (code) => {
      detachedChildren.delete(child);
      const seconds = ((Date.now() - t0) / 1000).toFixed(1);
      const how = lowPriority ? ', at the lowest priority' : '';
      process.stdout.write(`\n━━ ${code === 0 ? 'pass' : 'FAIL'} npm run ${name} (${seconds} s${how})\n`);
      process.stdout.write(Buffer.concat(chunks));
      resolve({ name, ok: code === 0 });
    });
  });
}

// A session of its own does not see the terminal's Ctrl-C, nor a CI timeout's signal: pass them on.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    for (const child of detachedChildren) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    }
    process.exit(130);
  });
}

const results = await Promise.all([...normal.map((n) => run(n, false)), ...idle.map((n) => run(n, true))]);
const failed = results.filter((r) => !r.ok).map((r) => r.name);
console.log(
  `\n${[...normal, ...idle].join(', ')}: ${failed.length ? `FAILED: ${failed.join(', ')}` : 'passed'} in ` +
    `${((Date.now() - started) / 1000).toFixed(0)} s`,
);
process.exit(failed.length ? 1 : 0);
