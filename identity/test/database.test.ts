import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import {
  DEFAULT_POOL_MAX,
  openDatabase,
  poolMaxFrom,
  preparedStatementsFrom,
  type Database,
} from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { createIdentity } from '../src/identity.ts';
import { backends, forEachBackend, type Store } from './support/backends.ts';
import { signUp } from './support/flows.ts';
import { Harness, testConfig, uniqueEmail } from './support/harness.ts';

forEachBackend('database start-up', (backend) => {
  let h: Harness;
  let store: Store;
  before(async () => {
    // An empty database: this start runs every migration (other tests start from a migrated copy).
    store = await backend.createStore({ empty: true });
    h = await Harness.start(backend, { store });
  });
  after(async () => {
    await h.close();
    await store.dispose();
  });

  it('migrations are recorded once and a second start applies nothing', async () => {
    const rows = await h.db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    // Every file of the migrations folder, once, in order (the list grows with each feature).
    const files = readdirSync(new URL('../src/db/migrations/', import.meta.url))
      .filter((f) => /^\d+_.+\.sql$/.test(f))
      .sort();
    assert.deepEqual(
      rows.map((r) => r.name),
      files,
    );
    assert.deepEqual(await migrate(h.db), []);
  });

  it('a second instance on the same database keeps the data and the signing key', async () => {
    const email = uniqueEmail('shared');
    const { userId } = await signUp(h, h.browser(), email);
    const twin = await h.twin();
    try {
      assert.equal(twin.identity.deps.signingKey.kid, h.identity.deps.signingKey.kid);
      const user = await twin.bapi(`/v1/users/${userId}`);
      assert.equal(user.statusCode, 200);
      assert.equal(user.json().email_addresses[0].email_address, email);
    } finally {
      await twin.close();
    }
  });
});

for (const backend of backends.filter((b) => b.name === 'postgres')) {
  describe('PostgreSQL schema option [postgres]', () => {
    const url = process.env.TEST_DATABASE_URL!;

    async function dropSchema(name: string) {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
      } finally {
        await admin.end();
      }
    }

    it('creates the schema and keeps every table inside it', async () => {
      const store = await backend.createStore({ empty: true });
      const identity = await createIdentity(testConfig(), store.options);
      try {
        const schema = (store.options as { schema: string }).schema;
        const tables = await identity.deps.db.query<{ table_name: string }>(
          'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
          [schema],
        );
        assert.ok(tables.some((t) => t.table_name === 'users'));
        assert.ok(tables.some((t) => t.table_name === 'schema_migrations'));
        const [row] = await identity.deps.db.query<{ s: string }>('SELECT current_schema() AS s');
        assert.equal(row!.s, schema);
      } finally {
        await identity.close();
        await store.dispose();
      }
    });

    it('accepts a schema name that needs quoting (upper case)', async () => {
      const schema = `test_Mixed_${randomBytes(4).toString('hex')}`;
      try {
        const db = await openDatabase({ url, schema });
        try {
          await migrate(db);
          const [row] = await db.query<{ s: string }>('SELECT current_schema() AS s');
          assert.equal(row!.s, schema);
        } finally {
          await db.close();
        }
      } finally {
        await dropSchema(schema);
      }
    });
  });
}

describe(
  'a PostgreSQL server with no room for another connection [postgres]',
  { skip: !process.env.TEST_DATABASE_URL },
  () => {
    const url = process.env.TEST_DATABASE_URL!;
    // A role limited to two connections stands in for a server at max_connections: PostgreSQL refuses the
    // third with the same 53300 (too_many_connections).
    const role = `test_limited_${randomBytes(4).toString('hex')}`;
    const roleUrl = () => {
      const u = new URL(url);
      u.username = role;
      u.password = '';
      return u.toString();
    };
    const admin = async (sql: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    /**
     * Waits until the role holds no connection: a closed pool's server processes end a moment after it, and
     * until then they count against the limit (a fresh-clone CI run met "too many connections" here).
     */
    const roleIdle = async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        for (let tries = 0; tries < 200; tries++) {
          const { rows } = await client.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = $1',
            [role],
          );
          if (rows[0]!.n === 0) return;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        throw new Error(`${role} still holds connections after 10 s`);
      } finally {
        await client.end();
      }
    };
    before(() => admin(`CREATE ROLE ${role} LOGIN CONNECTION LIMIT 2`));
    after(() => admin(`DROP ROLE IF EXISTS ${role}`));

    it('a burst wider than the room waits for a connection instead of failing', async () => {
      const db = await openDatabase({ url: roleUrl(), poolMax: 6 });
      try {
        const held = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            db.transaction(async (tx) => {
              await tx.query('SELECT pg_sleep(0.05)');
              return i;
            }),
          ),
        );
        assert.deepEqual(held, [0, 1, 2, 3, 4, 5]);
        const plain = await Promise.all(
          Array.from({ length: 6 }, () => db.query<{ n: number }>('SELECT 1 AS n')),
        );
        assert.ok(plain.every((rows) => rows[0]!.n === 1));
      } finally {
        await db.close();
      }
    });

    it('when no room comes, the failure is "unavailable" (a 503), not an error of ours', async () => {
      await roleIdle();
      // Two connections held outside the pool for longer than a request waits.
      const holders = [
        new pg.Client({ connectionString: roleUrl() }),
        new pg.Client({ connectionString: roleUrl() }),
      ];
      try {
        for (const c of holders) await c.connect();
        const db = await openDatabase({ url: roleUrl(), poolMax: 2 });
        try {
          const started = Date.now();
          await assert.rejects(db.query('SELECT 1'), (err: Error) => err.name === 'DatabaseUnavailableError');
          assert.ok(Date.now() - started >= 4000, 'it waited for room before giving up');
        } finally {
          await db.close();
        }
      } finally {
        // Also when a connect failed: a client left open would keep the test process alive.
        // (A client whose connect failed may never answer end(): a second at most.)
        for (const c of holders) {
          const gaveUp = new Promise((resolve) => setTimeout(resolve, 1000).unref());
          await Promise.race([c.end().catch(() => {}), gaveUp]);
        }
      }
    });
  },
);

describe('DATABASE_POOL_MAX', () => {
  it('defaults to 10 and refuses what is not a count of connections', () => {
    assert.equal(poolMaxFrom({}), DEFAULT_POOL_MAX);
    assert.equal(poolMaxFrom({ DATABASE_POOL_MAX: '4' }), 4);
    for (const bad of ['0', '-1', '2.5', 'ten', '1001']) {
      assert.throws(() => poolMaxFrom({ DATABASE_POOL_MAX: bad }), /DATABASE_POOL_MAX/);
    }
  });
});

forEachBackend('prepared statements', (backend) => {
  const open = () =>
    backend.name === 'postgres'
      ? openDatabase({
          url: process.env.TEST_DATABASE_URL!,
          schema: `test_prep_${randomBytes(4).toString('hex')}`,
        })
      : openDatabase({ memory: true });
  const preparedLike = (tx: { query: Database['query'] }, text: string) =>
    tx.query<{ name: string }>('SELECT name FROM pg_prepared_statements WHERE statement = $1', [text]);

  it('a statement with parameters is prepared once per connection and run by name after', async () => {
    const db = await open();
    try {
      const text = 'SELECT $1::int + 1 AS n';
      await db.transaction(async (tx) => {
        assert.deepEqual(await tx.query(text, [1]), [{ n: 2 }]);
        assert.deepEqual(await tx.query(text, [41]), [{ n: 42 }]);
        assert.equal((await preparedLike(tx, text)).length, 1);
      });
    } finally {
      await dropAndClose(db);
    }
  });

  it('a statement a schema change invalidated runs again, unnamed, after at most one refusal', async () => {
    const db = await open();
    try {
      await db.query('CREATE TABLE prep_t (a int)');
      await db.query('INSERT INTO prep_t VALUES (1)');
      const text = 'SELECT * FROM prep_t WHERE a = $1';
      assert.deepEqual(await db.query(text, [1]), [{ a: 1 }]);
      await db.query('ALTER TABLE prep_t ADD COLUMN b int');
      let refusals = 0;
      let rows: unknown[] = [];
      for (let i = 0; i < 3; i++) {
        try {
          rows = await db.query(text, [1]);
          break;
        } catch (err) {
          assert.match(String(err), /cached plan/);
          refusals++;
        }
      }
      assert.ok(refusals <= 1, `${refusals} refusals`);
      assert.deepEqual(rows, [{ a: 1, b: null }]);
    } finally {
      await dropAndClose(db);
    }
  });

  it('DATABASE_PREPARED_STATEMENTS=false: nothing is prepared', async () => {
    process.env.DATABASE_PREPARED_STATEMENTS = 'false';
    let db: Database;
    try {
      db = await open();
    } finally {
      delete process.env.DATABASE_PREPARED_STATEMENTS;
    }
    try {
      const text = 'SELECT $1::int + 2 AS n';
      await db.transaction(async (tx) => {
        assert.deepEqual(await tx.query(text, [1]), [{ n: 3 }]);
        assert.deepEqual(await preparedLike(tx, text), []);
      });
    } finally {
      await dropAndClose(db);
    }
  });

  async function dropAndClose(db: Database) {
    if (backend.name === 'postgres') {
      const [row] = await db.query<{ schema: string }>('SELECT current_schema() AS schema');
      await db.query(`DROP SCHEMA "${row!.schema}" CASCADE`);
    }
    await db.close();
  }
});

describe('DATABASE_PREPARED_STATEMENTS', () => {
  it('on by default; true/false/1/0; anything else refused', () => {
    assert.equal(preparedStatementsFrom({}), true);
    assert.equal(preparedStatementsFrom({ DATABASE_PREPARED_STATEMENTS: 'false' }), false);
    assert.equal(preparedStatementsFrom({ DATABASE_PREPARED_STATEMENTS: '0' }), false);
    assert.equal(preparedStatementsFrom({ DATABASE_PREPARED_STATEMENTS: 'TRUE' }), true);
    assert.throws(
      () => preparedStatementsFrom({ DATABASE_PREPARED_STATEMENTS: 'off' }),
      /DATABASE_PREPARED_STATEMENTS/,
    );
  });
});
