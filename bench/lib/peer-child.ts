/**
 * Runs the better-auth peer (bench/peer/better-auth-peer.ts) in a process of its own, like our product
 * server, and prints its requests as one `PEER <json>` line. Argument: `pglite` or a PostgreSQL URL.
 */
import type { PeerDescription, PeerModule } from './peer-process.ts';

const arg = process.argv[2] ?? 'pglite';
// A variable specifier: the peer is written separately and may be absent (then the runner skips it).
const modulePath = new URL('../peer/better-auth-peer.ts', import.meta.url).href;
const { startBetterAuthPeer } = (await import(modulePath)) as PeerModule;
const peer = await startBetterAuthPeer(
  arg === 'pglite' ? { kind: 'pglite' } : { kind: 'postgres', url: arg },
);
const description: PeerDescription = {
  name: peer.name,
  origin: peer.origin,
  tokenMinting: peer.tokenMinting,
  sessionCheck: peer.sessionCheck,
  passwordSignIn: peer.passwordSignIn,
};
process.stdout.write(`PEER ${JSON.stringify(description)}\n`);
process.once('SIGTERM', async () => {
  await peer.stop();
  process.exit(0);
});
