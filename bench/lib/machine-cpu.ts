import { readFileSync } from 'node:fs';

/** The whole machine's CPU time so far, busy and in all (ms, from /proc/stat's first line; Linux only). */
export interface CpuReading {
  busyMs: number;
  totalMs: number;
}

// /proc/stat counts in USER_HZ ticks, 100 a second on every Linux the kernel exports to user space.
const MS_PER_TICK = 10;

export function readMachineCpu(): CpuReading | null {
  let line: string | undefined;
  try {
    line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
  } catch {
    return null;
  }
  if (!line?.startsWith('cpu ')) return null;
  // user nice system idle iowait irq softirq steal (guest time is already inside user)
  const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  return { busyMs: (total - idle) * MS_PER_TICK, totalMs: total * MS_PER_TICK };
}

/**
 * What `work` cost the machine: CPU milliseconds per answer and the share of the machine left idle, every
 * process included (server, database, load generator). Comparing two servers under the same load this
 * way says whether one spends more CPU per answer or leaves the machine idle waiting on something.
 */
export async function machineCpuOf<T extends { ok: number }>(
  work: () => Promise<T>,
): Promise<{ result: T; cpuMsPerAnswer: number | null; idleShare: number | null }> {
  const before = readMachineCpu();
  const result = await work();
  const after = readMachineCpu();
  if (!before || !after || result.ok === 0) return { result, cpuMsPerAnswer: null, idleShare: null };
  const busy = after.busyMs - before.busyMs;
  const total = after.totalMs - before.totalMs;
  return {
    result,
    cpuMsPerAnswer: busy / result.ok,
    idleShare: total > 0 ? 1 - busy / total : null,
  };
}
