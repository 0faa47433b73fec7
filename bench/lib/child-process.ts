import type { ChildProcess } from 'node:child_process';

/** Keeps the last `max` lines a child printed (stdout and stderr), for when something goes wrong. */
export function tail(child: ChildProcess, max = 30): () => string[] {
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (!line.trim()) continue;
      lines.push(line);
      if (lines.length > max) lines.shift();
    }
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => [...lines];
}

/** Polls `url` until it answers 2xx; fails when the child exits first or after `timeoutMs`. */
export async function waitForHttp(
  child: ChildProcess,
  url: string,
  output: () => string[],
  timeoutMs = 180_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`${url}: the process exited (${child.exitCode}):\n${output().join('\n')}`);
    }
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s:\n${output().join('\n')}`);
}
