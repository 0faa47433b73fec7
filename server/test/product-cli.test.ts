import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runProductCli } from '../src/cli/run-product-cli.ts';
import {
  signUpUser,
  startEmbeddedServer,
  type EmbeddedServer,
  type User,
} from './support/embedded-server.ts';
import { links, organization, storedMetadata } from './support/vciso-world.ts';

/** `npm run product -- …` against the real server's product database and Backend API. */
describe('product CLI: repair-metadata and import-metadata', () => {
  let server: EmbeddedServer;
  let v: User;

  before(async () => {
    server = await startEmbeddedServer();
    v = await signUpUser(server, 'cli-vciso');
  });
  after(() => server?.stop());

  const run = async (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runProductCli(args, {
      env: {},
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      open: async () => ({ hierarchy: server.app.hierarchy, close: async () => {} }),
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  const write = (id: string, publicMetadata: Record<string, unknown>) =>
    server.app.hierarchy.organizations().updateOrganizationMetadata(id, { publicMetadata });

  test('repair-metadata rewrites hand-made drift from the relational state, and clears links it does not hold', async () => {
    const parent = await organization(v, 'Repair Firm');
    await v.browser.call('PATCH', `/organizations/${parent}/memberships/${v.userId}`, { role: 'org:vciso' });
    const [x, y, stray] = [
      await organization(v, 'Repair X'),
      await organization(v, 'Repair Y'),
      await organization(v, 'Stray'),
    ];
    // Linked in the product database (as the console would), metadata then broken by hand.
    await server.app.hierarchy.db.query(
      'INSERT INTO vciso_links (child_id, parent_id) VALUES ($1, $3), ($2, $3)',
      [x, y, parent],
    );
    await write(parent, { vcisoChildOrganizations: [y, stray] });
    await write(x, { parentOrganizationId: stray });
    await write(stray, { parentOrganizationId: parent, vcisoChildOrganizations: [x] });

    const result = await run('repair-metadata');
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, /re-projected/);
    assert.deepEqual((await storedMetadata(server, parent))?.vcisoChildOrganizations, [x, y]);
    assert.equal((await storedMetadata(server, x))?.parentOrganizationId, parent);
    assert.equal((await storedMetadata(server, y))?.parentOrganizationId, parent);
    const strayMetadata = await storedMetadata(server, stray);
    assert.equal(strayMetadata?.parentOrganizationId, undefined);
    assert.deepEqual(strayMetadata?.vcisoChildOrganizations, []);

    // A second run finds nothing to do.
    const again = await run('repair-metadata');
    assert.equal(again.code, 0);
    assert.match(again.out, /0 re-projected\./);
  });

  test('import-metadata adopts a hierarchy found only in metadata, once, leaving out what breaks the rules', async () => {
    const [p, c1, c2, loopA, loopB] = [
      await organization(v, 'Legacy Parent'),
      await organization(v, 'Legacy One'),
      await organization(v, 'Legacy Two'),
      await organization(v, 'Loop A'),
      await organization(v, 'Loop B'),
    ];
    // A deployment from before the product database: the hierarchy only in metadata (a loop included).
    await server.app.hierarchy.db.query('DELETE FROM vciso_links');
    await server.app.hierarchy.db.query('DELETE FROM product_state');
    await write(p, { vcisoChildOrganizations: [c2, c1] });
    await write(c1, { parentOrganizationId: p });
    await write(c2, { parentOrganizationId: p });
    await write(loopA, { parentOrganizationId: loopB });
    await write(loopB, { parentOrganizationId: loopA });

    const result = await run('import-metadata');
    assert.equal(result.code, 0, result.err);
    // Three here, and the links of the test before, which live in metadata too.
    assert.match(result.out, /Adopted [3-9] link\(s\)/);
    assert.match(result.out, /hierarchy_cycle/);
    const held = await links(server);
    assert.ok(held.includes(`${c1}→${p}`) && held.includes(`${c2}→${p}`));
    assert.equal(held.filter((l) => l.includes(loopA) && l.includes(loopB)).length, 1);
    // The parent's order is kept, and metadata now matches what was adopted.
    const children = await server.app.hierarchy.db.query<{ child_id: string }>(
      'SELECT child_id FROM vciso_links WHERE parent_id = $1 ORDER BY position',
      [p],
    );
    assert.deepEqual(
      children.map((r) => r.child_id),
      [c2, c1],
    );
    const parentsOfLoop = [
      (await storedMetadata(server, loopA))?.parentOrganizationId,
      (await storedMetadata(server, loopB))?.parentOrganizationId,
    ];
    assert.equal(parentsOfLoop.filter(Boolean).length, 1, 'the loop is broken in metadata too');

    const again = await run('import-metadata');
    assert.equal(again.code, 0);
    assert.match(again.out, /adopted before/);
  });

  test('unknown commands and arguments are refused with the usage', async () => {
    for (const args of [['nonsense'], ['repair-metadata', '--all'], []]) {
      const result = await run(...args);
      assert.equal(result.code, 1, args.join(' '));
    }
    assert.equal((await run('help')).code, 0);
  });

  test('`npm run product -- repair-metadata` runs as its own process on a fresh data directory', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'product-cli-'));
    try {
      const child = spawn('npm', ['run', '--silent', 'product', '--', 'repair-metadata'], {
        cwd: new URL('../..', import.meta.url).pathname,
        env: { ...process.env, DATA_DIR: dataDir, IDENTITY_MODE: 'development', DATABASE_URL: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      assert.equal(code, 0, output);
      assert.match(output, /Checked 0 organisation\(s\); 0 re-projected\./);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
