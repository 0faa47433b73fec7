import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WorkLimiter, WorkLimiterBusyError } from '../src/crypto/work-limiter.ts';

/** A task the test finishes when it wants: no timing involved. */
function controllable() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  let started = false;
  return {
    task: async () => {
      started = true;
      await done;
    },
    finish,
    get started() {
      return started;
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the argon2 work limiter', () => {
  it('runs at most `concurrency` tasks, queues `maxWaiting`, refuses the rest at once, and passes slots on in order', async () => {
    const limiter = new WorkLimiter({ concurrency: 2, maxWaiting: 2, maxWaitMs: 60_000 });
    const tasks = Array.from({ length: 5 }, controllable);
    const runs = tasks.map((t) =>
      limiter.run(t.task).then(
        () => 'done',
        (err: unknown) => err,
      ),
    );
    await settle();
    assert.deepEqual(
      tasks.map((t) => t.started),
      [true, true, false, false, false],
    );
    assert.equal(limiter.running, 2);
    assert.equal(limiter.waiting, 2);
    assert.ok((await runs[4]) instanceof WorkLimiterBusyError, 'the fifth is refused without waiting');

    tasks[1]!.finish();
    await settle();
    assert.deepEqual(
      tasks.map((t) => t.started),
      [true, true, true, false, false],
    );
    assert.equal(limiter.running, 2);
    assert.equal(limiter.waiting, 1);

    for (const t of tasks) t.finish();
    assert.deepEqual(await Promise.all(runs.slice(0, 4)), ['done', 'done', 'done', 'done']);
    assert.equal(limiter.running, 0);
    assert.equal(limiter.waiting, 0);
  });

  it('frees the slot of a task that fails', async () => {
    const limiter = new WorkLimiter({ concurrency: 1, maxWaiting: 0, maxWaitMs: 60_000 });
    await assert.rejects(
      limiter.run(async () => {
        throw new Error('argon2 failed');
      }),
      /argon2 failed/,
    );
    assert.equal(limiter.running, 0);
    assert.equal(await limiter.run(async () => 42), 42);
  });

  it('takes new limits at once', async () => {
    const limiter = new WorkLimiter({ concurrency: 1, maxWaiting: 0, maxWaitMs: 60_000 });
    const first = controllable();
    const running = limiter.run(first.task);
    await settle();
    await assert.rejects(
      limiter.run(async () => 1),
      WorkLimiterBusyError,
    );
    limiter.configure({ concurrency: 2, maxWaiting: 0, maxWaitMs: 60_000 });
    assert.equal(await limiter.run(async () => 2), 2);
    first.finish();
    await running;
  });
});
