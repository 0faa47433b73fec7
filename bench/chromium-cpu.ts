/**
 * What Chromium's own CPU costs the end-to-end tests, and what a set of Chromium flags changes of it: the
 * product's `/sign-in` loaded in fresh profiles and reloaded in one tab until Clerk's identifier field shows,
 * against the real server, the core-seconds of Chromium's whole process tree counted from /proc (the
 * browser, its zygote, renderers, GPU and utility processes, reaped children included). Variants run in
 * turn, round after round, so that a machine whose load changes weighs on each alike; the median round is
 * printed per variant.
 * Usage: node --import tsx bench/chromium-cpu.ts [--loads N] [--rounds R] [--variant "flags"]…
 *   default variants: no extra flag, and the flags the tests use (e2e/support/browser.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { launchBrowser } from '../e2e/support/browser.ts';
import { removeDataDir, startServer } from '../e2e/support/server.ts';

const { values } = parseArgs({
  options: {
    loads: { type: 'string', default: '6' },
    rounds: { type: 'string', default: '3' },
    variant: { type: 'string', multiple: true },
  },
});
const loads = Number(values.loads);
const rounds = Number(values.rounds);
const variants = values.variant ?? ['', '--js-flags=--no-opt'];

const TICK = 100; // USER_HZ: /proc's clock ticks per second on Linux

/** Every live process under `pid` (itself included), from /proc's parent links. */
function tree(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // ended meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    out.push(p);
    for (const child of parents.get(p) ?? []) walk(child);
  };
  walk(pid);
  return out;
}

/** Core-seconds used by the Chromium processes this process started, those already reaped included. */
function chromiumSeconds(): number {
  let ticks = 0;
  for (const pid of tree(process.pid).slice(1)) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('chrom')) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime, stime, cutime, cstime: fields 14-17 of stat, 11-14 counted from the state after the name.
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // ended meanwhile
    }
  }
  return ticks / TICK;
}

async function measure(origin: string, flags: string): Promise<number> {
  const browser = await launchBrowser(flags.split(' ').filter(Boolean));
  try {
    const signInShown = { timeout: 60_000 };
    for (let i = 0; i < loads; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${origin}/sign-in`);
      await page.locator('input[name=identifier]').waitFor(signInShown);
      await page.reload();
      await page.locator('input[name=identifier]').waitFor(signInShown);
      await context.close();
    }
    return chromiumSeconds();
  } finally {
    await browser.close();
  }
}

const server = await startServer();
try {
  const results = new Map<string, number[]>(variants.map((v) => [v, []]));
  for (let round = 0; round < rounds; round++) {
    for (const flags of variants) {
      const seconds = await measure(server.origin, flags);
      results.get(flags)?.push(seconds);
      console.log(`round ${round + 1} [${flags || 'no extra flag'}]: ${seconds.toFixed(1)} core-s`);
    }
  }
  console.log(
    `\nChromium core-seconds for ${loads} fresh profiles, /sign-in loaded then reloaded (median of ${rounds}):`,
  );
  for (const [flags, seconds] of results) {
    const median = [...seconds].sort((a, b) => a - b)[Math.floor(seconds.length / 2)] ?? NaN;
    console.log(`  ${median.toFixed(1).padStart(6)}  ${flags || 'no extra flag'}`);
  }
} finally {
  await server.stop();
  removeDataDir(server.dataDir);
}
