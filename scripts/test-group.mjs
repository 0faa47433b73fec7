// Several test files in one Node process (scripts/run-tests.mjs). A process of its own per file loads the
// test bundle, compiles PGlite's WebAssembly and warms V8 up again every time: ≈ 5 core-seconds a file
// before its first test. A group runs its files one after the other in one process, each file's tests in a
// suite named after the file, so that the hooks a file declares at its top level (before, beforeEach…)
// stay its own, and a reporter (scripts/test-group-reporter.mjs) prints each file's output as if alone.
//
// The entry also marks, on stdout and stderr, where each file ends, with the wall and CPU seconds it took
// (the process's own CPU and that of the processes it waited for), so that the runner can give each file
// its output, its duration and its CPU.
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const END_MARK = '\x1erun-tests end ';

/**
 * Writes the entry of a group of bundled (or TypeScript, run through tsx) test files.
 * @param {string} entry where to write it (.mjs)
 * @param {{ name: string, module: string }[]} files each file's suite name and module path
 */
export function writeGroupEntry(entry, files) {
  const lines = [
    `import { after, describe } from 'node:test';`,
    `import { readFileSync } from 'node:fs';`,
    `const children = () => { try { const f = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\\) /, '').split(' '); return (Number(f[13]) + Number(f[14])) / 100; } catch { return 0; } };`,
    `const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6 + children(); };`,
    `let wall = 0, used = 0;`,
    `const mark = (index) => { const w = performance.now() / 1000, c = cpu(); const line = ${JSON.stringify(END_MARK)} + JSON.stringify({ index, seconds: w - wall, cpu: c - used }) + '\\n'; wall = w; used = c; process.stdout.write(line); process.stderr.write(line); };`,
    ...files.map(
      (file, index) =>
        `describe(${JSON.stringify(file.name)}, async () => { await import(${JSON.stringify(pathToFileURL(file.module).href)}); after(() => mark(${index})); });`,
    ),
  ];
  writeFileSync(entry, `${lines.join('\n')}\n`);
}
