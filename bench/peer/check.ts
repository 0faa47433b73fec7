/**
 * Self-check of the better-auth peer: starts it on PGlite and on PostgreSQL, sends each of its three
 * benchmark requests once, prints the status codes and fails unless all are 2xx. No load.
 * Usage: node --import tsx bench/peer/check.ts   (TEST_DATABASE_URL, default the local `test` db)
 */
import { startBetterAuthPeer, type Peer, type PeerRequest } from './better-auth-peer.ts';

const url = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
let failed = false;

type Operation = 'tokenMinting' | 'sessionCheck' | 'passwordSignIn';

/** What each answer must hold besides a 2xx status: null when it does, else what is wrong. */
const checks: Record<Operation, (body: unknown) => string | null> = {
  tokenMinting(body) {
    const token = (body as { token?: unknown }).token;
    if (typeof token !== 'string') return 'no token';
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<
      string,
      unknown
    >;
    return typeof claims.org_id === 'string' &&
      claims.org_role === 'org:owner' &&
      typeof claims.sid === 'string'
      ? null
      : 'token carries no active organisation';
  },
  sessionCheck(body) {
    const me = body as { orgId?: unknown; user?: { primaryEmailAddress?: unknown } };
    return typeof me.orgId === 'string' && typeof me.user?.primaryEmailAddress === 'string'
      ? null
      : 'no user or organisation in the answer';
  },
  passwordSignIn(body) {
    return typeof (body as { token?: unknown }).token === 'string' ? null : 'no session in the answer';
  },
};

for (const db of [{ kind: 'pglite' as const }, { kind: 'postgres' as const, url }]) {
  const started = performance.now();
  const peer = await startBetterAuthPeer(db);
  console.log(`${peer.name} at ${peer.origin}, ready in ${(performance.now() - started).toFixed(0)} ms`);
  try {
    for (const name of ['tokenMinting', 'sessionCheck', 'passwordSignIn'] as const) {
      const { status, body } = await send(peer, peer[name]);
      const problem = !(status >= 200 && status < 300) ? 'not 2xx' : checks[name](body);
      if (problem) failed = true;
      console.log(
        `  ${name}: ${peer[name].method} ${peer[name].path} → ${status}${problem ? `  FAILED: ${problem}` : ''}`,
      );
    }
    // The product route must refuse a token it cannot verify (a check that can fail).
    const forged = {
      ...peer.sessionCheck,
      headers: { authorization: `${peer.sessionCheck.headers.authorization}x` },
    };
    const { status } = await send(peer, forged);
    if (status !== 401) failed = true;
    console.log(`  sessionCheck with a forged token → ${status}${status === 401 ? '' : '  FAILED: not 401'}`);
  } finally {
    await peer.stop();
  }
}

if (failed) {
  console.error('better-auth peer check failed');
  process.exit(1);
}
console.log('better-auth peer check passed');

async function send(peer: Peer, req: PeerRequest): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${peer.origin}${req.path}`, {
    method: req.method,
    headers: req.headers,
    ...(req.body === undefined ? {} : { body: req.body }),
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: the status alone tells.
  }
  return { status: res.status, body };
}
