import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from '../../e2e/support/server.ts';
import { tail, waitForHttp } from './child-process.ts';
import { seedDatabase, type ScaleSize } from './seed-scale.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/** The limits the benchmark raises, so password sign-in measures the work rather than 429s. */
export const RAISED_LIMITS: Record<string, string> = {
  IDENTITY_RATE_LIMIT_SIGN_IN_PER_IP: '100000',
  IDENTITY_RATE_LIMIT_SIGN_IN_PER_IDENTIFIER: '100000',
  IDENTITY_RATE_LIMIT_CODE_ATTEMPTS_PER_IP: '100000',
  IDENTITY_LOCKOUT_MAX_ATTEMPTS: '1000000',
  // Every password sign-in comes from a fresh browser (a new client) on 127.0.0.1.
  IDENTITY_RATE_LIMIT_CLIENTS_PER_IP: '1000000',
  // Argon2 keeps its per-process cap (IDENTITY_PASSWORD_HASH_CONCURRENCY); only the queue is long enough
  // that c=64 waits instead of being answered 429.
  IDENTITY_PASSWORD_HASH_QUEUE: '1000',
};

export interface ProductServer {
  /** Where to connect: http://127.0.0.1:<port>. */
  origin: string;
  /** The public URL the server was configured with (the Origin clerk-js sends): http://localhost:<port>. */
  publicUrl: string;
  /** The last lines the server printed (LOG_LEVEL=error: its errors). */
  output(): string[];
  stop(): Promise<void>;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The real product server (server/src/main.ts) in a process of its own, so autocannon in this process
 * does not share its event loop, serving a copy of web/dist. On PGlite a fresh data directory; on
 * PostgreSQL a fresh schema of the given server (search_path through the connection string's
 * `options`), dropped on stop.
 */
export async function startProductServer(
  db: DatabaseKind,
  postgresUrl: string,
  opts: {
    /** Rows put in the identity database before the server starts (bench/lib/seed-scale.ts). */
    seed?: ScaleSize;
    /** The checkout whose server runs (default this one): two checkouts compared in the same minute. */
    root?: string;
    /** A one-line page instead of a copy of web/dist, for runs that load no page. */
    stubWeb?: boolean;
    /** Node flags for the server process (`--cpu-prof`, …). */
    nodeFlags?: string[];
  } = {},
): Promise<ProductServer> {
  const root = opts.root ?? ROOT;
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-api-'));
  const schema = `bench_api_${randomBytes(6).toString('hex')}`;
  // A copy of the built web app: the static plugin lists the files at start, so a rebuild of web/dist
  // by someone else during the run would turn the new fingerprinted assets into 404s.
  const webDist = join(dataDir, 'web-dist');
  if (opts.stubWeb) {
    mkdirSync(webDist);
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>bench</title>');
  } else cpSync(join(root, 'web/dist'), webDist, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    WEB_DIST: webDist,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://localhost:${port}`,
    CLERK_PUBLISHABLE_KEY: '',
    CLERK_SECRET_KEY: '',
    IDENTITY_MODE: 'development',
    LOG_LEVEL: 'error',
    ...RAISED_LIMITS,
  };
  delete env.DATABASE_URL;
  if (db === 'postgres') {
    await withClient(postgresUrl, (c) => c.query(`CREATE SCHEMA "${schema}"`));
    const url = new URL(postgresUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    env.DATABASE_URL = url.toString();
  }

  // Seeded before the server starts: a PGlite directory is open in one process at a time.
  if (opts.seed) {
    await seedDatabase(
      db === 'postgres' ? { url: postgresUrl, schema } : { dataDir: join(dataDir, 'pglite') },
      opts.seed,
    );
  }

  const child: ChildProcess = spawn(
    process.execPath,
    [...(opts.nodeFlags ?? []), '--import', 'tsx', 'server/src/main.ts'],
    {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output = tail(child);
  const cleanup = async () => {
    rmSync(dataDir, { recursive: true, force: true });
    if (db === 'postgres') {
      await withClient(postgresUrl, (c) => c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    }
  };
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(child, `${origin}/app-config.json`, output);
  } catch (err) {
    child.kill('SIGKILL');
    await cleanup();
    throw err;
  }
  return {
    origin,
    publicUrl: env.PUBLIC_URL!,
    output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await cleanup();
    },
  };
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function postgresVersion(url: string): Promise<string> {
  return withClient(
    url,
    async (c) => (await c.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version,
  );
}
