/**
 * Whether a wrong password costs the same time for an unknown account as for a known one (the missing-user
 * path hashes a dummy password), measured on the real product server. A figure to read, not a test: a
 * loaded machine moves medians, so no suite asserts on them.
 *
 *   node --import tsx bench/password-timing.ts [--rounds 40]
 */
import { parseArgs } from 'node:util';
import { FapiClient, testModeEmail } from '../e2e/support/fapi-client.ts';
import { testModeSignUp } from '../e2e/support/wire-flows.ts';
import { startProductServer } from './lib/product-server.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '40' } } });
const rounds = Number(values.rounds);

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const server = await startProductServer('pglite', '');
try {
  // A fresh known account per guess, so no lockout or attempt delay answers a guess without the hash.
  const known: string[] = [];
  for (let i = 0; i < rounds + 5; i++) {
    const email = testModeEmail('timed');
    await testModeSignUp(new FapiClient(server.publicUrl), email);
    known.push(email);
  }
  const timed = async (identifier: string) => {
    const browser = new FapiClient(server.publicUrl);
    const started = performance.now();
    const res = await browser.post('/client/sign_ins', {
      identifier,
      password: 'a wrong password',
      strategy: 'password',
    });
    const ms = performance.now() - started;
    if (res.status !== 422) throw new Error(`expected 422, got ${res.status}`);
    return ms;
  };
  for (let i = 0; i < 5; i++) {
    await timed(known.pop()!);
    await timed(testModeEmail('nobody'));
  }
  const existing: number[] = [];
  const missing: number[] = [];
  // Interleaved, so load on the machine falls on both alike.
  for (let i = 0; i < rounds; i++) {
    if (i % 2) {
      existing.push(await timed(known.pop()!));
      missing.push(await timed(testModeEmail('nobody')));
    } else {
      missing.push(await timed(testModeEmail('nobody')));
      existing.push(await timed(known.pop()!));
    }
  }
  const k = median(existing);
  const m = median(missing);
  console.log(
    `wrong password, median over ${rounds}: existing account ${k.toFixed(1)} ms, unknown ${m.toFixed(1)} ms`,
  );
  console.log(`difference ${((Math.abs(k - m) / Math.max(k, m)) * 100).toFixed(0)} % of the slower`);
} finally {
  await server.stop();
}
