import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import pg from 'pg';
import { lockDataDir } from './pglite-lock.ts';

/** The one query surface every store uses; the same SQL runs on PGlite and on a PostgreSQL server. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** A transaction's surface: queries, and whole scripts (a migration file) sent as they are. */
export interface Transaction extends Queryable {
  /**
   * Runs `sql`, which may hold several statements, without parameters and without splitting it: PGlite's
   * `exec` and pg's simple query protocol both take a script whole, so function bodies keep their `;`.
   */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** How its connections are used now, for /metrics (observability/metrics.ts); absent on wrappers. */
  connections?(): ConnectionUse;
}

/** A database's connections: PGlite has one, which queries take in turn; PostgreSQL a pool. */
export interface ConnectionUse {
  /** The most it opens. */
  max: number;
  /** Open now (PGlite: 1). */
  open: number;
  /** Open and running a query or a transaction. */
  busy: number;
  /** Queries and transactions waiting for a connection. */
  waiting: number;
}

export type DatabaseOptions =
  | { url: string; schema?: string; poolMax?: number }
  | { dataDir: string }
  | { memory: true; start?: PgliteStart };

/**
 * What an in-memory PGlite may start from instead of an empty cluster: a data directory dumped after the
 * migrations ran, and the compiled WebAssembly and file bundle, read once. The tests use it (see
 * identity/test/support/pglite-template.ts): initdb and the migrations then run once per test run, not
 * once per test. The server never sets it.
 */
export type PgliteStart = Pick<PGliteOptions, 'loadDataDir' | 'pgliteWasmModule' | 'fsBundle'>;

/** Connections one process keeps to a PostgreSQL server, per database it opens. */
export const DEFAULT_POOL_MAX = 10;

/**
 * `DATABASE_POOL_MAX`, read where every PostgreSQL pool is made so the server, the CLI and the tools agree:
 * several processes on one server must fit its `max_connections` together.
 */
export function poolMaxFrom(env: NodeJS.ProcessEnv): number {
  const raw = env.DATABASE_POOL_MAX;
  if (raw === undefined || raw === '') return DEFAULT_POOL_MAX;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1000) {
    throw new Error('DATABASE_POOL_MAX must be a whole number of connections from 1 to 1000.');
  }
  return n;
}

/** How long a request waits for a connection (a free one in the pool, or the server's room for one). */
const CONNECT_TIMEOUT_MS = 5000;

/** Thrown when the database cannot be reached, so HTTP layers can answer 503 instead of 500. */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
}

// 53300: the server is at max_connections (or the role at its limit). Said as unavailable when waiting
// for room (see connectWithRoom) did not find any in time.
const CONNECTION_ERROR_CODES = new Set([
  '53300',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P03',
  '08006',
  '08001',
  '08003',
]);

function mapError(err: unknown): unknown {
  const code = (err as { code?: string }).code;
  if (code && CONNECTION_ERROR_CODES.has(code))
    return new DatabaseUnavailableError(String((err as Error).message));
  // pg's own messages for a connection lost or never made (they carry no code).
  if (
    err instanceof Error &&
    /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable/i.test(
      err.message,
    )
  ) {
    return new DatabaseUnavailableError(err.message);
  }
  return err;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if ('url' in options) {
    return openPostgres(
      options.url,
      options.schema,
      options.poolMax ?? poolMaxFrom(process.env),
      preparedStatementsFrom(process.env),
    );
  }
  if ('dataDir' in options) {
    mkdirSync(options.dataDir, { recursive: true });
    return openPglite(options.dataDir, {}, preparedStatementsFrom(process.env));
  }
  return openPglite(undefined, options.start ?? {}, preparedStatementsFrom(process.env));
}

/**
 * Parameterised statements are prepared once per connection and run by name after (pg's named
 * statements): PostgreSQL then skips parsing and planning, which for a query of several joins (token
 * minting's) costs several times its execution. Named by a hash of their text, so a text is one
 * statement; bounded, so SQL built at run time cannot fill a connection with statements. A statement a
 * schema change invalidated ("cached plan must not change result type", after a migration added a column
 * to a `SELECT *`) runs unnamed from then on. `DATABASE_PREPARED_STATEMENTS=false` turns it off, for a
 * pooler that cannot keep them (PgBouncer in transaction mode before 1.21).
 */
class PreparedStatements {
  private readonly names = new Map<string, string>();
  private readonly stale = new Set<string>();

  constructor(
    private readonly enabled: boolean,
    private readonly max = 2_000,
  ) {}

  nameOf(sql: string): string | undefined {
    if (!this.enabled || this.stale.has(sql)) return undefined;
    let name = this.names.get(sql);
    if (!name && this.names.size < this.max) {
      name = `s_${createHash('sha256').update(sql).digest('base64url').slice(0, 24)}`;
      this.names.set(sql, name);
    }
    return name;
  }

  /** After a schema change: this text runs unnamed from now on, on every connection. */
  invalidate(sql: string): void {
    this.stale.add(sql);
  }
}

/** `DATABASE_PREPARED_STATEMENTS`: on unless `false` or `0`. */
export function preparedStatementsFrom(env: NodeJS.ProcessEnv): boolean {
  const raw = env.DATABASE_PREPARED_STATEMENTS?.trim().toLowerCase();
  if (raw === undefined || raw === '' || raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new Error('DATABASE_PREPARED_STATEMENTS must be true or false.');
}

const isStalePlan = (err: unknown) =>
  (err as { code?: string }).code === '0A000' &&
  /cached plan must not change/i.test(String((err as Error).message));

/** Runs statements on pg clients (of a PostgreSQL pool, or the one client of PGlite) the same way. */
function statementRunner(statements: PreparedStatements) {
  // DATABASE_STATEMENT_TRACE=<file>: every statement's text (never its parameters) appended to the file,
  // for counting what a request costs (bench/statements.ts). Off unless set; not for production.
  const traceFile = process.env.DATABASE_STATEMENT_TRACE || null;
  return async function run<T>(client: pg.ClientBase, sql: string, params?: unknown[]): Promise<T[]> {
    // Without parameters pg uses the simple query protocol, which also takes a script of statements.
    const name = params === undefined ? undefined : statements.nameOf(sql);
    if (traceFile) appendFileSync(traceFile, `${sql.replace(/\s+/g, ' ').trim()}\n`);
    try {
      const res =
        params === undefined
          ? await client.query(sql)
          : name
            ? await client.query({ name, text: sql, values: params })
            : await client.query(sql, params);
      return (Array.isArray(res) ? [] : res.rows) as T[];
    } catch (err) {
      if (name && isStalePlan(err)) statements.invalidate(sql);
      throw mapError(err);
    }
  };
}

/** Runs the work given to it one at a time, in the order given; a failure does not stop the next. */
function oneAtATime(): <R>(work: () => Promise<R>) => Promise<R> {
  let last: Promise<unknown> = Promise.resolve();
  return (work) => {
    const next = last.then(work);
    last = next.catch(() => {});
    return next;
  };
}

/**
 * One transaction on `client`, which nothing else uses meanwhile. A connection runs one query at a time:
 * queries sent together (Promise.all) wait their turn here rather than in pg's own queue, which pg 8
 * deprecates.
 */
async function transactionOn<R>(
  client: pg.ClientBase,
  run: ReturnType<typeof statementRunner>,
  fn: (tx: Transaction) => Promise<R>,
): Promise<R> {
  const inTurn = oneAtATime();
  const query = <T>(sql: string, params?: unknown[]): Promise<T[]> =>
    inTurn(() => run<T>(client, sql, params));
  try {
    await run(client, 'BEGIN');
    const exec = async (sql: string): Promise<void> => {
      await query(sql);
    };
    const result = await fn({ query, exec });
    await run(client, 'COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}

/**
 * PGlite's own start parameters, with a smaller buffer cache. PostgreSQL zeroes its shared buffers as it
 * boots, and the WebAssembly build does it slowly: at the default 128 MB that was about 0.4 s of a
 * 1.0 s start, paid twice by every server start (identity and product) and by every test store. 32 MB
 * holds the embedded databases this mode is for many times over; a page not in it is a read from the data
 * directory (the operating system's cache), not a query failure. A real server (`DATABASE_URL`) keeps
 * its own settings.
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];

/**
 * PGlite through node-postgres (PGlite's own adapter, `@electric-sql/pglite/node-postgres`): the same
 * client code, type parsers and named statements as a PostgreSQL server, and a round trip a third of
 * PGlite's own `query`. PGlite has one connection: a transaction has it to itself, and queries outside
 * one wait their turn, in order.
 */
async function openPglite(
  dataDir: string | undefined,
  start: PgliteStart,
  prepared: boolean,
): Promise<Database> {
  // One process per directory (see pglite-lock.ts): a second server, or the CLI, is refused.
  const release = dataDir ? lockDataDir(dataDir) : () => {};
  let lite: PGlite;
  let client: pg.Client;
  try {
    lite = await PGlite.create({ ...(dataDir ? { dataDir } : start), startParams: PGLITE_START_PARAMS });
    client = new pg.Client(createPgConfig(lite) as unknown as pg.ClientConfig);
    // Reported by the query that meets it; unheard, it would end the process.
    client.on('error', () => {});
    await client.connect();
  } catch (err) {
    release();
    throw err;
  }
  const run = statementRunner(new PreparedStatements(prepared));
  const inTurn = oneAtATime();
  // The work given to the one connection and not finished: the first runs, the others wait.
  let given = 0;
  const exclusive = async <R>(work: () => Promise<R>): Promise<R> => {
    given++;
    try {
      return await inTurn(work);
    } finally {
      given--;
    }
  };
  return {
    kind: 'pglite',
    query: (sql, params) => exclusive(() => run(client, sql, params)),
    transaction: (fn) => exclusive(() => transactionOn(client, run, fn)),
    connections: () => ({ max: 1, open: 1, busy: Math.min(given, 1), waiting: Math.max(given - 1, 0) }),
    async close() {
      try {
        await exclusive(async () => {
          await client.end();
          await lite.close();
        });
      } finally {
        release();
      }
    },
  };
}

async function openPostgres(
  url: string,
  schema: string | undefined,
  poolMax: number,
  prepared: boolean,
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolMax,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // Quoted like the CREATE SCHEMA below, so mixed-case names resolve to the same schema.
    ...(schema ? { options: `-c search_path="${schema.replace(/"/g, '')}"` } : {}),
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  // Nor one that is checked out between two queries of a transaction when PostgreSQL goes away (a restart
  // sends every connection FATAL 57P01): pg emits 'error' on it with no listener, which would end the
  // process. Its next query fails ("not queryable") and the request answers 503.
  pool.on('connect', (client) => client.on('error', () => {}));
  if (schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema.replace(/"/g, '')}"`);
    await admin.end();
  }
  const run = statementRunner(new PreparedStatements(prepared));
  // A server at max_connections refuses a new connection at once (53300) while its other clients, often
  // this process's own pool or another instance's, free theirs within milliseconds. Waiting for that, as
  // for a busy pool, turns a burst into latency instead of failed requests.
  const connectWithRoom = async (): Promise<pg.PoolClient> => {
    const until = Date.now() + CONNECT_TIMEOUT_MS;
    for (;;) {
      try {
        return await pool.connect();
      } catch (err) {
        if ((err as { code?: string }).code !== '53300' || Date.now() >= until) throw mapError(err);
        await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 80));
      }
    }
  };
  return {
    kind: 'postgres',
    async query(sql, params) {
      const client = await connectWithRoom();
      let lost: Error | undefined;
      try {
        return await run(client, sql, params);
      } catch (err) {
        // A connection that failed is closed, not reused; one whose statement was refused stays.
        if (err instanceof DatabaseUnavailableError) lost = err;
        throw err;
      } finally {
        client.release(lost);
      }
    },
    async transaction(fn) {
      const client = await connectWithRoom();
      try {
        return await transactionOn(client, run, fn);
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
    connections: () => ({
      max: poolMax,
      open: pool.totalCount,
      busy: pool.totalCount - pool.idleCount,
      waiting: pool.waitingCount,
    }),
  };
}

/** The cheapest round trip a database can make: what readiness probes (observability/operations-routes.ts). */
export async function pingDatabase(db: Queryable): Promise<void> {
  await db.query('SELECT 1');
}
