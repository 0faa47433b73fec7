/**
 * The product's hot endpoints under load (autocannon), on PGlite and on PostgreSQL, beside their physical
 * limits (RS256 and argon2id on this machine) and a better-auth peer on the same database.
 *
 *   node --import tsx bench/api.ts [--seconds N] [--concurrency 1,16,64] [--db pglite,postgres] [--no-peer]
 *                                  [--scenarios minting,noop,me,page-fapi,sign-in,page] [--scale]
 *
 * `--scenarios` runs only those rows (default: all), e.g. `--scenarios noop,me` for the session check and the
 * no-op route it is held against. `--scale` fills each identity database first with 100,000 users, 10,000
 * organisations and 1,000,000 sessions (bench/lib/seed-scale.ts), for issue #13's scale row: the same
 * figures must hold within 15 %; a full run with it writes bench/results/api-scale.md.
 * PostgreSQL: BENCH_DATABASE_URL or TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test);
 * every run gets a schema of its own, dropped at the end. Prints the tables and, for a run of every
 * scenario, writes them to bench/results/api.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as prettier from 'prettier';
import { runLoad, type BenchRequest, type LoadResult } from './lib/autocannon-run.ts';
import { measureLimits, type Limits } from './lib/limits.ts';
import { machine } from './lib/machine.ts';
import { pageAssets } from './lib/page-assets.ts';
import { SCALE } from './lib/seed-scale.ts';
import {
  peerAvailable,
  startPeer,
  PEER_FILE,
  type PeerDescription,
  type PeerProcess,
} from './lib/peer-process.ts';
import {
  postgresVersion,
  RAISED_LIMITS,
  startProductServer,
  type DatabaseKind,
  type ProductServer,
} from './lib/product-server.ts';
import {
  errorsCell,
  ms,
  percent,
  rate,
  ratio,
  renderMarkdown,
  renderText,
  RESULT_HEADERS,
  resultCells,
  type Block,
} from './lib/report.ts';
import {
  fapiGetRequest,
  meRequest,
  mintToken,
  passwordSignInRequest,
  type SignedInClient,
  signUpClient,
  tokenRequest,
} from './lib/signed-in-client.ts';

/** The rows `--scenarios` selects, in the order they run. */
const SCENARIO_KEYS = ['minting', 'noop', 'me', 'page-fapi', 'sign-in', 'page'] as const;
type ScenarioKey = (typeof SCENARIO_KEYS)[number];
const NOOP_SCENARIO = 'No-op: GET /healthz (unauthenticated, reads nothing)';
const ME_SCENARIO = 'Session check: GET /api/me (bearer session JWT)';
/** Issue #13's targets for GET /api/me, at every concurrency measured. */
const ME_TARGETS = { overPeer: 2, overNoop: 0.5 };

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '1,16,64' },
    db: { type: 'string', default: 'pglite,postgres' },
    'no-peer': { type: 'boolean', default: false },
    scenarios: { type: 'string', default: SCENARIO_KEYS.join(',') },
    scale: { type: 'boolean', default: false },
  },
});
const seconds = Number(values.seconds);
const concurrencies = values.concurrency.split(',').map(Number);
const databases = values.db.split(',') as DatabaseKind[];
const selected = new Set(values.scenarios.split(',').filter(Boolean) as ScenarioKey[]);
const postgresUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
// A session token lives 60 s: one is minted per /api/me run, which must end before it expires.
if (!(seconds > 0 && seconds <= 45))
  throw new Error('--seconds must be from 1 to 45 (a session token lives 60 s).');
if (!concurrencies.every((c) => Number.isInteger(c) && c > 0)) throw new Error('--concurrency: e.g. 1,16,64');
if (!databases.every((d) => d === 'pglite' || d === 'postgres'))
  throw new Error('--db: pglite, postgres or both');
if (selected.size === 0 || ![...selected].every((k) => SCENARIO_KEYS.includes(k)))
  throw new Error(`--scenarios: some of ${SCENARIO_KEYS.join(',')}`);
const limitSeconds = Math.min(seconds, 3);
const withPeer = !values['no-peer'] && peerAvailable();
const started = Date.now();

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const WEB_INDEX = `${ROOT}web/dist/index.html`;
if (!existsSync(WEB_INDEX)) {
  console.log('web/dist is missing: building the web app first (npm run build).');
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
}

const pgVersion = databases.includes('postgres') ? await postgresVersion(postgresUrl) : null;
const m = machine(pgVersion);
const header: Block[] = [
  { heading: values.scale ? 'API benchmark at scale (100,000 users, 1,000,000 sessions)' : 'API benchmark' },
  {
    lines: [
      `- Machine: ${m.cpu}, ${m.cores} cores, ${m.ramGiB} GiB RAM; Node ${m.node}; PGlite ${m.pglite}` +
        (m.postgres ? `; PostgreSQL ${m.postgres}` : ''),
      `- Run: ${seconds} s per measurement, concurrency ${concurrencies.join(', ')} (autocannon connections), ` +
        `databases ${databases.join(', ')}, scenarios ${SCENARIO_KEYS.filter((k) => selected.has(k)).join(', ')}; the product server (server/src/main.ts, LOG_LEVEL=error) and the peer ` +
        `each run in a process of their own, autocannon in the runner's.`,
      `- Rate limits raised for the run so password sign-in measures the work, not 429s: ` +
        Object.entries(RAISED_LIMITS)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ') +
        '.',
      `- Peer: ${withPeer ? 'better-auth (bench/peer/better-auth-peer.ts), same database kind' : values['no-peer'] ? 'off (--no-peer)' : `off (${PEER_FILE} is missing)`}.`,
    ],
  },
];
console.log(renderText(header));

interface Measured {
  scenario: string;
  concurrency: number;
  result: LoadResult;
  limit?: 'rs256Sign' | 'rs256Verify' | 'argon2Verify';
  peer?: { name: string; result: LoadResult };
  /** Labels of the requests of a multi-request scenario, shown one a line under it. */
  parts?: string[];
  /** The row's req/s is the rate of the sequence's first request (page loads), not of every request. */
  perSequence?: boolean;
}

let limits: Limits | null = null;
const sections: Block[] = [];
const errorRuns: string[] = [];
let pageMeasured = false;

for (const db of databases) {
  console.log(`[${db}] starting the product server…`);
  if (values.scale) console.log(`[${db}] seeding ${SCALE.users} users, ${SCALE.sessions} sessions…`);
  const server = await startProductServer(db, postgresUrl, values.scale ? { seed: SCALE } : {});
  let peer: PeerProcess | null = null;
  try {
    const member = await signUpClient(server.origin, server.publicUrl, 'member', { organization: true });
    const signer = await signUpClient(server.origin, server.publicUrl, 'signer', { organization: false });
    if (withPeer) {
      console.log(`[${db}] starting the better-auth peer…`);
      peer = await startPeer(db, postgresUrl);
    }
    if (!limits && (['minting', 'me', 'sign-in'] as const).some((k) => selected.has(k))) {
      console.log(`Measuring the limits (${limitSeconds} s each)…`);
      limits = await measureLimits(await mintToken(member), limitSeconds);
    }
    const measured = await measureDatabase(db, server, member, signer, peer);
    if (measured.length) sections.push(...databaseSection(db, measured, peer?.name ?? null));
    if (!pageMeasured && selected.has('page')) {
      sections.push(...pageSection(await measurePage(db, server)));
      pageMeasured = true;
    }
  } finally {
    await peer?.stop();
    await server.stop();
  }
}

const blocks: Block[] = [...header, ...(limits ? limitsSection(limits) : []), ...sections];
blocks.push({
  lines: [
    errorRuns.length === 0
      ? '**Errors:** none (every response 2xx).'
      : `**Errors in ${errorRuns.length} run(s):** ${errorRuns.join('; ')}.`,
    `Total time: ${((Date.now() - started) / 1000).toFixed(0)} s.`,
  ],
});
console.log(renderText(blocks.slice(header.length)));
if (selected.size === SCENARIO_KEYS.length) {
  mkdirSync(`${ROOT}bench/results`, { recursive: true });
  // Formatted as `npm run lint` (prettier --check .) wants it, so the file can be committed as written.
  const resultsFile = `${ROOT}bench/results/${values.scale ? 'api-scale' : 'api'}.md`;
  const prettierOptions = (await prettier.resolveConfig(resultsFile)) ?? {};
  writeFileSync(
    resultsFile,
    await prettier.format(renderMarkdown(blocks), { ...prettierOptions, parser: 'markdown' }),
  );
  console.log(`Written to ${resultsFile.slice(ROOT.length)}`);
} else {
  console.log('Some scenarios only (--scenarios): bench/results/api.md, the full run, is left as it was.');
}

async function measureDatabase(
  db: DatabaseKind,
  server: ProductServer,
  member: SignedInClient,
  signer: SignedInClient,
  peer: PeerDescription | null,
): Promise<Measured[]> {
  const me = async (): Promise<BenchRequest[]> => [meRequest(await mintToken(member))];
  const signIn: BenchRequest = passwordSignInRequest(signer);
  const every: {
    key: ScenarioKey;
    name: string;
    requests: () => Promise<BenchRequest[]>;
    limit?: Measured['limit'];
    peer?: keyof Pick<PeerDescription, 'tokenMinting' | 'sessionCheck' | 'passwordSignIn'>;
    parts?: string[];
  }[] = [
    {
      key: 'minting',
      name: 'Token minting: POST /v1/client/sessions/{id}/tokens (active organisation)',
      requests: async () => [tokenRequest(member)],
      limit: 'rs256Sign',
      peer: 'tokenMinting',
    },
    {
      key: 'noop',
      name: NOOP_SCENARIO,
      requests: async () => [{ method: 'GET', path: '/healthz', headers: {} }],
    },
    {
      key: 'me',
      name: ME_SCENARIO,
      requests: me,
      limit: 'rs256Verify',
      peer: 'sessionCheck',
    },
    {
      key: 'page-fapi',
      name: 'Page load FAPI calls: GET /v1/environment + GET /v1/client (cookie)',
      requests: async () => [fapiGetRequest(member, '/environment'), fapiGetRequest(member, '/client')],
      parts: ['GET /v1/environment', 'GET /v1/client'],
    },
    {
      key: 'sign-in',
      name: 'Password sign-in: POST /v1/client/sign_ins (identifier + password)',
      requests: async () => [signIn],
      limit: 'argon2Verify',
      peer: 'passwordSignIn',
    },
  ];
  const scenarios = every.filter((s) => selected.has(s.key));
  const warmUp = (origin: string, requests: BenchRequest[]) =>
    runLoad({ origin, requests, connections: Math.min(4, Math.max(...concurrencies)), seconds: 1 });
  console.log(`[${db}] warming up…`);
  for (const s of scenarios) {
    await warmUp(server.origin, await s.requests());
    if (peer && s.peer) await warmUp(peer.origin, [peer[s.peer]]);
  }

  const measured: Measured[] = [];
  for (const concurrency of concurrencies) {
    for (const s of scenarios) {
      const result = await run(db, s.name, concurrency, server, await s.requests());
      const row: Measured = { scenario: s.name, concurrency, result, limit: s.limit, parts: s.parts };
      if (peer && s.peer) {
        const peerResult = await run(db, `${peer.name}: ${s.peer}`, concurrency, null, [peer[s.peer]], peer);
        row.peer = { name: `${peer[s.peer].method} ${peer[s.peer].path}`, result: peerResult };
      }
      measured.push(row);
    }
  }
  return measured;
}

async function measurePage(db: DatabaseKind, server: ProductServer): Promise<Measured[]> {
  const browser = { accept: 'text/html,application/xhtml+xml', 'accept-encoding': 'gzip, deflate, br' };
  const document: BenchRequest = { method: 'GET', path: '/dashboard', headers: browser };
  const html = await (await fetch(`${server.origin}/dashboard`, { headers: browser })).text();
  const assets = pageAssets(html);
  const full: BenchRequest[] = [
    document,
    ...assets.map((path) => ({
      method: 'GET' as const,
      path,
      headers: { accept: '*/*', 'accept-encoding': 'gzip, deflate, br' },
    })),
  ];
  await runLoad({ origin: server.origin, requests: full, connections: 4, seconds: 1 }); // warm-up
  const measured: Measured[] = [];
  const docName = 'Document: GET /dashboard (SPA index.html)';
  const fullName = `Full page: document + ${assets.length} assets (req/s = page loads/s)`;
  for (const concurrency of concurrencies) {
    measured.push({
      scenario: docName,
      concurrency,
      result: await run(db, docName, concurrency, server, [document]),
    });
    measured.push({
      scenario: fullName,
      concurrency,
      result: await run(db, fullName, concurrency, server, full),
      parts: ['GET /dashboard', ...assets.map((a) => `GET ${a}`)],
      perSequence: true,
    });
  }
  return measured;
}

async function run(
  db: DatabaseKind,
  name: string,
  concurrency: number,
  server: ProductServer | null,
  requests: BenchRequest[],
  peer?: PeerDescription & { output?: () => string[] },
): Promise<LoadResult> {
  const origin = server?.origin ?? peer!.origin;
  const result = await runLoad({ origin, requests, connections: concurrency, seconds });
  const shown = requests.length > 1 ? result.perRequest[0]!.rps : result.rps;
  console.log(
    `[${db}] c=${String(concurrency).padStart(3)}  ${rate(shown).padStart(6)} req/s  p99 ${ms(result.p99)} ms  ${name}`,
  );
  if (result.errors > 0) {
    errorRuns.push(`${db}, ${name}, c=${concurrency}: ${errorsCell(result)}`);
    console.log(`  ! ${errorsCell(result)}`);
    const output = server?.output() ?? peer?.output?.() ?? [];
    for (const line of output.slice(-5)) console.log(`  | ${line.slice(0, 300)}`);
  }
  return result;
}

function databaseSection(db: DatabaseKind, measured: Measured[], peerName: string | null): Block[] {
  const rows: string[][] = [];
  const byScenario = groupBy(measured, (m) => m.scenario);
  for (const [scenario, runs] of byScenario) {
    for (const m of runs) {
      const limit = m.limit && limits ? limits[m.limit] : null;
      rows.push([
        scenario,
        String(m.concurrency),
        ...resultCells(m.result),
        percent(limit ? (m.result.rps / limit) * 100 : null),
        m.peer ? ratio(m.result.rps, m.peer.result.rps) : '',
      ]);
      m.parts?.forEach((part, i) => rows.push(partRow(part, m.result, i, RESULT_HEADERS.length + 2)));
      if (m.peer)
        rows.push([`↳ peer: ${m.peer.name}`, String(m.concurrency), ...resultCells(m.peer.result), '', '']);
    }
  }
  return [
    { heading: `${db === 'pglite' ? 'PGlite' : `PostgreSQL ${pgVersion}`}` },
    { table: { headers: [...RESULT_HEADERS, '% of limit', 'ours/peer'], rows } },
    ...meTargets(measured),
    {
      lines: [
        "- % of limit: the endpoint's req/s over the limit measured above (token minting over RS256 " +
          'signatures/s, /api/me over RS256 verifications/s, password sign-in over argon2id verifications/s).',
        ...(peerName ? [`- ours/peer: our req/s over ${peerName}'s, on the same database kind.`] : []),
        '- Token minting: the request clerk-js sends for `session.getToken()`, with the `__client` cookie and the ' +
          'active organisation. /api/me: the product route, which verifies the token with @clerk/backend against ' +
          'the instance keys it holds and reads the user from the token (no network call, no query; the Backend ' +
          'API only for a token without the `email`/`first_name`/`last_name` claims). No-op: an unauthenticated ' +
          'route of the same server that reads nothing: what its HTTP stack alone costs.',
        '- Password sign-in: `strategy=password` with identifier and password in one request, as ' +
          '`signIn.create()` sends it, from a fresh browser (no cookie): each request creates a client, a ' +
          'sign-in and a session. The user has no second factor.',
      ],
    },
  ];
}

/** GET /api/me against its targets: ≥ 2× the peer's session check and ≥ 50 % of the no-op route. */
function meTargets(measured: Measured[]): Block[] {
  const rows: string[][] = [];
  for (const me of measured.filter((m) => m.scenario === ME_SCENARIO)) {
    const noop = measured.find((m) => m.scenario === NOOP_SCENARIO && m.concurrency === me.concurrency);
    const verdict = (value: number, target: number) => (value >= target ? 'met' : 'not met');
    if (me.peer) {
      const overPeer = me.result.rps / me.peer.result.rps;
      rows.push([
        `ours/peer ≥ ${ME_TARGETS.overPeer}×`,
        String(me.concurrency),
        ratio(me.result.rps, me.peer.result.rps),
        verdict(overPeer, ME_TARGETS.overPeer),
      ]);
    }
    if (noop) {
      const overNoop = me.result.rps / noop.result.rps;
      rows.push([
        `/api/me ≥ ${ME_TARGETS.overNoop * 100} % of the no-op route`,
        String(me.concurrency),
        percent(overNoop * 100),
        verdict(overNoop, ME_TARGETS.overNoop),
      ]);
    }
  }
  if (rows.length === 0) return [];
  return [{ table: { headers: ['GET /api/me target', 'conc.', 'measured', 'verdict'], rows } }];
}

function pageSection(measured: Measured[]): Block[] {
  const rows: string[][] = [];
  for (const [scenario, runs] of groupBy(measured, (m) => m.scenario)) {
    for (const m of runs) {
      const cells = resultCells(m.result);
      if (m.perSequence) cells[0] = rate(m.result.perRequest[0]!.rps);
      rows.push([scenario, String(m.concurrency), ...cells]);
      m.parts?.forEach((part, i) => rows.push(partRow(part, m.result, i, RESULT_HEADERS.length)));
    }
  }
  return [
    { heading: 'Product page first load (static files: the same on either database)' },
    { table: { headers: RESULT_HEADERS, rows } },
    {
      lines: [
        'Each connection fetches the document then its scripts and stylesheets one after the other (read from the ' +
          'built index.html; a browser would fetch them in parallel, and then clerk-js and the app config). p50/p95/p99 ' +
          'of the full page are over all its requests; the indented lines are each request within that run.',
      ],
    },
  ];
}

/** One request of a multi-request run: its share of the rate and its own latencies, padded to `width` cells. */
function partRow(label: string, result: LoadResult, index: number, width: number): string[] {
  const part = result.perRequest[index]!;
  const cells = [`↳ ${label}`, '', rate(part.rps), ms(part.p50), ms(part.p95), ms(part.p99)];
  return [...cells, ...Array<string>(width - cells.length).fill('')];
}

function limitsSection(l: Limits): Block[] {
  return [
    { heading: 'Physical limits on this machine (same run)' },
    {
      table: {
        headers: ['Operation', 'per second'],
        rows: [
          ["RS256 sign (jose, RSA-2048, a session token's claims)", rate(l.rs256Sign)],
          ['RS256 verify (jose, RSA-2048)', rate(l.rs256Verify)],
          [`argon2id verify (identity's verifyPassword, ${l.argon2Parameters})`, rate(l.argon2Verify)],
        ],
      },
    },
    {
      lines: [
        `Measured in the runner with nothing else under load, ${l.inFlight} operations in flight: jose's WebCrypto RSA ` +
          `and @node-rs/argon2 run on the libuv threadpool (UV_THREADPOOL_SIZE, default 4), the same pool the server ` +
          `process has, on ${l.cores} cores. During the endpoint runs the server shares those cores with autocannon. ` +
          'Measured once, before the endpoints: on a machine shared with other work, a share above 100 % means ' +
          'more of it was free during that run than during this one.',
      ],
    },
  ];
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
