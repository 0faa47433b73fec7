/**
 * The query plans of the hot paths, on a database of a real instance's size (100,000 users, 10,000
 * organisations, 1,000,000 sessions: bench/lib/seed-scale.ts), on PGlite and on PostgreSQL.
 *
 *   node --import tsx bench/plans.ts [--db pglite,postgres] [--small]
 *
 * The identity provider runs in this process on a recording database (bench/lib/recording-database.ts);
 * a browser-like client goes through each hot path once to warm it, then once more with the recording on;
 * every statement of that second pass is then explained (EXPLAIN, not ANALYZE: nothing is executed twice)
 * with the parameters it was sent with. A sequential scan of a seeded table is flagged: those tables hold
 * hundreds of thousands of rows, and the hot paths must reach them by index. Writes bench/results/plans.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import pg from 'pg';
import { createIdentity, identityConfigFromEnv, openDatabase, type DatabaseOptions } from '@app/identity';
import { freePort } from '../e2e/support/server.ts';
import { RAISED_LIMITS } from './lib/product-server.ts';
import { RecordingDatabase, type Statement } from './lib/recording-database.ts';
import { SCALE, seedScale, type ScaleSize } from './lib/seed-scale.ts';
import { BENCH_PASSWORD, FapiBrowser, signUpClient } from './lib/signed-in-client.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'pglite,postgres' },
    small: { type: 'boolean', default: false },
  },
});
const databases = values.db.split(',');
const size: ScaleSize = values.small ? { users: 2_000, organizations: 200, sessions: 20_000 } : SCALE;
const postgresUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const SEEDED_TABLES = [
  'users',
  'email_addresses',
  'organizations',
  'organization_memberships',
  'clients',
  'sessions',
];

interface PathPlans {
  path: string;
  statements: { sql: string; plan: string; seqScans: string[] }[];
}

async function plansOn(kind: string): Promise<PathPlans[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-plans-'));
  const schema = `bench_plans_${randomBytes(6).toString('hex')}`;
  let options: DatabaseOptions;
  if (kind === 'postgres') {
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    await admin.end();
    options = { url: postgresUrl, schema };
  } else {
    options = { dataDir: join(dataDir, 'pglite') };
  }
  const inner = await openDatabase(options);
  const db = new RecordingDatabase(inner);
  const app = Fastify();
  try {
    const started = Date.now();
    await seedScale(inner, size);
    console.log(`${kind}: seeded ${JSON.stringify(size)} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    const port = await freePort();
    const publicUrl = `http://localhost:${port}`;
    const config = identityConfigFromEnv({
      ...RAISED_LIMITS,
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: publicUrl,
      IDENTITY_MODE: 'development',
    });
    const identity = await createIdentity(config, db);
    await identity.register(app, { bapiPath: '/__bapi' });
    await app.listen({ port, host: '127.0.0.1' });
    const origin = `http://127.0.0.1:${port}`;

    const user = await signUpClient(origin, publicUrl, 'plans', { organization: true });
    const paths: Record<string, () => Promise<unknown>> = {
      'GET /v1/environment': () => user.browser.call('GET', '/environment'),
      'GET /v1/client': () => user.browser.call('GET', '/client'),
      'POST /v1/client/sessions/{id}/tokens': () =>
        user.browser.call('POST', `/client/sessions/${user.sessionId}/tokens`, {
          organization_id: user.organizationId,
        }),
      'POST /v1/client/sessions/{id}/touch': () =>
        user.browser.call('POST', `/client/sessions/${user.sessionId}/touch`, {
          active_organization_id: user.organizationId,
        }),
      'POST /v1/client/sign_ins (password, fresh browser)': async () => {
        const browser = new FapiBrowser(origin, publicUrl);
        await browser.call('POST', '/client/sign_ins', {
          identifier: user.email,
          password: BENCH_PASSWORD,
          strategy: 'password',
        });
      },
    };
    const result: PathPlans[] = [];
    for (const [path, run] of Object.entries(paths)) {
      await run();
      db.take();
      await run();
      result.push({ path, statements: await explainAll(inner, distinct(db.take())) });
    }
    return result;
  } finally {
    await app.close();
    await inner.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (kind === 'postgres') {
      const admin = new pg.Client({ connectionString: postgresUrl });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
  }
}

function distinct(statements: Statement[]): Statement[] {
  const seen = new Map<string, Statement>();
  for (const s of statements) if (!seen.has(s.sql)) seen.set(s.sql, s);
  return [...seen.values()];
}

async function explainAll(db: RecordingDatabase['inner'], statements: Statement[]) {
  const out: PathPlans['statements'] = [];
  for (const s of statements) {
    const sql = s.sql.replace(/\s+/g, ' ').trim();
    let plan: string;
    try {
      // A statement that fails to explain (a lock function, a SET) is shown as such, in a rolled-back
      // transaction so that it changes nothing.
      const rows = await db
        .transaction(async (tx) => {
          const r = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${s.sql}`, s.params);
          throw new Rollback(r.map((row) => row['QUERY PLAN']).join('\n'));
        })
        .catch((err) => {
          if (err instanceof Rollback) return err.plan;
          throw err;
        });
      plan = rows;
    } catch (err) {
      plan = `(not explainable: ${(err as Error).message})`;
    }
    const seqScans = SEEDED_TABLES.filter((t) => new RegExp(`Seq Scan on ${t}\\b`).test(plan));
    out.push({ sql, plan, seqScans });
  }
  return out;
}

class Rollback extends Error {
  constructor(readonly plan: string) {
    super('rollback');
  }
}

const sections: string[] = [
  '### Query plans of the hot paths',
  '',
  `- Database seeded with ${size.users.toLocaleString('en')} users, ${size.organizations.toLocaleString('en')} ` +
    `organisations and ${size.sessions.toLocaleString('en')} sessions (bench/lib/seed-scale.ts), then ANALYZEd.`,
  '- Each path is run once to warm it, then once recorded; each distinct statement of the recorded pass is ' +
    'EXPLAINed with the parameters it was sent with. ⚠ marks a sequential scan of a seeded table.',
  '',
];
let flagged = 0;
for (const kind of databases) {
  const plans = await plansOn(kind);
  sections.push(`#### ${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'}`, '');
  for (const p of plans) {
    sections.push(`##### ${p.path}: ${p.statements.length} statements`, '');
    for (const s of p.statements) {
      if (s.seqScans.length) flagged++;
      sections.push(
        `${s.seqScans.length ? `⚠ sequential scan of ${s.seqScans.join(', ')}: ` : ''}\`${s.sql.slice(0, 300)}\``,
        '',
        '```',
        s.plan,
        '```',
        '',
      );
    }
  }
}
sections.push(`Sequential scans of a seeded table on a hot path: ${flagged}.`);
const text = sections.join('\n') + '\n';
writeFileSync(fileURLToPath(new URL('./results/plans.md', import.meta.url)), text);
console.log(text);
console.log(`target "every hot query uses an index": ${flagged === 0 ? 'met' : `NOT met (${flagged})`}`);
