/**
 * Measures the hottest Frontend API call: POST /client/sessions/{id}/tokens (every ~45 s per open tab),
 * and the product API's token verification (GET /api/me). Prints requests per second and latency
 * percentiles. Usage: node --import tsx bench/session-token.ts [seconds=10] [concurrency=16]
 */
import { startServer, removeDataDir } from '../e2e/support/server.ts';

const seconds = Number(process.argv[2] ?? 10);
const concurrency = Number(process.argv[3] ?? 16);
const server = await startServer({ env: { LOG_LEVEL: 'error' } });
const fapi = `${server.origin}/__clerk/v1`;

// A signed-in browser, made through the same calls clerk-js makes.
let cookie = '';
async function call(path: string, body: Record<string, string>) {
  const res = await fetch(`${fapi}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: server.origin },
    body: new URLSearchParams(body),
  });
  const set = res.headers.getSetCookie().find((c) => c.startsWith('__client='));
  if (set) cookie = set.split(';')[0]!;
  return (await res.json()) as { response: { id: string; created_session_id: string } };
}
const email = `bench+clerk_test@example.com`;
const signUp = await call('/client/sign_ups', { email_address: email, password: 'bench-password-123' });
await call(`/client/sign_ups/${signUp.response.id}/prepare_verification`, { strategy: 'email_code' });
const done = await call(`/client/sign_ups/${signUp.response.id}/attempt_verification`, {
  strategy: 'email_code',
  code: '424242',
});
const sessionId: string = done.response.created_session_id;

async function measure(name: string, request: () => Promise<Response>) {
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const start = performance.now();
        const res = await request();
        await res.arrayBuffer();
        if (res.ok) latencies.push(performance.now() - start);
        else errors += 1;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(1);
  console.log(
    `${name}: ${(latencies.length / seconds).toFixed(0)} req/s, p50 ${pct(50)} ms, p95 ${pct(95)} ms, p99 ${pct(99)} ms, ` +
      `errors ${errors} (${seconds} s, concurrency ${concurrency}, ${server.app.identity!.deps.db.kind})`,
  );
}

await measure('POST /client/sessions/{id}/tokens', () =>
  fetch(`${fapi}/client/sessions/${sessionId}/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: server.origin },
    body: 'organization_id=',
  }),
);
const { jwt } = (await (
  await fetch(`${fapi}/client/sessions/${sessionId}/tokens`, {
    method: 'POST',
    headers: { cookie, origin: server.origin },
  })
).json()) as { jwt: string };
await measure('GET /api/me (verify + Backend API user fetch)', () =>
  fetch(`${server.origin}/api/me`, { headers: { authorization: `Bearer ${jwt}` } }),
);
await server.stop();
removeDataDir(server.dataDir);
