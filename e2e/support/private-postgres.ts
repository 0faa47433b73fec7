import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './server.ts';

const run = promisify(execFile);

/**
 * A PostgreSQL cluster of the test's own, on a temporary data directory and a free port, so that the
 * test can stop and start it without disturbing anyone. The machine's shared server (127.0.0.1:5432)
 * is never touched.
 */
export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication). */
  url: string;
  port: number;
  /** `pg_ctl stop -m fast`: connections are closed, the server is gone until `start`. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data; resolves when it accepts connections. */
  start(): Promise<void>;
  /** Stops it (whatever its state) and removes its data directory. */
  destroy(): Promise<void>;
}

/** The directory of `initdb` and `pg_ctl` (newest installed version), or null when PostgreSQL is absent. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const bin = join(root, v, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return bin;
  }
  return null;
}

/** Why these tests cannot run here, or null when they can. */
export function privatePostgresUnavailable(): string | null {
  if (!postgresBinDir()) return 'PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin';
  if (process.getuid?.() === 0) {
    // initdb refuses to run as root: the cluster belongs to the `postgres` account.
    if (!existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser') && !existsSync('/usr/bin/runuser'))
      return 'running as root without runuser to start PostgreSQL as the postgres user';
    if (postgresIds() === null) return 'running as root and there is no postgres OS user';
  }
  return null;
}

function postgresIds(): { uid: number; gid: number } | null {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  return uid && gid ? { uid: Number(uid), gid: Number(gid) } : null;
}

/** Clusters not destroyed yet: stopped at once when the test process exits, however it ends. */
const leftovers = new Map<string, () => void>();
process.once('exit', () => {
  for (const stop of leftovers.values()) stop();
});

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error(privatePostgresUnavailable() ?? 'PostgreSQL is not installed');
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'e2e-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'postgres.log');
  if (asRoot) {
    const ids = postgresIds()!;
    chownSync(dir, ids.uid, ids.gid);
  }
  // As root, every PostgreSQL program runs as the postgres account (initdb and postgres refuse root).
  const pg = (program: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', join(bin, program), ...args], { timeout: 120_000 })
      : run(join(bin, program), args, { timeout: 120_000 });

  const port = await freePort();
  // Private sockets (no clash with the machine's /var/run/postgresql) and loopback TCP only. fsync is off:
  // these tests crash the product's processes, never PostgreSQL itself, whose clean stop writes everything.
  const options = [
    `-p ${port}`,
    `-c listen_addresses=127.0.0.1`,
    `-c unix_socket_directories=${dir}`,
    '-c fsync=off',
    '-c full_page_writes=off',
    '-c max_connections=60',
  ].join(' ');
  const start = () => pg('pg_ctl', ['-D', data, '-l', log, '-o', options, '-w', '-t', '60', 'start']);
  const stopWith = (mode: 'fast' | 'immediate') => pg('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
  try {
    await pg('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
    await start();
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw withLog(err, log);
  }
  leftovers.set(dir, () => {
    try {
      const args = ['-D', data, '-m', 'immediate', 'stop'];
      if (asRoot)
        execFileSync('runuser', ['-u', 'postgres', '--', join(bin, 'pg_ctl'), ...args], { stdio: 'ignore' });
      else execFileSync(join(bin, 'pg_ctl'), args, { stdio: 'ignore' });
    } catch {
      // already stopped
    }
    rmSync(dir, { recursive: true, force: true });
  });
  let destroyed = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      await stopWith('fast').catch((err) => {
        throw withLog(err, log);
      });
    },
    async start() {
      await start().catch((err) => {
        throw withLog(err, log);
      });
    },
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      leftovers.delete(dir);
      await stopWith('immediate').catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function withLog(err: unknown, log: string): Error {
  let tail = '';
  try {
    tail = readFileSync(log, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    // no log yet
  }
  return new Error(`${(err as Error).message}\n--- postgres log ---\n${tail}`);
}
