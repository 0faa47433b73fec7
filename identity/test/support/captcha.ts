import assert from 'node:assert/strict';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Browser } from './harness.ts';

/** A proof of work as the page's widget makes it: a challenge from the instance, solved, as one token. */
export async function powToken(b: Browser): Promise<string> {
  const res = await b.get('/captcha/challenge');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const solution = await solveChallenge({ challenge: res.body, deriveKey });
  assert.ok(solution, 'the challenge is solvable');
  return Buffer.from(JSON.stringify({ challenge: res.body, solution })).toString('base64');
}
