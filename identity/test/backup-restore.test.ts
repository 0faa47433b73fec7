import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeBackup } from '../src/backup/backup-file.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { takeSnapshot } from '../src/db/snapshot.ts';
import { backends, forEachBackend, type Backend, type Store } from './support/backends.ts';
import { cli, cliStore } from './support/cli.ts';
import { PASSWORD, signUp } from './support/flows.ts';
import { Harness, uniqueEmail } from './support/harness.ts';
import { enrolTotp, passwordUntilSecondFactor, totpCode, type Enrolled } from './support/second-factors.ts';

const PASSPHRASE = 'correct horse battery staple';

interface CliStore {
  dataDir: string;
  store: Store;
  env: NodeJS.ProcessEnv;
  dispose(): Promise<void>;
}

/** How many rows `table` has in the store, opened and closed around the count. */
async function rowsIn(target: CliStore, table: string): Promise<number> {
  const db = await openDatabase(target.store.options);
  try {
    const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
    return row!.n;
  } finally {
    await db.close();
  }
}

/** The restored instance, started as the server starts: its secret key read from DATA_DIR. */
function startRestored(backend: Backend, target: CliStore): Promise<Harness> {
  return Harness.start(backend, {
    store: target.store,
    config: { secretKey: null, secretKeyFile: join(target.dataDir, 'identity-secret-key') },
  });
}

forEachBackend('identity CLI: backup and restore', (backend) => {
  let source: CliStore;
  const targets: CliStore[] = [];
  let work: string;
  let file: string;
  let email: string;
  let enrolled: Enrolled;
  let kid: string;
  let secretKey: string;

  const freshTarget = async () => {
    const target = await cliStore(backend);
    target.env = { ...target.env, IDENTITY_BACKUP_PASSPHRASE: PASSPHRASE };
    targets.push(target);
    return target;
  };

  /** A store with no tables at all, as a new database (or schema, or PGlite directory) is. */
  const emptyTarget = async (): Promise<CliStore> => {
    if (backend.name === 'pglite') return freshTarget();
    const store = await backend.createStore({ empty: true });
    // Opening it once makes its schema, which the URL's search_path names.
    await (await openDatabase(store.options)).close();
    const { url, schema } = store.options as { url: string; schema: string };
    const withSchema = new URL(url);
    withSchema.searchParams.set('options', `-c search_path=${schema}`);
    const dataDir = mkdtempSync(join(tmpdir(), 'identity-cli-'));
    const target: CliStore = {
      dataDir,
      store,
      env: { DATA_DIR: dataDir, DATABASE_URL: withSchema.toString(), IDENTITY_BACKUP_PASSPHRASE: PASSPHRASE },
      async dispose() {
        await store.dispose();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
    targets.push(target);
    return target;
  };

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'identity-backup-'));
    file = join(work, 'instance.backup');
    source = await cliStore(backend);
    const h = await Harness.start(backend, { store: source.store });
    try {
      secretKey = h.config.secretKey!;
      source.env = { ...source.env, IDENTITY_SECRET_KEY: secretKey, IDENTITY_BACKUP_PASSPHRASE: PASSPHRASE };
      email = uniqueEmail();
      const browser = h.browser();
      await signUp(h, browser, email);
      enrolled = await enrolTotp(h, browser);
      kid = h.identity.deps.signingKey.kid;
      // PostgreSQL is backed up while the server runs; PGlite once it stopped (one process at a time).
      if (backend.name === 'postgres') {
        const res = await cli(['backup', '--out', file], source.env);
        assert.equal(res.status, 0, res.err);
      }
    } finally {
      await h.close();
    }
    if (backend.name === 'pglite') {
      const res = await cli(['backup', '--out', file], source.env);
      assert.equal(res.status, 0, res.err);
    }
  });
  after(async () => {
    for (const target of [source, ...targets]) await target.dispose();
    rmSync(work, { recursive: true, force: true });
  });

  it('the backup has a version header, seals everything, and names nothing secret on the console', async () => {
    const bytes = readFileSync(file);
    assert.match(bytes.subarray(0, 40).toString('latin1'), /^QOALA-IDENTITY-BACKUP 1\n\{"format":1,/);
    // Neither the secret key, nor the user's address, nor any row is in clear.
    assert.equal(bytes.includes(Buffer.from(secretKey)), false);
    assert.equal(bytes.includes(Buffer.from(email)), false);
    assert.equal(bytes.includes(Buffer.from('sk_live_')), false);
  });

  it('restored on a fresh store: the password signs in, the TOTP code passes, the JWKS holds the key', async () => {
    const target = await freshTarget();
    const res = await cli(['restore', '--in', file], target.env);
    assert.equal(res.status, 0, res.err);
    assert.match(res.err, /Restored the backup of .*Instance secret key written to/);
    assert.equal(readFileSync(join(target.dataDir, 'identity-secret-key'), 'utf8').trim(), secretKey);

    const h = await startRestored(backend, target);
    try {
      const browser = h.browser();
      const first = await passwordUntilSecondFactor(browser, email, PASSWORD);
      const done = await browser.post(`/client/sign_ins/${first.body.response.id}/attempt_second_factor`, {
        strategy: 'totp',
        // The next period's code: the enrolment spent this one's (a code is good once).
        code: totpCode(enrolled.secret, h.clock.now, 1),
      });
      assert.equal(done.status, 200, JSON.stringify(done.body));
      assert.equal(done.body.response.status, 'complete');
      const jwks = (await h.bapi('/v1/jwks')).json();
      assert.deepEqual(
        jwks.keys.map((k: { kid: string }) => k.kid),
        [kid],
      );
      assert.equal(h.identity.deps.signingKey.kid, kid);
      // Restoring fired no webhook: the changes queued are the backup's, not one per restored row.
      const [queued] = await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_changes');
      assert.ok(queued!.n <= 10, `webhook_changes: ${queued!.n}`);
    } finally {
      await h.close();
    }

    // A second restore onto it is refused (it has data) and changes nothing; --force replaces it.
    const again = await cli(['restore', '--in', file], target.env);
    assert.equal(again.status, 1);
    assert.match(again.err, /This store is not empty \(.*\)\. Restore onto a fresh store, or add --force/);
    assert.match(again.err, /Nothing was changed\.$/);
    assert.equal(await rowsIn(target, 'users'), 1);
    const forced = await cli(['restore', '--in', file, '--force'], target.env);
    assert.equal(forced.status, 0, forced.err);
    assert.equal(await rowsIn(target, 'users'), 1);
    assert.equal(await rowsIn(target, 'totp_secrets'), 1);
  });

  it("an older version's backup restores on an empty store and is upgraded; a newer store is refused", async () => {
    const OLD = '034_sign_in_and_testing_tokens.sql';
    // An instance that stopped at OLD, with a signing key from before migration 038 gave keys `signs_from`.
    const old = await backend.createStore({ empty: true });
    let bytes: Buffer;
    const db = await openDatabase(old.options);
    try {
      await migrate(db, { until: OLD });
      await db.query(
        `INSERT INTO signing_keys (kid, private_jwk, public_jwk, created_at)
         VALUES ('ins_old', '{}', '{}', '2026-01-01T00:00:00Z')`,
      );
      const snapshot = await takeSnapshot(db);
      assert.equal(snapshot.migrations.at(-1), OLD);
      bytes = await writeBackup(
        { ...snapshot, secretKey },
        { source: backend.name, createdAt: new Date() },
        PASSPHRASE,
      );
    } finally {
      await db.close();
      await old.dispose();
    }
    const oldFile = join(work, 'old.backup');
    writeFileSync(oldFile, bytes);

    // A store already at this version's migrations is ahead of the backup: refused, nothing changed.
    const ahead = await freshTarget();
    const migrated = await openDatabase(ahead.store.options);
    await migrate(migrated);
    await migrated.close();
    const refused = await cli(['restore', '--in', oldFile], ahead.env);
    assert.equal(refused.status, 1);
    assert.match(
      refused.err,
      /This store has migrations the backup predates \(.*038_signing_key_rotation\.sql/,
    );
    assert.equal(await rowsIn(ahead, 'signing_keys'), 0);

    // An empty one: brought to the backup's migrations, filled, then upgraded.
    const empty = await emptyTarget();
    const res = await cli(['restore', '--in', oldFile], empty.env);
    assert.equal(res.status, 0, res.err);
    assert.match(
      res.err,
      /migration 034_sign_in_and_testing_tokens\.sql.*Upgraded with .*038_signing_key_rotation\.sql/,
    );
    const restored = await openDatabase(empty.store.options);
    try {
      const keys = await restored.query<{ kid: string; signs_from: Date }>(
        'SELECT kid, signs_from FROM signing_keys',
      );
      assert.deepEqual(
        keys.map((k) => [k.kid, k.signs_from.toISOString()]),
        [['ins_old', '2026-01-01T00:00:00.000Z']],
      );
    } finally {
      await restored.close();
    }
  });

  it('a damaged, truncated, foreign or wrong-passphrase backup is refused and the store stays empty', async () => {
    const target = await freshTarget();
    const bytes = readFileSync(file);
    const flipped = Buffer.from(bytes);
    const middle = Math.floor(bytes.length / 2);
    flipped[middle] = flipped[middle]! ^ 0x01;
    const cases: [string, Buffer | null, NodeJS.ProcessEnv, RegExp][] = [
      ['flipped', flipped, target.env, /This backup is damaged \(its checksum does not match\)/],
      ['truncated', bytes.subarray(0, bytes.length - 100), target.env, /This backup is damaged/],
      ['stub', bytes.subarray(0, 30), target.env, /This backup is damaged/],
      ['foreign', Buffer.from('id,email\n1,a@b.c\n'), target.env, /This file is not an identity backup/],
      [
        'future',
        Buffer.concat([Buffer.from('QOALA-IDENTITY-BACKUP 9\n'), bytes.subarray(bytes.indexOf(0x0a) + 1)]),
        target.env,
        /This backup is of format 9; this version reads format 1\./,
      ],
      [
        'passphrase',
        null,
        { ...target.env, IDENTITY_BACKUP_PASSPHRASE: 'not the passphrase at all' },
        /The passphrase does not open this backup \(wrong passphrase\)/,
      ],
      [
        'other key',
        null,
        { ...target.env, IDENTITY_SECRET_KEY: 'sk_live_anotherkey00000000000000000000000000' },
        /IDENTITY_SECRET_KEY is not the key of this backup/,
      ],
    ];
    for (const [name, content, env, reason] of cases) {
      const path = content ? join(work, `${name}.backup`) : file;
      if (content) writeFileSync(path, content);
      const res = await cli(['restore', '--in', path], env);
      assert.equal(res.status, 1, name);
      assert.match(res.err, reason, name);
      assert.match(res.err, /Nothing was changed\.$/, name);
    }
    assert.equal(existsSync(join(target.dataDir, 'identity-secret-key')), false);
    if (backend.name === 'pglite') assert.equal(existsSync(join(target.dataDir, 'pglite')), false);
    else assert.equal(await rowsIn(target, 'users'), 0);
  });

  it('a backup needs a passphrase long enough, a new file, and the instance key the database knows', async () => {
    const base = { ...source.env };
    const short = await cli(['backup', '--out', join(work, 'short.backup')], {
      ...base,
      IDENTITY_BACKUP_PASSPHRASE: 'short',
    });
    assert.equal(short.status, 1);
    assert.match(short.err, /at least 12 characters/);
    assert.equal(existsSync(join(work, 'short.backup')), false);

    const exists = await cli(['backup', '--out', file], base);
    assert.equal(exists.status, 1);
    assert.match(exists.err, /exists already/);

    const wrongKey = await cli(['backup', '--out', join(work, 'wrong.backup')], {
      ...base,
      IDENTITY_SECRET_KEY: 'sk_live_anotherkey00000000000000000000000000',
    });
    assert.equal(wrongKey.status, 1);
    assert.match(wrongKey.err, /is not the one this database was last started with/);
    assert.equal(existsSync(join(work, 'wrong.backup')), false);

    const noPassphrase = { ...base };
    delete noPassphrase.IDENTITY_BACKUP_PASSPHRASE;
    const asked = await cli(['backup', '--out', join(work, 'none.backup')], noPassphrase);
    assert.equal(asked.status, 1);
    assert.match(asked.err, /Set IDENTITY_BACKUP_PASSPHRASE, or run the command on a terminal/);

    for (const argv of [['backup'], ['restore'], ['backup', '--out'], ['restore', '--in', file, '--bogus']]) {
      assert.equal((await cli(argv, base)).status, 2, argv.join(' '));
    }
  });
});

describe("identity CLI: a PGlite instance's backup restored on PostgreSQL", () => {
  const [pglite, postgres] = backends;
  it('signs in with the password and the TOTP code on the other database', { skip: !postgres }, async () => {
    const work = mkdtempSync(join(tmpdir(), 'identity-backup-'));
    const file = join(work, 'pglite.backup');
    const source = await cliStore(pglite!);
    const target = await cliStore(postgres!);
    try {
      const h = await Harness.start(pglite!, { store: source.store });
      const email = uniqueEmail();
      let enrolled: Enrolled;
      try {
        const browser = h.browser();
        await signUp(h, browser, email);
        enrolled = await enrolTotp(h, browser);
      } finally {
        await h.close();
      }
      const env = { IDENTITY_BACKUP_PASSPHRASE: PASSPHRASE, IDENTITY_SECRET_KEY: h.config.secretKey! };
      const backedUp = await cli(['backup', '--out', file], { ...source.env, ...env });
      assert.equal(backedUp.status, 0, backedUp.err);
      const restored = await cli(['restore', '--in', file], { ...target.env, ...env });
      assert.equal(restored.status, 0, restored.err);
      assert.match(restored.err, /\(pglite, migration /);

      const r = await Harness.start(postgres!, { store: target.store });
      try {
        const browser = r.browser();
        const first = await passwordUntilSecondFactor(browser, email, PASSWORD);
        const done = await browser.post(`/client/sign_ins/${first.body.response.id}/attempt_second_factor`, {
          strategy: 'totp',
          code: totpCode(enrolled.secret, r.clock.now, 1),
        });
        assert.equal(done.status, 200, JSON.stringify(done.body));
        assert.equal(done.body.response.status, 'complete');
      } finally {
        await r.close();
      }
    } finally {
      await source.dispose();
      await target.dispose();
      rmSync(work, { recursive: true, force: true });
    }
  });
});
