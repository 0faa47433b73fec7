import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { readUsers } from '../src/cli/users-import.ts';
import { CLERK_CSV_COLUMNS } from '../src/users/transfer/clerk-csv.ts';
import { ImportFileError, readImportText } from '../src/users/transfer/read-import-file.ts';
import { forEachBackend, type Backend } from './support/backends.ts';
import { cli, cliStore } from './support/cli.ts';
import { Harness, PUBLIC_URL, testConfig, uniqueEmail, type Browser } from './support/harness.ts';
import { PASSWORD, VECTORS } from './support/password-vectors.ts';
import { totpCode } from './support/second-factors.ts';

const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const BCRYPT = VECTORS.find((v) => v.hasher === 'bcrypt')!.digest;

/** A user id as hosted Clerk makes them. */
const clerkId = () => `user_${randomBytes(12).toString('hex')}`;

/**
 * One instance's store, the server on it and the command line pointed at it. By default the store is the
 * harness's own (in memory on PGlite) and the command gets the server's database handed in (`openUsers`),
 * so nothing restarts around a command. `onDisk` lays the store out as the server keeps it (DATA_DIR's
 * PGlite directory, or DATABASE_URL) and the command opens it itself, as `npm run identity` does: on
 * PGlite, which opens in one process at a time, the server stops around each command.
 */
class Instance {
  h: Harness | null = null;
  private constructor(
    private readonly backend: Backend,
    private readonly onDisk: Awaited<ReturnType<typeof cliStore>> | null,
    readonly dir: string,
    readonly env: NodeJS.ProcessEnv,
    private readonly secretKey: string,
  ) {}

  static async start(
    backend: Backend,
    { secretKey = testConfig().secretKey!, onDisk = false }: { secretKey?: string; onDisk?: boolean } = {},
  ): Promise<Instance> {
    let instance: Instance;
    if (onDisk) {
      const cs = await cliStore(backend, { migrated: true });
      instance = new Instance(
        backend,
        cs,
        cs.dataDir,
        { ...cs.env, IDENTITY_SECRET_KEY: secretKey },
        secretKey,
      );
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'users-import-'));
      const env = { DATA_DIR: dir, PUBLIC_URL, IDENTITY_SECRET_KEY: secretKey };
      instance = new Instance(backend, null, dir, env, secretKey);
    }
    await instance.server();
    return instance;
  }

  async server(): Promise<Harness> {
    this.h ??= await Harness.start(this.backend, {
      ...(this.onDisk ? { store: this.onDisk.store } : {}),
      config: { secretKey: this.secretKey },
    });
    return this.h;
  }

  /** `npm run identity -- …`, on the server's database, or on disk as the command opens it itself. */
  async cli(argv: string[]) {
    if (!this.onDisk) {
      const h = await this.server();
      return cli(argv, this.env, { openUsers: async () => ({ db: h.db, close: async () => {} }) });
    }
    if (this.backend.name === 'pglite') {
      await this.h?.close();
      this.h = null;
    }
    return cli(argv, this.env);
  }

  async close(): Promise<void> {
    await this.h?.close();
    if (this.onDisk) await this.onDisk.dispose();
    else rmSync(this.dir, { recursive: true, force: true });
  }
}

function csv(rows: string[][]): string {
  const quote = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return [CLERK_CSV_COLUMNS.join(','), ...rows.map((r) => r.map(quote).join(','))].join('\n') + '\n';
}

/** A row of Clerk's export CSV from the columns given. */
function clerkRow(cells: Partial<Record<(typeof CLERK_CSV_COLUMNS)[number], string>>): string[] {
  return CLERK_CSV_COLUMNS.map((c) => cells[c] ?? '');
}

/** Identifier, then password, then (when asked) the authenticator app's code: the sign-in card's steps. */
async function signIn(
  h: Harness,
  email: string,
  password: string,
  totpSecret?: string,
): Promise<{ status: string; code?: string }> {
  const browser: Browser = h.browser();
  const created = await browser.post('/client/sign_ins', { identifier: email });
  if (created.status !== 200) return { status: 'refused', code: created.body.errors?.[0]?.code };
  const id = created.body.response.id;
  const first = await browser.post(`/client/sign_ins/${id}/attempt_first_factor`, {
    strategy: 'password',
    password,
  });
  if (first.status !== 200) return { status: 'refused', code: first.body.errors?.[0]?.code };
  let response = first.body.response;
  if (response.status === 'needs_second_factor' && totpSecret) {
    const second = await browser.post(`/client/sign_ins/${id}/attempt_second_factor`, {
      strategy: 'totp',
      code: totpCode(totpSecret, h.clock.now),
    });
    assert.equal(second.status, 200, JSON.stringify(second.body));
    response = second.body.response;
  }
  return { status: response.status };
}

it('oversized input is bounded: a file, a gzip bomb, a CSV record, a JSON line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'users-import-'));
  try {
    const big = join(dir, 'big.jsonl');
    writeFileSync(big, 'x'.repeat(5000));
    assert.throws(() => readImportText(big, 4096), ImportFileError);
    const bomb = join(dir, 'bomb.json.gz');
    writeFileSync(bomb, gzipSync(Buffer.alloc(1024 * 1024)));
    assert.ok(statSync(bomb).size < 4096);
    assert.throws(() => readImportText(bomb, 4096), /larger than 4096 bytes unpacked/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const long = csv([clerkRow({ id: 'user_a', first_name: 'x'.repeat(70_000) }), clerkRow({ id: 'user_b' })]);
  const read = readUsers(long, 'clerk-csv');
  assert.deepEqual(read.unreadable, [{ where: 'line 2', reason: 'the record is longer than 65536 bytes' }]);
  assert.deepEqual(
    read.records.map((r) => r.body.id),
    ['user_b'],
  );
});

forEachBackend('users import and export (npm run identity -- users …)', (backend) => {
  let a: Instance;

  before(async () => {
    a = await Instance.start(backend);
  });
  after(() => a.close());

  const storedHash = async (h: Harness, userId: string) =>
    (
      await h.db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [userId])
    )[0]!.password_hash;

  it("Clerk's export CSV: every hasher signs in with the old password and becomes argon2id; bad lines are reported by number, without their secrets, and the others imported", async () => {
    const users = VECTORS.map((v) => ({ ...v, id: clerkId(), email: uniqueEmail(`csv-${v.hasher}`) }));
    const ada = {
      id: clerkId(),
      email: uniqueEmail('ada'),
      other: uniqueEmail('ada-old'),
      phone: '+33612345001',
    };
    const rows = [
      ...users.map((u) =>
        clerkRow({
          id: u.id,
          first_name: 'Imported',
          last_name: u.hasher,
          primary_email_address: u.email,
          verified_email_addresses: u.email,
          password_digest: u.digest,
          password_hasher: u.hasher,
        }),
      ),
      // line 2 + VECTORS.length
      clerkRow({
        id: ada.id,
        first_name: 'Ada',
        username: `ada${randomBytes(4).toString('hex')}`,
        primary_email_address: ada.email,
        verified_email_addresses: ada.email,
        unverified_email_addresses: ada.other,
        primary_phone_number: ada.phone,
        verified_phone_numbers: ada.phone,
        totp_secret: TOTP_SECRET,
        password_digest: BCRYPT,
        password_hasher: 'bcrypt',
      }),
      clerkRow({ id: clerkId(), primary_email_address: 'not-an-email' }),
      clerkRow({
        id: clerkId(),
        primary_email_address: uniqueEmail('bad-digest'),
        password_digest: '$2b$04$SECRETDIGESTSHOULDNOTLEAK',
        password_hasher: 'bcrypt',
      }),
      clerkRow({
        id: clerkId(),
        primary_email_address: uniqueEmail('bad-hasher'),
        password_digest: 'ANOTHERSECRETDIGEST',
        password_hasher: 'rot13',
      }),
      clerkRow({
        id: clerkId(),
        primary_email_address: uniqueEmail('bad-totp'),
        totp_secret: 'SECRET!!TOTP',
      }),
    ];
    const text = csv(rows) + 'user_short,only three,cells\n';
    const file = join(a.dir, 'clerk-users.csv');
    writeFileSync(file, text);
    const before = await (await a.server()).count('users');

    const res = await a.cli(['users', 'import', file]);
    assert.equal(res.status, 1, res.err);
    const adaLine = 2 + VECTORS.length;
    assert.match(res.err, new RegExp(`line ${adaLine + 1}: failed: email_address: `));
    assert.match(res.err, new RegExp(`line ${adaLine + 2}: failed: password_digest: `));
    assert.match(res.err, new RegExp(`line ${adaLine + 3}: failed: password_hasher: `));
    assert.match(res.err, new RegExp(`line ${adaLine + 4}: failed: totp_secret: `));
    assert.match(res.err, new RegExp(`line ${adaLine + 5}: failed: malformed CSV`));
    assert.match(res.err, new RegExp(`${VECTORS.length + 1} imported, 0 skipped, 5 failed\\.`));
    for (const secret of [
      'SECRETDIGESTSHOULDNOTLEAK',
      'ANOTHERSECRETDIGEST',
      'SECRET!!TOTP',
      TOTP_SECRET,
      BCRYPT,
    ]) {
      assert.ok(!res.err.includes(secret) && !res.out.includes(secret), 'no secret in the report');
    }

    const h = await a.server();
    assert.equal(await h.count('users'), before + VECTORS.length + 1);
    for (const u of users) {
      // The id of hosted Clerk is kept: the application's own tables refer to it.
      assert.match(await storedHash(h, u.id), /^(imported:|\$argon2)/);
      assert.equal((await signIn(h, u.email, `${u.password}!`)).code, 'form_password_incorrect', u.hasher);
      assert.equal((await signIn(h, u.email, u.password)).status, 'complete', u.hasher);
      assert.match(await storedHash(h, u.id), /^\$argon2id\$/, u.hasher);
    }

    // Verified states as they came, the TOTP secret sealed, and the second factor asked.
    const emails = await h.db.query<{ email_address: string; verified: boolean }>(
      'SELECT email_address, verified_at IS NOT NULL AS verified FROM email_addresses WHERE user_id = $1 ORDER BY verified DESC',
      [ada.id],
    );
    assert.deepEqual(emails, [
      { email_address: ada.email, verified: true },
      { email_address: ada.other, verified: false },
    ]);
    const [totp] = await h.db.query<{ sealed_secret: string }>(
      'SELECT sealed_secret FROM totp_secrets WHERE user_id = $1',
      [ada.id],
    );
    assert.ok(totp && !totp.sealed_secret.includes(TOTP_SECRET));
    const password = await signIn(h, ada.email, PASSWORD);
    assert.equal(password.status, 'needs_second_factor');
    assert.equal((await signIn(h, ada.email, PASSWORD, TOTP_SECRET)).status, 'complete');
  });

  it('--dry-run checks everything and writes nothing; a second run skips what the first imported', async () => {
    const ids = [clerkId(), clerkId()];
    const file = join(a.dir, 'dry-run.csv');
    writeFileSync(
      file,
      csv(
        ids.map((id) =>
          clerkRow({
            id,
            primary_email_address: uniqueEmail('dry'),
            password_digest: BCRYPT,
            password_hasher: 'bcrypt',
          }),
        ),
      ),
    );
    const before = await (await a.server()).count('users');
    const events = await (await a.server()).count('audit_events');
    const importEvents = () => a.server().then((h) => h.count('audit_events', "action = 'cli.users.import'"));
    const recorded = await importEvents();

    const dry = await a.cli(['users', 'import', file, '--dry-run']);
    assert.equal(dry.status, 0, dry.err);
    assert.match(dry.out, new RegExp(`line 2: would import ${ids[0]}`));
    assert.match(dry.err, /Dry run, nothing written: 2 to import, 0 skipped, 0 failed\./);
    assert.equal(await (await a.server()).count('users'), before);
    assert.equal(await (await a.server()).count('audit_events'), events);

    const real = await a.cli(['users', 'import', file]);
    assert.equal(real.status, 0, real.err);
    assert.match(real.err, /2 imported, 0 skipped, 0 failed\./);
    assert.equal(await (await a.server()).count('users'), before + 2);
    assert.equal(await importEvents(), recorded + 1);

    const again = await a.cli(['users', 'import', file]);
    assert.equal(again.status, 0, again.err);
    assert.match(again.err, /line 2: skipped: a user with this id exists already/);
    assert.match(again.err, /0 imported, 2 skipped, 0 failed\./);
    assert.equal(await (await a.server()).count('users'), before + 2);

    // The same address under another id is skipped too, as is a repeat within one file.
    const email = uniqueEmail('twice');
    const twice = join(a.dir, 'twice.csv');
    writeFileSync(
      twice,
      csv([
        clerkRow({ id: clerkId(), primary_email_address: email }),
        clerkRow({ id: clerkId(), primary_email_address: email }),
      ]),
    );
    const dup = await a.cli(['users', 'import', twice]);
    assert.match(dup.err, /line 3: skipped: the same email_address as line 2/);
    assert.match(dup.err, /1 imported, 1 skipped, 0 failed\./);
  });

  it("Auth0's export (NDJSON, or a gzipped JSON array): user_id as external id, email_verified kept, bcrypt passwordHash signs in", async () => {
    const verified = uniqueEmail('auth0-v');
    const unverified = uniqueEmail('auth0-u');
    const file = join(a.dir, 'auth0.ndjson');
    writeFileSync(
      file,
      [
        JSON.stringify({
          user_id: 'auth0|6573a1',
          email: verified,
          email_verified: true,
          given_name: 'Zoé',
          passwordHash: BCRYPT,
        }),
        JSON.stringify({
          user_id: 'auth0|6573a2',
          email: unverified,
          email_verified: false,
          user_metadata: { theme: 'dark' },
        }),
        '{"user_id": "auth0|broken", ',
        JSON.stringify({ email: uniqueEmail('no-id') }),
        '',
      ].join('\n'),
    );
    const res = await a.cli(['users', 'import', file]);
    assert.equal(res.status, 1);
    assert.match(res.err, /line 3: failed: malformed JSON/);
    assert.match(res.err, /line 4: failed: no user_id/);
    assert.match(res.err, /2 imported, 0 skipped, 2 failed\./);

    const h = await a.server();
    const [zoe] = await h.db.query<{ id: string; first_name: string }>(
      "SELECT id, first_name FROM users WHERE external_id = 'auth0|6573a1'",
    );
    assert.equal(zoe!.first_name, 'Zoé');
    assert.equal((await signIn(h, verified, PASSWORD)).status, 'complete');
    assert.equal(
      await h.count('email_addresses', 'lower(email_address) = lower($1) AND verified_at IS NULL', [
        unverified,
      ]),
      1,
    );
    const [meta] = await h.db.query<{ unsafe_metadata: unknown }>(
      "SELECT unsafe_metadata FROM users WHERE external_id = 'auth0|6573a2'",
    );
    assert.deepEqual(meta!.unsafe_metadata, { theme: 'dark' });

    // The export Auth0's support makes: one JSON array, `_id.$oid`, gzipped as it arrives.
    const gz = join(a.dir, 'auth0-support.json.gz');
    const email = uniqueEmail('auth0-gz');
    writeFileSync(
      gz,
      gzipSync(
        JSON.stringify([
          { _id: { $oid: '657376510000000000000001' }, email, email_verified: true, passwordHash: BCRYPT },
        ]),
      ),
    );
    const zipped = await a.cli(['users', 'import', gz]);
    assert.equal(zipped.status, 0, zipped.err);
    assert.match(zipped.out, /record 1: imported user_/);
    const h2 = await a.server();
    assert.equal(await h2.count('users', "external_id = 'auth0|657376510000000000000001'"), 1);
    assert.equal((await signIn(h2, email, PASSWORD)).status, 'complete');
  });

  it('JSON lines of users.createUser bodies; unknown fields and oversized lines are refused by line', async () => {
    const email = uniqueEmail('jsonl');
    const file = join(a.dir, 'users.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify({
          email_address: email,
          password: 'a plain passphrase',
          skip_password_checks: true,
          external_id: 'legacy-42',
          totp_secret: TOTP_SECRET,
          public_metadata: { plan: 'pro' },
        }),
        JSON.stringify({ email_address: [uniqueEmail('typo')], passwrd: 'x' }),
        JSON.stringify({
          email_address: [uniqueEmail('big')],
          public_metadata: { blob: 'x'.repeat(70_000) },
        }),
        '[1, 2]',
      ].join('\n'),
    );
    const res = await a.cli(['users', 'import', file]);
    assert.equal(res.status, 1);
    assert.match(res.err, /line 2: failed: unknown fields: passwrd/);
    assert.match(res.err, /line 3: failed: longer than 65536 bytes/);
    assert.match(res.err, /line 4: failed: not a JSON object/);
    assert.ok(!res.err.includes('a plain passphrase'));
    const h = await a.server();
    const [user] = await h.db.query<{ id: string; public_metadata: unknown }>(
      "SELECT id, public_metadata FROM users WHERE external_id = 'legacy-42'",
    );
    assert.deepEqual(user!.public_metadata, { plan: 'pro' });
    assert.match(await storedHash(h, user!.id), /^\$argon2id\$/);
    assert.equal((await signIn(h, email, 'a plain passphrase', TOTP_SECRET)).status, 'complete');

    const unknown = await a.cli(['users', 'import', join(a.dir, 'users.txt')]);
    assert.equal(unknown.status, 2);
    assert.match(unknown.err, /--format clerk-csv\|auth0\|jsonl/);
  });

  it('export → import into a fresh instance keeps ids, verified states, passwords and TOTP; secrets only on request; mode 0600; audited', async () => {
    const id = clerkId();
    const email = uniqueEmail('mover');
    const old = uniqueEmail('mover-old');
    const source = join(a.dir, 'mover.jsonl');
    writeFileSync(
      source,
      JSON.stringify({
        id,
        email_address: [email],
        unverified_email_address: [old],
        phone_number: ['+33612345002'],
        password: PASSWORD,
        skip_password_checks: true,
        totp_secret: TOTP_SECRET,
        first_name: 'Grace',
      }),
    );
    assert.equal((await a.cli(['users', 'import', source])).status, 0);

    const bare = join(a.dir, 'export-bare.csv');
    const plain = await a.cli(['users', 'export', bare]);
    assert.equal(plain.status, 0, plain.err);
    const bareRows = parse(readFileSync(bare), { columns: true }) as Record<string, string>[];
    const bareRow = bareRows.find((r) => r.id === id)!;
    assert.equal(bareRow.password_digest, '');
    assert.equal(bareRow.totp_secret, '');

    const full = join(a.dir, 'export-full.csv');
    const res = await a.cli(['users', 'export', full, '--include-password-hashes', '--include-totp-secrets']);
    assert.equal(res.status, 0, res.err);
    assert.equal(statSync(full).mode & 0o777, 0o600);
    const text = readFileSync(full, 'utf8');
    assert.equal(text.split('\n')[0], CLERK_CSV_COLUMNS.join(','));
    const row = (parse(text, { columns: true }) as Record<string, string>[]).find((r) => r.id === id)!;
    assert.equal(row.password_hasher, 'argon2id');
    assert.equal(row.totp_secret, TOTP_SECRET);
    assert.equal(row.primary_email_address, email);
    assert.equal(row.unverified_email_addresses, old);
    assert.equal(row.primary_phone_number, '+33612345002');
    assert.equal((await a.cli(['users', 'export', full])).status, 1, 'an existing file is not overwritten');

    const h = await a.server();
    const [event] = await h.db.query<{ actor_kind: string; summary: Record<string, unknown> }>(
      "SELECT actor_kind, summary FROM audit_events WHERE action = 'cli.users.export' ORDER BY seq DESC LIMIT 1",
    );
    assert.equal(event!.actor_kind, 'cli');
    assert.equal(event!.summary.include_password_hashes, true);
    assert.equal(event!.summary.include_totp_secrets, true);
    assert.ok(!JSON.stringify(event!.summary).includes(TOTP_SECRET));

    // Another instance with its own secret key (the TOTP secret is sealed again under it), on disk as the
    // server keeps it, the command opening it itself: the real path, end to end.
    const b = await Instance.start(backend, {
      secretKey: 'sk_live_anotherinstancekey000000000000000000000',
      onDisk: true,
    });
    try {
      const imported = await b.cli(['users', 'import', full]);
      assert.equal(imported.status, 0, imported.err);
      const hb = await b.server();
      assert.equal(await hb.count('users', 'id = $1', [id]), 1);
      assert.equal(await hb.count('email_addresses', 'user_id = $1 AND verified_at IS NULL', [id]), 1);
      assert.equal(await hb.count('phone_numbers', 'user_id = $1 AND verified_at IS NOT NULL', [id]), 1);
      assert.equal((await signIn(hb, email, `${PASSWORD}!`)).code, 'form_password_incorrect');
      assert.equal((await signIn(hb, email, PASSWORD)).status, 'needs_second_factor');
      assert.equal((await signIn(hb, email, PASSWORD, TOTP_SECRET)).status, 'complete');
    } finally {
      await b.close();
    }
  });
});
