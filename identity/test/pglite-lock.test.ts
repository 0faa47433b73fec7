import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openDatabase } from '../src/db/database.ts';
import { DatabaseInUseError, holderOf, lockFileOf } from '../src/db/pglite-lock.ts';

describe('one process per PGlite directory', () => {
  const root = mkdtempSync(join(tmpdir(), 'pglite-lock-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('a second open is refused while the first is open, and allowed once it is closed', async () => {
    const dataDir = join(root, 'a', 'pglite');
    const first = await openDatabase({ dataDir });
    assert.equal(holderOf(dataDir), process.pid);
    await assert.rejects(openDatabase({ dataDir }), (err: unknown) => {
      assert.ok(err instanceof DatabaseInUseError);
      assert.equal(err.pid, process.pid);
      assert.equal(err.lockFile, lockFileOf(dataDir));
      return true;
    });
    await first.close();
    assert.equal(existsSync(lockFileOf(dataDir)), false, 'closing releases the directory');
    assert.equal(holderOf(dataDir), null);
    const second = await openDatabase({ dataDir });
    await second.query('SELECT 1');
    await second.close();
  });

  it('the lock of a process that died is taken over', async () => {
    const dataDir = join(root, 'b', 'pglite');
    const db = await openDatabase({ dataDir });
    await db.close();
    // No process has this pid: the highest pid Linux hands out is below 2^22.
    writeFileSync(lockFileOf(dataDir), JSON.stringify({ pid: 2 ** 22 + 1 }));
    assert.equal(holderOf(dataDir), null);
    const again = await openDatabase({ dataDir });
    assert.equal(holderOf(dataDir), process.pid);
    await again.close();
  });
});
