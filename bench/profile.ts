/**
 * What bounds each hot row: the product server's CPU profile under load, summed up by package, file and
 * function (bench/lib/cpu-profile-summary.ts), written to bench/results/profiles.md.
 *
 *   node --import tsx bench/profile.ts [--scenarios noop,me,minting,client,sign-in] [--db pglite,postgres]
 *                                      [--concurrency 16] [--seconds 6] [--keep DIR]
 *
 * One server per database, in a process of its own, with the inspector's profiler preloaded
 * (bench/lib/cpu-profile-preload.mjs): for each scenario, 2 s of warm-up, then the profile covers the
 * load run only. `--keep DIR` leaves the .cpuprofile files there for a flame graph (Chrome DevTools,
 * speedscope). The figures are of a profiled server, a little slower than bench/api.ts's.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as prettier from 'prettier';
import { runLoad, type BenchRequest } from './lib/autocannon-run.ts';
import { summarize, type CpuProfile, type Share } from './lib/cpu-profile-summary.ts';
import { machine } from './lib/machine.ts';
import { postgresVersion, startProductServer, type DatabaseKind } from './lib/product-server.ts';
import {
  fapiGetRequest,
  meRequest,
  mintToken,
  passwordSignInRequest,
  type SignedInClient,
  signUpClient,
  tokenRequest,
} from './lib/signed-in-client.ts';

const SCENARIOS = ['noop', 'me', 'minting', 'client', 'sign-in'] as const;
type Scenario = (typeof SCENARIOS)[number];
const TITLES: Record<Scenario, string> = {
  noop: 'No-op: GET /healthz',
  me: 'Session check: GET /api/me',
  minting: 'Token minting: POST /client/sessions/:id/tokens',
  client: 'Page load: GET /client (signed in)',
  'sign-in': 'Password sign-in: POST /client/sign_ins',
};

const { values } = parseArgs({
  options: {
    scenarios: { type: 'string', default: SCENARIOS.join(',') },
    db: { type: 'string', default: 'pglite,postgres' },
    concurrency: { type: 'string', default: '16' },
    seconds: { type: 'string', default: '6' },
    keep: { type: 'string' },
  },
});
const scenarios = values.scenarios.split(',') as Scenario[];
const databases = values.db.split(',') as DatabaseKind[];
const connections = Number(values.concurrency);
const seconds = Number(values.seconds);
if (!scenarios.every((s) => SCENARIOS.includes(s)))
  throw new Error(`--scenarios: some of ${SCENARIOS.join(',')}`);
if (!databases.every((d) => d === 'pglite' || d === 'postgres'))
  throw new Error('--db: pglite, postgres or both');
if (!(seconds > 0 && seconds <= 45))
  throw new Error('--seconds must be from 1 to 45 (a session token lives 60 s).');
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const postgresUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const PRELOAD = new URL('./lib/cpu-profile-preload.mjs', import.meta.url).href;

function requestFor(
  scenario: Scenario,
  member: SignedInClient,
  signer: SignedInClient,
  token: string,
): BenchRequest {
  switch (scenario) {
    case 'noop':
      return { method: 'GET', path: '/healthz', headers: {} };
    case 'me':
      return meRequest(token);
    case 'minting':
      return tokenRequest(member);
    case 'client':
      return fapiGetRequest(member, '/client');
    case 'sign-in':
      return passwordSignInRequest(signer);
  }
}

/** The profile the preload wrote last in `dir`, once it is complete. */
async function newestProfile(
  dir: string,
  before: Set<string>,
): Promise<{ file: string; profile: CpuProfile }> {
  for (let i = 0; i < 100; i++) {
    const fresh = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile') && !before.has(f));
    if (fresh.length) {
      const file = join(dir, fresh[0]!);
      // Written in one call: parseable once its size stops changing.
      const size = statSync(file).size;
      await new Promise((r) => setTimeout(r, 100));
      if (statSync(file).size === size) return { file, profile: JSON.parse(readFileSync(file, 'utf8')) };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server wrote no profile');
}

const table = (title: string, shares: Share[]) =>
  [
    `| ${title} | share |`,
    '| --- | ---: |',
    ...shares.map((s) => `| \`${s.name}\` | ${(s.share * 100).toFixed(1)} % |`),
  ].join('\n');

const pgVersion = databases.includes('postgres') ? await postgresVersion(postgresUrl) : null;
const m = machine(pgVersion);
const out: string[] = [
  '# CPU profiles of the hot rows',
  `Machine: ${m.cpu}, ${m.cores} cores; Node ${m.node}; PGlite ${m.pglite}${pgVersion ? `; PostgreSQL ${pgVersion}` : ''}. ` +
    `\`node --import tsx bench/profile.ts --concurrency ${connections} --seconds ${seconds}\`, ${new Date().toISOString().slice(0, 10)}. ` +
    'Shares of the server process’s sampled main-thread time during the load run; `(idle)` is time with nothing ' +
    'to run. Work on the libuv threadpool (argon2, RSA signing) does not appear in it; the main thread waiting for it shows as idle.',
];

const keepDir = values.keep ? resolve(values.keep) : null;
for (const db of databases) {
  const dir = keepDir ?? mkdtempSync(join(tmpdir(), 'bench-profile-'));
  process.env.BENCH_CPU_PROFILE_DIR = dir;
  const server = await startProductServer(db, postgresUrl, {
    stubWeb: true,
    nodeFlags: ['--import', PRELOAD],
  });
  try {
    const member = await signUpClient(server.origin, server.publicUrl, 'profile', { organization: true });
    const signer = await signUpClient(server.origin, server.publicUrl, 'profile-signer', {
      organization: false,
    });
    const pid = Number(readFileSync(join(dir, 'server.pid'), 'utf8'));
    for (const scenario of scenarios) {
      // A fresh token per run: one lives 60 s.
      const request = requestFor(scenario, member, signer, scenario === 'me' ? await mintToken(member) : '');
      await runLoad({ origin: server.origin, requests: [request], connections, seconds: 2 });
      const before = new Set(readdirSync(dir));
      process.kill(pid, 'SIGUSR2');
      const result = await runLoad({ origin: server.origin, requests: [request], connections, seconds });
      process.kill(pid, 'SIGUSR2');
      const { file, profile } = await newestProfile(dir, before);
      const summary = summarize(profile, ROOT);
      console.log(
        `[${db}] ${scenario}: ${Math.round(result.rps)} req/s, idle ${(summary.idle * 100).toFixed(0)} %`,
      );
      out.push(
        `## ${TITLES[scenario]} · ${db} · c=${connections}`,
        `${Math.round(result.rps)} req/s while profiled (p50 ${result.p50.toFixed(1)} ms), ${result.ok} answers ` +
          `${JSON.stringify(result.statusCounts)}; ${summary.sampledMs.toFixed(0)} ms sampled, idle ${(summary.idle * 100).toFixed(1)} %.` +
          (keepDir ? ` Profile: \`${file.slice(keepDir.length + 1)}\`.` : ''),
        table('inclusive, by package or file', summary.inclusiveByPlace),
        table('self, by function', summary.selfByFunction),
      );
    }
  } finally {
    await server.stop();
    if (!keepDir) rmSync(dir, { recursive: true, force: true });
  }
}

const resultsFile = join(ROOT, 'bench/results/profiles.md');
const options = (await prettier.resolveConfig(resultsFile)) ?? {};
writeFileSync(resultsFile, await prettier.format(out.join('\n\n'), { ...options, parser: 'markdown' }));
console.log('Written to bench/results/profiles.md');
