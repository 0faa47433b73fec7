import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BenchRequest } from './autocannon-run.ts';
import { tail } from './child-process.ts';
import type { DatabaseKind } from './product-server.ts';

/** The interface of bench/peer/better-auth-peer.ts (agreed with its author; see that file). */
export interface PeerDescription {
  name: string;
  origin: string;
  tokenMinting: BenchRequest;
  sessionCheck: BenchRequest;
  passwordSignIn: BenchRequest;
}
export interface PeerModule {
  startBetterAuthPeer(
    db: { kind: 'postgres'; url: string } | { kind: 'pglite' },
  ): Promise<PeerDescription & { stop(): Promise<void> }>;
}

export interface PeerProcess extends PeerDescription {
  output(): string[];
  stop(): Promise<void>;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const PEER_FILE = fileURLToPath(new URL('../peer/better-auth-peer.ts', import.meta.url));

export function peerAvailable(): boolean {
  return existsSync(PEER_FILE);
}

/** Starts the better-auth peer in a child process (bench/lib/peer-child.ts) on the given database kind. */
export async function startPeer(
  db: DatabaseKind,
  postgresUrl: string,
  timeoutMs = 180_000,
): Promise<PeerProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/lib/peer-child.ts', db === 'pglite' ? 'pglite' : postgresUrl],
    { cwd: ROOT, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output = tail(child);
  const description = await new Promise<PeerDescription>((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(
      () => fail(new Error(`the peer did not start within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    const fail = (err: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${err.message}:\n${output().join('\n')}`));
    };
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n').find((l) => l.startsWith('PEER '));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line.slice(5)) as PeerDescription);
      }
    });
    child.once('exit', (code) => fail(new Error(`the peer exited (${code})`)));
  });
  return {
    ...description,
    output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
