import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Thrown when another live process has the PGlite directory open. PGlite runs PostgreSQL inside one
 * process with its own buffers: a second process on the same files does not see the first one's writes
 * and loses its own (tried: rows written by either vanish), so a directory has one owner at a time.
 */
export class DatabaseInUseError extends Error {
  override readonly name = 'DatabaseInUseError';
  constructor(
    readonly lockFile: string,
    readonly pid: number,
  ) {
    super(`The PGlite database is in use by process ${pid} (lock file ${lockFile}).`);
  }
}

/** The lock file beside a data directory (`.data/pglite` → `.data/pglite.lock`). */
export function lockFileOf(dataDir: string): string {
  return `${resolve(dataDir)}.lock`;
}

/** The live process holding the directory, or null when it is free (or its holder has died). */
export function holderOf(dataDir: string): number | null {
  const pid = readPid(lockFileOf(dataDir));
  return pid !== null && isAlive(pid) ? pid : null;
}

/**
 * Takes the directory for this process; returns the release. A lock left by a process that has died
 * (a crash, kill -9) is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = lockFileOf(dataDir);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, since: new Date().toISOString() }));
      closeSync(fd);
      return () => {
        if (readPid(file) === process.pid) rmSync(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const pid = readPid(file);
    if (pid !== null && isAlive(pid)) throw new DatabaseInUseError(file, pid);
    rmSync(file, { force: true });
  }
  throw new Error(`Could not take the lock file ${file}.`);
}

function readPid(file: string): number | null {
  try {
    const pid = (JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown }).pid;
    return typeof pid === 'number' && Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: alive, but another user's process.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
