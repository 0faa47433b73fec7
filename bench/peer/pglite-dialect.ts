import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

/**
 * A Kysely dialect over an open PGlite, so better-auth's Kysely adapter runs on the same embedded
 * PostgreSQL as our identity provider. Written here because kysely 0.28 has no PGlite dialect, and
 * the npm ones are a poor fit: kysely-pglite-dialect 1.3.1 declares PGlite up to 0.4 (we run 0.5),
 * kysely-pglite 0.6.1 pulls a CLI and a code generator. It only needs PostgreSQL's compiler,
 * adapter and introspector from kysely plus a driver that hands out PGlite's single connection.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly db: PGlite) {}

  createDriver(): Driver {
    return new PGliteDriver(this.db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createAdapter() {
    return new PostgresAdapter();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}

/**
 * PGlite is one connection: a transaction's statements must not interleave with another request's,
 * so the connection is lent to one holder at a time (PGlite runs one statement at a time anyway).
 */
class PGliteDriver implements Driver {
  private readonly connection: PGliteConnection;
  private held: Promise<void> = Promise.resolve();
  private release: (() => void) | null = null;

  constructor(db: PGlite) {
    this.connection = new PGliteConnection(db);
  }

  async init() {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.held;
    let release!: () => void;
    this.held = new Promise((resolve) => (release = resolve));
    await previous;
    this.release = release;
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }
  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection() {
    const release = this.release;
    this.release = null;
    release?.();
  }

  /** The PGlite is opened and closed by its owner (better-auth-peer.ts), not by Kysely. */
  async destroy() {}
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly db: PGlite) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.db.query<R>(query.sql, [...query.parameters]);
    return {
      rows: result.rows,
      ...(result.affectedRows !== undefined ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
    };
  }

  // eslint-disable-next-line require-yield -- better-auth never streams; Kysely requires the method.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGliteDialect does not stream query results.');
  }
}
