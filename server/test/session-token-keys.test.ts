import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { JwksKeys, PemKey } from '../src/auth/session-token-keys.ts';

/**
 * When the held JWKS is fetched again, on a clock of the test's own. The fetch is a plain function
 * returning key sets, as the Backend API's GET /v1/jwks would; session-check.test.ts runs the same
 * class against the real provider.
 */
function keysOver(sets: (() => { keys: { kid: string; n: string }[] })[]) {
  let clock = 0;
  const fetched: number[] = [];
  const keys = new JwksKeys(
    async () => {
      fetched.push(clock);
      const next = sets[Math.min(fetched.length - 1, sets.length - 1)]!;
      return next();
    },
    { refreshAfterMs: 300_000, unknownKidRetryMs: 10_000 },
    () => clock,
  );
  return { keys, fetched, advance: (ms: number) => (clock += ms) };
}

const set =
  (...kids: string[]) =>
  () => ({ keys: kids.map((kid) => ({ kid, n: `modulus of ${kid}` })) });

describe('JwksKeys: the instance keys held by an authenticator', () => {
  test('fetched on the first token, then served from memory', async () => {
    const { keys, fetched, advance } = keysOver([set('k1')]);
    assert.deepEqual(await keys.keyFor('k1'), { kid: 'k1', n: 'modulus of k1' });
    advance(60_000);
    await keys.keyFor('k1');
    await keys.keyFor('k1');
    assert.deepEqual(fetched, [0]);
  });

  test('a token without a kid is refused without a fetch', async () => {
    const { keys, fetched } = keysOver([set('k1')]);
    assert.equal(await keys.keyFor(undefined), null);
    assert.deepEqual(fetched, []);
  });

  test('older than five minutes: fetched again in the background, a dropped key then refused', async () => {
    const { keys, fetched, advance } = keysOver([set('k1'), set('k2')]);
    await keys.keyFor('k1');
    advance(300_000);
    // Still answered from memory: the request does not wait for the refresh it starts.
    assert.deepEqual(await keys.keyFor('k1'), { kid: 'k1', n: 'modulus of k1' });
    assert.deepEqual(fetched, [0, 300_000]);
    await new Promise((resolve) => setImmediate(resolve));
    advance(10_000);
    assert.equal(await keys.keyFor('k1'), null);
    assert.deepEqual(await keys.keyFor('k2'), { kid: 'k2', n: 'modulus of k2' });
  });

  test('an unknown kid fetches again (a rotation), at most once per 10 s', async () => {
    const { keys, fetched, advance } = keysOver([set('k1'), set('k1', 'k2')]);
    await keys.keyFor('k1');
    advance(10_000);
    assert.deepEqual(await keys.keyFor('k2'), { kid: 'k2', n: 'modulus of k2' });
    for (let i = 0; i < 5; i++) assert.equal(await keys.keyFor(`made-up-${i}`), null);
    assert.deepEqual(fetched, [0, 10_000]);
    advance(10_000);
    assert.equal(await keys.keyFor('made-up-again'), null);
    assert.deepEqual(fetched, [0, 10_000, 20_000]);
  });

  test('tokens arriving together wait for one fetch', async () => {
    const { keys, fetched } = keysOver([set('k1')]);
    const found = await Promise.all([1, 2, 3, 4].map(() => keys.keyFor('k1')));
    assert.equal(found.filter(Boolean).length, 4);
    assert.deepEqual(fetched, [0]);
  });

  test('a failed fetch is the refusal’s reason; the keys held before stay', async () => {
    let fail = true;
    const { keys, advance } = keysOver([
      () => {
        if (fail) throw new Error('Backend API unreachable');
        return set('k1')();
      },
    ]);
    await assert.rejects(keys.keyFor('k1'), /Backend API unreachable/);
    await assert.rejects(keys.keyFor('k1'), /Backend API unreachable/, 'until the retry, the same reason');
    advance(10_000);
    fail = false;
    assert.ok(await keys.keyFor('k1'));
    fail = true;
    advance(300_000);
    assert.ok(await keys.keyFor('k1'), 'a failed background refresh keeps the key');
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(await keys.keyFor('k1'));
  });

  test('an empty key set is a failure, not an instance without keys', async () => {
    const { keys } = keysOver([() => ({ keys: [] })]);
    await assert.rejects(keys.keyFor('k1'), /no signing key/);
  });
});

test('PemKey: the one key, whatever the kid, and nothing fetched', async () => {
  const pem = '-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----';
  assert.equal(await new PemKey(pem).keyFor(), pem);
});
