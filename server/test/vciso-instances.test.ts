import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openDatabase, type Database } from '@app/identity';
import {
  freePort,
  sessionToken,
  signUpUser,
  startEmbeddedServer,
  type EmbeddedServer,
  type User,
} from './support/embedded-server.ts';
import { enableVcisoModule, organization, storedMetadata } from './support/vciso-world.ts';

/**
 * Two product server processes on one PostgreSQL (a fresh schema), both in hosted-Clerk mode against the
 * embedded provider of this test process, change the same hierarchy at the same moment. Nothing may be
 * lost and no cycle may form, in the product database or, once both outboxes are drained, in metadata.
 */
const url = process.env.TEST_DATABASE_URL;

describe('two server processes on one PostgreSQL change one hierarchy [postgres]', { skip: !url }, () => {
  let provider: EmbeddedServer;
  let shared: Database;
  const schema = `test_${randomBytes(6).toString('hex')}_shared`;
  const webDist = mkdtempSync(join(tmpdir(), 'instances-web-'));
  const instances: { origin: string; child: ChildProcess; output: string[] }[] = [];
  let v: User;
  let a: User;

  before(async () => {
    provider = await startEmbeddedServer({ databaseUrl: url });
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>test</title>');
    const bapi = `http://127.0.0.1:${new URL(provider.origin).port}/__clerk_backend`;
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const output: string[] = [];
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
        cwd: new URL('../..', import.meta.url).pathname,
        env: {
          ...process.env,
          CLERK_PUBLISHABLE_KEY: provider.app.identity!.publishableKey,
          CLERK_SECRET_KEY: provider.app.identity!.secretKey,
          CLERK_API_URL: bapi,
          AUTHORIZED_PARTIES: provider.origin,
          DATABASE_URL: url,
          PRODUCT_DATABASE_SCHEMA: schema,
          PORT: String(port),
          HOST: '127.0.0.1',
          WEB_DIST: webDist,
          LOG_LEVEL: 'warn',
          // Two servers, the provider and this test share the server's max_connections with whatever
          // else the suite runs beside: each server keeps a small pool.
          DATABASE_POOL_MAX: '4',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (chunk) => output.push(String(chunk)));
      child.stderr!.on('data', (chunk) => output.push(String(chunk)));
      instances.push({ origin: `http://127.0.0.1:${port}`, child, output });
    }
    for (const instance of instances) await waitUntilUp(instance);
    shared = await openDatabase({ url: url!, schema });
    [v, a] = await Promise.all([signUpUser(provider, 'inst-vciso'), signUpUser(provider, 'inst-admin')]);
  });

  after(async () => {
    for (const { child } of instances) {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    }
    await shared?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await shared?.close();
    await provider?.stop();
    rmSync(webDist, { recursive: true, force: true });
  });

  const call = async (instance: number, token: string, method: 'PUT' | 'DELETE', path: string) => {
    const res = await fetch(`${instances[instance]!.origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await res.json()) as { errors?: { code: string }[] };
    return { status: res.status, code: body.errors?.[0]?.code };
  };
  const firm = async (name: string) => {
    const id = await organization(a, name, [[v, 'org:vciso']]);
    await enableVcisoModule(provider, a, id);
    return id;
  };
  const linkRows = async () =>
    shared.query<{ child_id: string; parent_id: string }>(
      'SELECT child_id, parent_id FROM vciso_links ORDER BY position',
    );
  const drained = async () => {
    const until = Date.now() + 30_000;
    while ((await shared.query('SELECT 1 FROM metadata_outbox')).length) {
      assert.ok(Date.now() < until, 'the outboxes drain');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  test('attaching and detaching many children of one parent at once, through both: no link lost', async () => {
    const parent = await firm('Shared Parent');
    const children: string[] = [];
    for (let i = 0; i < 16; i++) children.push(await organization(v, `Shared Child ${i}`));
    const token = await sessionToken(v, parent);

    const attached = await Promise.all(
      children.map((id, i) => call(i % 2, token, 'PUT', `/api/organizations/current/children/${id}`)),
    );
    assert.deepEqual(
      attached.map((r) => r.status),
      children.map(() => 200),
    );
    assert.deepEqual((await linkRows()).map((r) => r.child_id).sort(), [...children].sort());

    // Each even child detached by both instances at once (one wins, the other finds it gone), while the
    // odd ones are attached again (replays).
    const evens = children.filter((_, i) => i % 2 === 0);
    const odds = children.filter((_, i) => i % 2 === 1);
    const second = await Promise.all([
      ...evens.flatMap((id) =>
        [0, 1].map((n) => call(n, token, 'DELETE', `/api/organizations/current/children/${id}`)),
      ),
      ...odds.map((id, i) => call(i % 2, token, 'PUT', `/api/organizations/current/children/${id}`)),
    ]);
    const detaches = second.slice(0, evens.length * 2);
    for (let i = 0; i < evens.length; i++) {
      assert.deepEqual([detaches[2 * i]!.status, detaches[2 * i + 1]!.status].sort(), [200, 404]);
    }
    assert.ok(second.slice(evens.length * 2).every((r) => r.status === 200));
    const rows = await linkRows();
    assert.deepEqual(rows.map((r) => r.child_id).sort(), [...odds].sort());
    assert.ok(rows.every((r) => r.parent_id === parent));

    await drained();
    const expected = rows.map((r) => r.child_id);
    assert.deepEqual((await storedMetadata(provider, parent))?.vcisoChildOrganizations, expected);
    for (const id of odds) assert.equal((await storedMetadata(provider, id))?.parentOrganizationId, parent);
    for (const id of evens)
      assert.equal((await storedMetadata(provider, id))?.parentOrganizationId, undefined);
  });

  test('closing a cycle from both sides at once, through both instances: never both', async () => {
    const [x, y, z] = [await firm('Cycle X'), await firm('Cycle Y'), await firm('Cycle Z')];
    const tokens = { x: await sessionToken(v, x), y: await sessionToken(v, y), z: await sessionToken(v, z) };
    for (let round = 0; round < 4; round++) {
      // Two-way: X takes Y while Y takes X.
      const pair = await Promise.all([
        call(round % 2, tokens.x, 'PUT', `/api/organizations/current/children/${y}`),
        call((round + 1) % 2, tokens.y, 'PUT', `/api/organizations/current/children/${x}`),
      ]);
      assert.deepEqual(pair.map((r) => r.status).sort(), [200, 409]);
      assert.ok(pair.some((r) => r.code === 'hierarchy_cycle'));
      const [winner] = (await linkRows()).filter((r) => [x, y].includes(r.child_id));
      assert.ok(winner);
      // Three-way: with X—Y linked, Z tries to go above while the bottom one tries to take Z.
      const top = winner.parent_id;
      const bottom = winner.child_id;
      const triple = await Promise.all([
        call(round % 2, tokens.z, 'PUT', `/api/organizations/current/children/${top}`),
        call(
          (round + 1) % 2,
          bottom === x ? tokens.x : tokens.y,
          'PUT',
          `/api/organizations/current/children/${z}`,
        ),
      ]);
      assert.deepEqual(triple.map((r) => r.status).sort(), [200, 409], JSON.stringify(triple));
      await assertNoCycle(await linkRows());
      // Undo everything for the next round.
      for (const row of (await linkRows()).filter((r) => [x, y, z].includes(r.child_id))) {
        const token = row.parent_id === x ? tokens.x : row.parent_id === y ? tokens.y : tokens.z;
        assert.equal(
          (await call(round % 2, token, 'DELETE', `/api/organizations/current/children/${row.child_id}`))
            .status,
          200,
        );
      }
    }
    await drained();
    for (const id of [x, y, z]) {
      const metadata = await storedMetadata(provider, id);
      assert.equal(metadata?.parentOrganizationId, undefined);
      assert.deepEqual(metadata?.vcisoChildOrganizations ?? [], []);
    }
  });

  async function assertNoCycle(rows: { child_id: string; parent_id: string }[]) {
    const parentOf = new Map(rows.map((r) => [r.child_id, r.parent_id]));
    for (const start of parentOf.keys()) {
      const seen = new Set([start]);
      for (let at = parentOf.get(start); at; at = parentOf.get(at)) {
        assert.ok(!seen.has(at), `cycle through ${at}`);
        seen.add(at);
      }
    }
  }

  async function waitUntilUp(instance: { origin: string; child: ChildProcess; output: string[] }) {
    const until = Date.now() + 60_000;
    for (;;) {
      if (instance.child.exitCode !== null) assert.fail(`the server exited: ${instance.output.join('')}`);
      try {
        if ((await fetch(`${instance.origin}/app-config.json`)).ok) return;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > until) assert.fail(`the server did not start: ${instance.output.join('')}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
});
