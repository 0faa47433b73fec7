/**
 * Token minting alone (`POST /v1/client/sessions/{id}/tokens`, what clerk-js sends for `session.getToken()`),
 * to compare two versions of the server in the same minute on a shared machine, and to profile one.
 *
 *   node --import tsx bench/minting.ts [--seconds N] [--concurrency 1,16] [--db pglite,postgres]
 *        [--root DIR]... [--peer] [--cpu-prof DIR]
 *
 * `--root` names a checkout to run the server from (default: this one); give it twice, say an export of
 * main and this worktree, and the runs alternate between them, concurrency by concurrency, so both see
 * the same machine. `--cpu-prof DIR` starts the servers with `node --cpu-prof` and leaves one profile per
 * server in DIR (written when the server stops). PostgreSQL: BENCH_DATABASE_URL or TEST_DATABASE_URL
 * (default postgres://postgres@127.0.0.1:5432/test); each server gets a schema of its own, dropped at the
 * end. Prints the figures; writes nothing else.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runLoad, type LoadResult } from './lib/autocannon-run.ts';
import { measureLimits } from './lib/limits.ts';
import { startPeer, type PeerProcess } from './lib/peer-process.ts';
import { startProductServer, type DatabaseKind } from './lib/product-server.ts';
import { mintToken, signUpClient, tokenRequest } from './lib/signed-in-client.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '1,16' },
    db: { type: 'string', default: 'pglite,postgres' },
    root: { type: 'string', multiple: true },
    peer: { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const concurrencies = values.concurrency.split(',').map(Number);
const databases = values.db.split(',') as DatabaseKind[];
const HERE = fileURLToPath(new URL('../', import.meta.url));
const roots = (values.root?.length ? values.root : [HERE]).map((r) => resolve(r));
const profileDir = values['cpu-prof'] ? resolve(values['cpu-prof']) : null;
const postgresUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';

interface Server {
  root: string;
  origin: string;
  publicUrl: string;
  stop(): Promise<void>;
}

/** The product server of `root` in a process of its own, with a stub web app (minting needs none). */
async function startServer(root: string, db: DatabaseKind): Promise<Server> {
  const nodeFlags = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const server = await startProductServer(db, postgresUrl, { root, stubWeb: true, nodeFlags });
  return { root, origin: server.origin, publicUrl: server.publicUrl, stop: () => server.stop() };
}

const line = (label: string, c: number, r: LoadResult, extra = '') =>
  console.log(
    `${label.padEnd(40)} c=${String(c).padStart(2)}  ${r.rps.toFixed(0).padStart(5)} req/s  ` +
      `p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  errors ${r.errors}${extra}`,
  );

let limit: number | null = null;
for (const db of databases) {
  const servers: Server[] = [];
  let peer: PeerProcess | null = null;
  try {
    for (const root of roots) servers.push(await startServer(root, db));
    const members = await Promise.all(
      servers.map((s) => signUpClient(s.origin, s.publicUrl, 'minting', { organization: true })),
    );
    if (limit === null) {
      limit = (await measureLimits(await mintToken(members[0]!), 3)).rs256Sign;
      console.log(`RS256 signatures/s (jose, 4 in flight, nothing else running): ${limit.toFixed(0)}`);
    }
    if (values.peer) peer = await startPeer(db, postgresUrl);
    for (const c of concurrencies) {
      let peerRps: number | null = null;
      if (peer) {
        const r = await runLoad({
          origin: peer.origin,
          requests: [peer.tokenMinting],
          connections: c,
          seconds,
        });
        peerRps = r.rps;
        line(`[${db}] peer ${peer.name}`, c, r);
      }
      for (const [i, s] of servers.entries()) {
        const r = await runLoad({
          origin: s.origin,
          requests: [tokenRequest(members[i]!)],
          connections: c,
          seconds,
        });
        const share = ` ${((r.rps / limit) * 100).toFixed(1)} % of RS256`;
        const vsPeer = peerRps ? ` ${(r.rps / peerRps).toFixed(2)}× peer` : '';
        line(`[${db}] ${s.root}`, c, r, share + vsPeer);
      }
    }
  } finally {
    await peer?.stop();
    for (const s of servers) await s.stop();
  }
}
