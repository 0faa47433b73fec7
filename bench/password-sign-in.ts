/**
 * Password sign-in alone, beside the argon2id limit measured in the same minute (and the better-auth peer
 * with --peer): the row of bench/api.ts that issue #13 targets, quick enough to compare before and after
 * a change on a shared machine.
 *
 *   node --import tsx bench/password-sign-in.ts [--seconds N] [--concurrency 1,16] [--db pglite,postgres]
 *     [--peer] [--cpu-prof DIR]
 *
 * Each row also says what the whole machine spent per answer (CPU ms from /proc/stat, the database and the
 * load generator included) and how much of it stayed idle: a server behind the peer either spends more
 * CPU per sign-in or leaves the machine waiting.
 *
 * --cpu-prof writes the product server's V8 CPU profile of each load run (one .cpuprofile per database and
 * concurrency) into DIR; open it in Chrome DevTools or speedscope. Argon2 runs on libuv's threads, which
 * the profile does not sample: what it shows is everything else the main thread does.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runLoad, type BenchRequest } from './lib/autocannon-run.ts';
import { measureLimits } from './lib/limits.ts';
import { machineCpuOf } from './lib/machine-cpu.ts';
import { startPeer, type PeerProcess } from './lib/peer-process.ts';
import { startProductServer, type DatabaseKind } from './lib/product-server.ts';
import { mintToken, passwordSignInRequest, signUpClient } from './lib/signed-in-client.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '8' },
    concurrency: { type: 'string', default: '1,16' },
    db: { type: 'string', default: 'pglite,postgres' },
    peer: { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const concurrencies = values.concurrency.split(',').map(Number);
const databases = values.db.split(',') as DatabaseKind[];
const postgresUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const profileDir = values['cpu-prof'] ? resolve(values['cpu-prof']) : null;
if (profileDir) {
  mkdirSync(profileDir, { recursive: true });
  // The server child inherits this process's environment (bench/lib/product-server.ts); node refuses
  // --cpu-prof in NODE_OPTIONS, so a preloaded module profiles it through the inspector.
  process.env.BENCH_CPU_PROFILE_DIR = profileDir;
}
const nodeOptions = process.env.NODE_OPTIONS ?? '';
const profiledNodeOptions = `${nodeOptions} --import ${new URL('./lib/cpu-profile-preload.mjs', import.meta.url).href}`;

const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));

for (const db of databases) {
  if (profileDir) process.env.NODE_OPTIONS = profiledNodeOptions;
  const server = await startProductServer(db, postgresUrl);
  // The profiler is for the server only.
  process.env.NODE_OPTIONS = nodeOptions;
  let peer: PeerProcess | null = null;
  try {
    const signer = await signUpClient(server.origin, server.publicUrl, 'password', { organization: false });
    const limits = await measureLimits(await mintToken(signer), 3);
    const request: BenchRequest = passwordSignInRequest(signer);
    peer = values.peer ? await startPeer(db, postgresUrl) : null;
    await runLoad({ origin: server.origin, requests: [request], connections: 4, seconds: 1 });
    if (peer)
      await runLoad({ origin: peer.origin, requests: [peer.passwordSignIn], connections: 4, seconds: 1 });
    console.log(`[${db}] argon2id limit: ${fmt(limits.argon2Verify)}/s (${limits.inFlight} in flight)`);
    for (const connections of concurrencies) {
      const profiled = profileDir ? Number(readFileSync(join(profileDir, 'server.pid'), 'utf8')) : 0;
      if (profiled) process.kill(profiled, 'SIGUSR2');
      const measured = await machineCpuOf(() =>
        runLoad({ origin: server.origin, requests: [request], connections, seconds }),
      );
      const ours = measured.result;
      if (profiled) process.kill(profiled, 'SIGUSR2');
      const statuses = Object.entries(ours.statusCounts)
        .map(([k, v]) => `${k}:${v}`)
        .join(' ');
      let line =
        `[${db}] c=${connections}: ${fmt(ours.rps)} req/s, p50 ${ours.p50} ms, p99 ${ours.p99} ms, ` +
        `${((100 * ours.rps) / limits.argon2Verify).toFixed(0)} % of the limit (${statuses}), ` +
        cpuNote(measured);
      if (peer) {
        const peerMeasured = await machineCpuOf(() =>
          runLoad({ origin: peer!.origin, requests: [peer!.passwordSignIn], connections, seconds }),
        );
        const theirs = peerMeasured.result;
        line +=
          `; peer ${fmt(theirs.rps)} req/s, ${cpuNote(peerMeasured)}; ` +
          `ours/peer ${(ours.rps / theirs.rps).toFixed(2)}×`;
      }
      console.log(line);
    }
  } finally {
    await peer?.stop();
    await server.stop();
  }
}

function cpuNote(m: { cpuMsPerAnswer: number | null; idleShare: number | null }): string {
  if (m.cpuMsPerAnswer === null || m.idleShare === null) return 'machine CPU unknown';
  return `${m.cpuMsPerAnswer.toFixed(1)} CPU ms each, machine ${(100 * m.idleShare).toFixed(0)} % idle`;
}
