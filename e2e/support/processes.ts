import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from './server.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A fixed secret key shared by every process of one instance (several processes on one database). */
export const SHARED_SECRET_KEY = 'sk_live_e2einstancesharedsecret000000000000000';

/**
 * The real product server as its own operating-system process (`node --import tsx server/src/main.ts`),
 * so that tests can run several on one database and kill one with SIGKILL.
 */
export interface ServerProcess {
  /** Where this process itself listens: `http://127.0.0.1:<port>`. */
  origin: string;
  /** The public origin it was configured with (`PUBLIC_URL`): the page origin of its users. */
  publicUrl: string;
  port: number;
  pid: number;
  /** Resolves when the process has exited (at once when it already has). */
  exited: Promise<void>;
  /** Whether the process is still running. */
  alive(): boolean;
  /** The process's last output lines (its log), for a failure message. */
  output(): string;
  /** SIGKILL: no shutdown of any kind, exactly like a crash. */
  kill9(): Promise<void>;
  /** SIGTERM (the server closes cleanly), then SIGKILL if it lingers. */
  stop(): Promise<void>;
}

export interface ServerProcessOptions {
  /** The public origin users reach (a proxy in front of several processes). */
  publicUrl?: string;
  /** PostgreSQL, or else PGlite in `dataDir`. */
  databaseUrl?: string;
  dataDir?: string;
  port?: number;
  env?: Record<string, string>;
  /** How long to wait for the first answer of the Frontend API. */
  readyTimeoutMs?: number;
}

/** Children still running: killed when the test process exits, whatever way it ends (timeouts included). */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export async function spawnServer(opts: ServerProcessOptions): Promise<ServerProcess> {
  const port = opts.port ?? (await freePort());
  const origin = `http://127.0.0.1:${port}`;
  const publicUrl = opts.publicUrl ?? `http://localhost:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    // Not about hashing: argon2id at the test-only low cost (see identity/src/crypto/passwords.ts).
    IDENTITY_TEST_PASSWORD_HASH_COST: process.env.IDENTITY_TEST_PASSWORD_HASH_COST ?? 'low',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: publicUrl,
    IDENTITY_MODE: 'development',
    IDENTITY_SECRET_KEY: SHARED_SECRET_KEY,
    // The tests speak the wire as clerk-js does with production keys (the `__client` cookie).
    IDENTITY_KEYS: 'production',
    LOG_LEVEL: process.env.E2E_LOGS === '1' ? 'info' : 'warn',
    CLERK_PUBLISHABLE_KEY: '',
    CLERK_SECRET_KEY: '',
    ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : { DATABASE_URL: '' }),
    ...(opts.dataDir ? { DATA_DIR: opts.dataDir } : {}),
    ...opts.env,
  };
  // An empty DATABASE_URL would be taken as a URL: leave it out for PGlite.
  if (!env.DATABASE_URL) delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  child.once('exit', () => live.delete(child));
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    if (process.env.E2E_LOGS === '1') process.stderr.write(chunk);
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const alive = () => child.exitCode === null && child.signalCode === null;
  const output = () => lines.slice(-40).join('\n');
  const proc: ServerProcess = {
    origin,
    publicUrl,
    port,
    pid: child.pid!,
    exited,
    alive,
    output,
    async kill9() {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (!alive()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
  try {
    await waitUntilReady(proc, child, opts.readyTimeoutMs ?? 90_000);
  } catch (err) {
    await proc.kill9();
    throw err;
  }
  return proc;
}

/** Polls the Frontend API's environment until it answers 200 (the database is open and migrated). */
async function waitUntilReady(proc: ServerProcess, child: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!proc.alive()) {
      throw new Error(
        `server process exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${proc.output()}`,
      );
    }
    try {
      const res = await fetch(`${proc.origin}/__clerk/v1/environment`, {
        signal: AbortSignal.timeout(5_000),
      });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server process not ready within ${timeoutMs} ms:\n${proc.output()}`);
}

/** Stops every process given, ignoring those already gone; for `after` hooks. */
export async function stopAll(processes: Iterable<ServerProcess | undefined>) {
  await Promise.all([...processes].map((p) => p?.stop().catch(() => {})));
}
