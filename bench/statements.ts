/**
 * The SQL statements each hot request runs, counted and listed: what a change to a hot path saves, before
 * any timing. The product server runs with DATABASE_STATEMENT_TRACE (identity/src/db/database.ts), which
 * appends each statement's text (never its parameters) to a file this script reads around each request.
 *
 *   node --import tsx bench/statements.ts [--db pglite|postgres] [--list]
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { BenchRequest } from './lib/autocannon-run.ts';
import { startProductServer, type DatabaseKind } from './lib/product-server.ts';
import {
  fapiGetRequest,
  meRequest,
  mintToken,
  passwordSignInRequest,
  signUpClient,
  tokenRequest,
} from './lib/signed-in-client.ts';

const { values } = parseArgs({
  options: { db: { type: 'string', default: 'pglite' }, list: { type: 'boolean', default: false } },
});
const traceFile = join(mkdtempSync(join(tmpdir(), 'bench-statements-')), 'statements.log');
writeFileSync(traceFile, '');
process.env.DATABASE_STATEMENT_TRACE = traceFile;
const server = await startProductServer(
  values.db as DatabaseKind,
  process.env.BENCH_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/test',
  { stubWeb: true },
);
delete process.env.DATABASE_STATEMENT_TRACE;

/**
 * The statements run while `request` was answered. Batched writes (session activity, flushed every few
 * seconds for many requests) and the servers' own timers fall outside that window and are not counted.
 */
async function statementsOf(request: BenchRequest): Promise<string[]> {
  // Let what earlier requests queued (activity batches, settings polls) run first.
  await new Promise((r) => setTimeout(r, 1500));
  writeFileSync(traceFile, '');
  const res = await fetch(`${server.origin}${request.path}`, {
    method: request.method,
    headers: request.headers,
    ...(request.body !== undefined ? { body: request.body } : {}),
  });
  if (!res.ok) throw new Error(`${request.method} ${request.path} answered ${res.status}`);
  await res.arrayBuffer();
  return readFileSync(traceFile, 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('SELECT version FROM instance_settings_document'));
}

try {
  const c = await signUpClient(server.origin, server.publicUrl, 'password', { organization: true });
  const token = await mintToken(c);
  const rows: [string, BenchRequest][] = [
    ['password sign-in POST /client/sign_ins (new browser)', passwordSignInRequest(c)],
    ['token minting POST /client/sessions/:id/tokens', tokenRequest(c)],
    ['page load GET /environment', fapiGetRequest(c, '/environment')],
    ['page load GET /client (signed in)', fapiGetRequest(c, '/client')],
    ['session check GET /api/me', meRequest(token)],
  ];
  console.log(`Statements per request (${values.db}; BEGIN and COMMIT count):\n`);
  for (const [name, request] of rows) {
    const statements = await statementsOf(request);
    console.log(`${String(statements.length).padStart(3)}  ${name}`);
    if (values.list) for (const s of statements) console.log(`       ${s.slice(0, 150)}`);
  }
} finally {
  await server.stop();
}
