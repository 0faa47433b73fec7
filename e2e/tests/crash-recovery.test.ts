// run-tests: alone (several server processes and a PostgreSQL cluster of its own, with readiness deadlines)
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from '../../identity/src/db/database.ts';
import { lockFileOf } from '../../identity/src/db/pglite-lock.ts';
import { bapi, FapiClient, testModeEmail, type WireResponse } from '../support/fapi-client.ts';
import {
  privatePostgresUnavailable,
  startPrivatePostgres,
  type PrivatePostgres,
} from '../support/private-postgres.ts';
import { SHARED_SECRET_KEY, spawnServer, type ServerProcess } from '../support/processes.ts';
import { signInWithPassword, testModeSignUp } from '../support/wire-flows.ts';

/** How many acknowledged writes the burst reaches before the process is killed. */
const KILL_AFTER_WRITES = 24;
/** Concurrent writers: each always has a request in flight. */
const WRITERS = 6;

interface Acknowledged {
  users: { email: string; userId: string }[];
  organizations: { id: string; slug: string; createdBy: string; via: 'fapi' | 'bapi' }[];
  memberships: { organizationId: string; userId: string }[];
}

/**
 * Invariants over the tables: each query lists what would be half-written (empty when all is whole).
 * Every user of the burst signed up with an address and a password; every organisation has a creator.
 */
const INVARIANTS: Record<string, string> = {
  'a user without its primary email address': `
    SELECT u.id FROM users u
    LEFT JOIN email_addresses e ON e.id = u.primary_email_address_id AND e.user_id = u.id
    WHERE e.id IS NULL`,
  'a user without its password': `SELECT id FROM users WHERE password_hash IS NULL`,
  'an email address of a sign-up left unverified': `SELECT id FROM email_addresses WHERE verified_at IS NULL`,
  'a user without the completed sign-up that created it': `
    SELECT u.id FROM users u
    WHERE NOT EXISTS (SELECT 1 FROM sign_ups s WHERE s.created_user_id = u.id AND s.status = 'complete')`,
  'a sign-up marked complete without its user or its session': `
    SELECT s.id FROM sign_ups s
    LEFT JOIN users u ON u.id = s.created_user_id
    LEFT JOIN sessions se ON se.id = s.created_session_id AND se.user_id = u.id
    WHERE s.status = 'complete' AND (u.id IS NULL OR se.id IS NULL)`,
  'an organisation without an admin': `
    SELECT o.id FROM organizations o
    WHERE NOT EXISTS (
      SELECT 1 FROM organization_memberships m WHERE m.organization_id = o.id AND m.role = 'org:admin')`,
  'an organisation whose creator is not its admin': `
    SELECT o.id FROM organizations o
    WHERE o.created_by IS NOT NULL AND NOT EXISTS (
      SELECT 1 FROM organization_memberships m
      WHERE m.organization_id = o.id AND m.user_id = o.created_by AND m.role = 'org:admin')`,
};

async function assertInvariants(db: Database) {
  for (const [what, sql] of Object.entries(INVARIANTS)) {
    const rows = await db.query(sql);
    assert.deepEqual(rows, [], `found ${what}`);
  }
}

type Where = { kind: 'postgres'; pg: PrivatePostgres } | { kind: 'pglite'; dataDir: string };

/**
 * Writers sign up (Frontend API), create organisations (alternately as the new user through the Frontend
 * API and with the secret key through the Backend API) and add earlier users as members, recording each
 * write the server acknowledged with a 2xx. Once `KILL_AFTER_WRITES` are acknowledged the process is
 * killed with SIGKILL while every writer has a request in flight.
 */
async function burstUntilKilled(server: ServerProcess) {
  const acked: Acknowledged = { users: [], organizations: [], memberships: [] };
  const unexpected: string[] = [];
  let killed = false;
  let inFlight = 0;
  let inFlightAtKill = 0;
  let killing: Promise<void> | null = null;

  const total = () => acked.users.length + acked.organizations.length + acked.memberships.length;
  const acknowledge = () => {
    if (!killing && total() >= KILL_AFTER_WRITES) {
      killed = true;
      inFlightAtKill = inFlight;
      killing = server.kill9();
    }
  };
  /** One request (or flow); null when it got no answer because the process was killed. */
  const send = async <T>(request: () => Promise<T>): Promise<T | null> => {
    inFlight++;
    try {
      return await request();
    } catch (err) {
      if (killed) return null;
      throw err;
    } finally {
      inFlight--;
    }
  };
  const ok = (res: WireResponse | null, what: string): res is WireResponse => {
    if (res === null) return false;
    if (res.status >= 200 && res.status < 300) return true;
    unexpected.push(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    return false;
  };

  const writer = async (w: number) => {
    for (let i = 0; !killed; i++) {
      const browser = new FapiClient(server.publicUrl);
      const email = testModeEmail(`crash-${w}-${i}`);
      // Sign-up: only the last step writes the user; it is acknowledged by its 200 `complete`.
      let signedUp;
      try {
        signedUp = await send(() => testModeSignUp(browser, email));
      } catch (err) {
        unexpected.push(`sign-up: ${(err as Error).message}`);
        return;
      }
      if (!signedUp) return;
      const userId = signedUp.userId;
      acked.users.push({ email, userId });
      acknowledge();
      if (killed) return;

      const slug = `crash-${randomBytes(6).toString('hex')}`;
      const via = i % 2 === 0 ? 'fapi' : 'bapi';
      const created = await send(() =>
        via === 'fapi'
          ? browser.post('/organizations', { name: `Crash ${slug}`, slug })
          : bapi(server.origin, SHARED_SECRET_KEY, 'POST', '/organizations', {
              name: `Crash ${slug}`,
              slug,
              created_by: userId,
            }),
      );
      if (!ok(created, 'create organisation')) return;
      const organizationId: string = via === 'fapi' ? created.body.response.id : created.body.id;
      acked.organizations.push({ id: organizationId, slug, createdBy: userId, via });
      acknowledge();
      if (killed) return;

      // An earlier user of the burst joins as a member.
      const member = acked.users.find((u) => u.userId !== userId);
      if (!member) continue;
      const joined = await send(() =>
        bapi(server.origin, SHARED_SECRET_KEY, 'POST', `/organizations/${organizationId}/memberships`, {
          user_id: member.userId,
          role: 'org:member',
        }),
      );
      if (!ok(joined, 'add member')) return;
      acked.memberships.push({ organizationId, userId: member.userId });
      acknowledge();
    }
  };

  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  if (killing) await killing;
  return { acked, unexpected, killed, inFlightAtKill };
}

/** Every acknowledged write, read back through the Backend API (and a sign-in) of the restarted process. */
async function assertAcknowledgedWritesPresent(server: ServerProcess, acked: Acknowledged) {
  const get = async (path: string) => {
    const res = await bapi(server.origin, SHARED_SECRET_KEY, 'GET', path);
    assert.equal(res.status, 200, `GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  for (const { email, userId } of acked.users) {
    const users = await get(`/users?email_address=${encodeURIComponent(email)}`);
    assert.equal(users.length, 1, `one user for ${email}`);
    assert.equal(users[0].id, userId);
    const primary = users[0].email_addresses.find(
      (e: { id: string }) => e.id === users[0].primary_email_address_id,
    );
    assert.equal(primary?.email_address, email);
    assert.equal(primary?.verification?.status, 'verified');
  }
  for (const org of acked.organizations) {
    const organization = await get(`/organizations/${org.id}`);
    assert.equal(organization.slug, org.slug);
    const memberships = await get(`/organizations/${org.id}/memberships?limit=100`);
    const roles = new Map(
      memberships.data.map((m: { public_user_data: { user_id: string }; role: string }) => [
        m.public_user_data.user_id,
        m.role,
      ]),
    );
    assert.equal(roles.get(org.createdBy), 'org:admin', `the creator administers ${org.id}`);
    for (const m of acked.memberships.filter((m) => m.organizationId === org.id)) {
      assert.equal(roles.get(m.userId), 'org:member', `${m.userId} is a member of ${org.id}`);
    }
  }
  // The first and the last acknowledged accounts sign in with their password.
  for (const { email, userId } of [acked.users[0]!, acked.users.at(-1)!]) {
    const { session } = await signInWithPassword(new FapiClient(server.publicUrl), email);
    assert.equal(session.userId, userId);
  }
}

describe('a server killed with SIGKILL during a burst of writes', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => {});
  });

  async function run(where: Where, note: (line: string) => void) {
    const t0 = Date.now();
    const at = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
    const database = where.kind === 'postgres' ? { databaseUrl: where.pg.url } : { dataDir: where.dataDir };
    const env = { TRUST_PROXY: 'true' };
    const first = await spawnServer({ ...database, env });
    cleanups.push(() => first.kill9());
    note(`first process ready at ${at()}`);
    const { acked, unexpected, killed, inFlightAtKill } = await burstUntilKilled(first);
    assert.deepEqual(unexpected, [], 'every request before the kill succeeded');
    assert.ok(killed, 'the process was killed during the burst');
    assert.equal(first.alive(), false);
    assert.ok(inFlightAtKill > 0, 'requests were in flight when the process was killed');
    assert.ok(acked.users.length > 0 && acked.organizations.length > 0);
    note(
      `killed at ${at()} with ${inFlightAtKill} writes in flight after acknowledging ${acked.users.length} ` +
        `sign-ups, ${acked.organizations.length} organisations, ${acked.memberships.length} memberships`,
    );

    if (where.kind === 'pglite') {
      // The dead process's lock is still there; the new process must take it over.
      const lock = lockFileOf(join(where.dataDir, 'pglite'));
      assert.ok(existsSync(lock), 'the killed process left its lock file');
      assert.equal(JSON.parse(readFileSync(lock, 'utf8')).pid, first.pid);
    }
    const second = await spawnServer({ ...database, env });
    cleanups.push(() => second.stop());
    note(`restarted at ${at()}`);
    await assertAcknowledgedWritesPresent(second, acked);
    note(`acknowledged writes read back at ${at()}`);

    // The invariants, straight from the tables (PGlite opens in one process at a time: stop it first).
    await second.stop();
    const db = await openDatabase(
      where.kind === 'postgres' ? { url: where.pg.url } : { dataDir: join(where.dataDir, 'pglite') },
    );
    try {
      await assertInvariants(db);
      const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
      assert.ok(row!.n >= acked.users.length);
    } finally {
      await db.close();
    }
    note(`invariants checked at ${at()}`);
  }

  test(
    'on PostgreSQL: every acknowledged write is there after a restart, nothing half-written is visible',
    {
      skip: privatePostgresUnavailable() ?? false,
      timeout: 120_000,
    },
    async (t) => {
      const pg = await startPrivatePostgres();
      cleanups.push(() => pg.destroy());
      await run({ kind: 'postgres', pg }, (line) => t.diagnostic(line));
    },
  );

  test(
    "on PGlite: the same, and the dead process's directory lock is taken over",
    { timeout: 120_000 },
    async (t) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'e2e-crash-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      await run({ kind: 'pglite', dataDir }, (line) => t.diagnostic(line));
    },
  );
});
