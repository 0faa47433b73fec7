import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { hitAll, waitIfReached } from '../src/store/rate-limits.ts';
import { forEachBackend } from './support/backends.ts';
import { Harness } from './support/harness.ts';

/**
 * Limits checked during a request and counted by its transaction's last statement (countAtCommit): the
 * check locks nothing, the count adds one per rule whatever the order given, each with its own window.
 */
forEachBackend('rate-limit counts at commit', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());

  const counts = async () =>
    Object.fromEntries(
      (
        await h.db.query<{ key: string; count: number }>(
          "SELECT key, count FROM rate_limits WHERE key LIKE 'test:%' ORDER BY key",
        )
      ).map((r) => [r.key, r.count]),
    );

  it('counts each rule once per call, in one statement, and waitIfReached says when a window is full', async () => {
    const now = new Date('2026-11-25T10:00:00Z');
    const a = { key: 'test:a', limit: 2, windowSeconds: 60 };
    const b = { key: 'test:b', limit: 5, windowSeconds: 1 };
    assert.equal(await waitIfReached(h.db, a, now), 0, 'nothing counted yet');
    await hitAll(h.db, [b, a], now);
    await hitAll(h.db, [a, b, a], now);
    assert.deepEqual(await counts(), { 'test:a': 2, 'test:b': 2 }, 'a rule given twice counts once');
    assert.equal(await waitIfReached(h.db, a, now), 60, 'full: the rest of its window');
    assert.equal(await waitIfReached(h.db, b, now), 0);
    // Two seconds on: b's one-second window starts over, a's minute goes on.
    const later = new Date(now.getTime() + 2000);
    await hitAll(h.db, [a, b], later);
    assert.deepEqual(await counts(), { 'test:a': 3, 'test:b': 1 });
    assert.equal(await waitIfReached(h.db, a, later), 58);
  });

  it('the check locks nothing: another transaction counts the same key while one that checked it is open', async (t) => {
    if (backend.name === 'pglite') {
      t.skip('PGlite has one connection: transactions never overlap');
      return;
    }
    const now = new Date('2026-11-25T11:00:00Z');
    const rule = { key: 'test:shared', limit: 100, windowSeconds: 600 };
    await hitAll(h.db, [rule], now);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let checked: () => void = () => {};
    const hasChecked = new Promise<void>((resolve) => (checked = resolve));
    const first = h.db.transaction(async (tx) => {
      await waitIfReached(tx, rule, now);
      checked();
      await held;
      await hitAll(tx, [rule], now);
    });
    await hasChecked;
    // Would wait for `first` to commit if the check had locked the counter's row.
    const second = h.db.transaction((tx) => hitAll(tx, [rule], now));
    const outcome = await Promise.race([
      second.then(() => 'counted'),
      new Promise((resolve) => setTimeout(() => resolve('blocked'), 2000)),
    ]);
    release();
    await first;
    await second;
    assert.equal(outcome, 'counted');
    assert.deepEqual((await counts())['test:shared'], 3);
  });
});
