import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { forEachBackend, type Backend } from './support/backends.ts';
import { cli } from './support/cli.ts';
import { Harness, PUBLIC_URL, testConfig, uniqueEmail } from './support/harness.ts';

/** Ids as hosted Clerk makes them. */
const orgId = () => `org_${randomBytes(12).toString('hex')}`;
const userId = () => `user_${randomBytes(12).toString('hex')}`;
const slug = (name: string) => `${name}-${randomBytes(4).toString('hex')}`;
const jsonl = (...lines: unknown[]) =>
  lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');

/** A store with its server, and `npm run identity -- …` handed the server's database. */
class Instance {
  private constructor(
    readonly h: Harness,
    readonly dir: string,
  ) {}

  static async start(backend: Backend): Promise<Instance> {
    const h = await Harness.start(backend, { config: { secretKey: testConfig().secretKey! } });
    return new Instance(h, mkdtempSync(join(tmpdir(), 'organizations-import-')));
  }

  cli(argv: string[]) {
    const env = { DATA_DIR: this.dir, PUBLIC_URL, IDENTITY_SECRET_KEY: testConfig().secretKey! };
    return cli(argv, env, { openUsers: async () => ({ db: this.h.db, close: async () => {} }) });
  }

  file(name: string, text: string): string {
    const path = join(this.dir, name);
    writeFileSync(path, text);
    return path;
  }

  async memberships(organizationId: string): Promise<{ user_id: string; role: string }[]> {
    return this.h.db.query<{ user_id: string; role: string }>(
      'SELECT user_id, role FROM organization_memberships WHERE organization_id = $1 ORDER BY user_id',
      [organizationId],
    );
  }

  async close(): Promise<void> {
    await this.h.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

forEachBackend('organizations import and export (npm run identity -- organizations …)', (backend) => {
  let a: Instance;

  before(async () => {
    a = await Instance.start(backend);
  });
  after(() => a.close());

  it('imports createOrganization bodies with their ids; dry run writes nothing; bad lines are reported by number; a re-run duplicates nothing', async () => {
    const acme = { id: orgId(), slug: slug('acme') };
    const beta = `Bêta Sécurité ${randomBytes(3).toString('hex')}`;
    const file = a.file(
      'orgs.jsonl',
      jsonl(
        {
          id: acme.id,
          name: 'Acme',
          slug: acme.slug,
          public_metadata: { plan: 'pro' },
          private_metadata: { crm: 42 },
          max_allowed_memberships: 5,
          created_at: '2020-01-02T03:04:05.000Z',
        },
        { name: beta },
        { name: '  ' },
        { name: 'Bad slug', slug: 'Not A Slug' },
        { name: 'Typo', colour: 'red' },
        { id: acme.id, name: 'Acme again', slug: slug('other') },
        { name: 'Negative', max_allowed_memberships: -1 },
        { id: 'org_not-valid!', name: 'Bad id' },
        '{"name": ',
      ),
    );
    const count = () => a.h.count('organizations');
    const importEvents = () => a.h.count('audit_events', "action = 'cli.organizations.import'");
    const before = await count();
    const events = await a.h.count('audit_events');

    const dry = await a.cli(['organizations', 'import', file, '--dry-run']);
    assert.equal(dry.status, 1, dry.err);
    assert.match(dry.out, new RegExp(`line 1: would import ${acme.id}`));
    assert.match(dry.out, /line 2: would import org_/);
    assert.match(
      dry.err,
      /Dry run, nothing written: 2 to import, 1 skipped, 6 failed; 0 memberships to add\./,
    );
    assert.equal(await count(), before);
    assert.equal(await a.h.count('audit_events'), events);

    const real = await a.cli(['organizations', 'import', file]);
    assert.equal(real.status, 1);
    assert.match(real.err, /line 3: failed: name: name is required\./);
    assert.match(real.err, /line 4: failed: slug: slug must be 1 to 64 lowercase letters/);
    assert.match(real.err, /line 5: failed: unknown fields: colour/);
    assert.match(real.err, /line 6: skipped: the same id as line 1/);
    assert.match(real.err, /line 7: failed: max_allowed_memberships: /);
    assert.match(real.err, /line 8: failed: id: not an organization id/);
    assert.match(real.err, /line 9: failed: malformed JSON/);
    assert.match(real.err, /2 imported, 1 skipped, 6 failed; 0 memberships added\./);
    assert.match(real.err, /6 organizations not imported/);
    assert.equal(await count(), before + 2);
    assert.equal(await importEvents(), 1);
    const [row] = await a.h.db.query<Record<string, unknown>>('SELECT * FROM organizations WHERE id = $1', [
      acme.id,
    ]);
    assert.equal(row!.name, 'Acme');
    assert.equal(row!.slug, acme.slug);
    assert.deepEqual(row!.public_metadata, { plan: 'pro' });
    assert.deepEqual(row!.private_metadata, { crm: 42 });
    assert.equal(row!.max_allowed_memberships, 5);
    assert.equal(new Date(row!.created_at as string).toISOString(), '2020-01-02T03:04:05.000Z');
    assert.equal(
      await a.h.count('organizations', 'name = $1 AND slug LIKE $2', [beta, 'beta-securite-%']),
      1,
    );

    const again = await a.cli(['organizations', 'import', file]);
    assert.match(again.err, /line 1: skipped: an organization with this id exists already/);
    assert.match(again.err, /line 2: skipped: an organization with this slug exists already/);
    assert.match(again.err, /0 imported, 3 skipped, 6 failed/);
    assert.equal(await count(), before + 2);
  });

  it("a user's organization_memberships in the users jsonl: created with the user; an unknown organisation or role fails the whole line; a re-run keeps them", async () => {
    const org = { id: orgId(), slug: slug('members') };
    assert.equal(
      (await a.cli(['organizations', 'import', a.file('members.jsonl', jsonl({ ...org, name: 'Members' }))]))
        .status,
      0,
    );
    const [ada, bob, cy, dee] = [userId(), userId(), userId(), userId()];
    const users = a.file(
      'users.jsonl',
      jsonl(
        {
          id: ada,
          email_address: uniqueEmail('ada'),
          organization_memberships: [{ organization: org.id, role: 'org:admin' }],
        },
        {
          id: bob,
          email_address: uniqueEmail('bob'),
          organization_memberships: [{ organization: org.slug, role: 'org:member' }],
        },
        {
          id: cy,
          email_address: uniqueEmail('cy'),
          organization_memberships: [
            { organization: org.id, role: 'org:member' },
            { organization: orgId(), role: 'org:admin' },
          ],
        },
        {
          id: dee,
          email_address: uniqueEmail('dee'),
          organization_memberships: [{ organization: org.id, role: 'org:wizard' }],
        },
      ),
    );
    const dry = await a.cli(['users', 'import', users, '--dry-run']);
    assert.equal(dry.status, 1);
    assert.match(
      dry.err,
      /line 3: failed: organization_memberships\[1\]\.organization: no such organization/,
    );
    assert.match(dry.err, /2 to import, 0 skipped, 2 failed/);
    assert.deepEqual(await a.memberships(org.id), []);

    const res = await a.cli(['users', 'import', users]);
    assert.equal(res.status, 1);
    assert.match(
      res.err,
      /line 3: failed: organization_memberships\[1\]\.organization: no such organization/,
    );
    assert.match(
      res.err,
      /line 4: failed: organization_memberships\[0\]\.role: not a role of this application/,
    );
    assert.match(res.err, /2 imported, 0 skipped, 2 failed/);
    const expected = [
      { user_id: ada, role: 'org:admin' },
      { user_id: bob, role: 'org:member' },
    ].sort((x, y) => x.user_id.localeCompare(y.user_id));
    assert.deepEqual(await a.memberships(org.id), expected);
    assert.equal(await a.h.count('users', 'id = ANY($1)', [[cy, dee]]), 0, 'nothing half-written');

    const again = await a.cli(['users', 'import', users]);
    assert.match(again.err, /0 imported, 2 skipped, 2 failed/);
    assert.deepEqual(await a.memberships(org.id), expected);
  });

  it('export → import onto a fresh store: ids, slugs, metadata, dates and memberships; a membership of a missing user is reported and skipped, then added on a re-run once the user exists', async () => {
    const org = { id: orgId(), slug: slug('moving') };
    const [ada, bob] = [userId(), userId()];
    const people = jsonl(
      { id: ada, email_address: uniqueEmail('m-ada') },
      { id: bob, email_address: uniqueEmail('m-bob') },
    );
    assert.equal((await a.cli(['users', 'import', a.file('people.jsonl', people)])).status, 0);
    const source = a.file(
      'moving.jsonl',
      jsonl({
        ...org,
        name: 'Moving',
        public_metadata: { tier: 2 },
        created_at: '2019-05-06T07:08:09.000Z',
        memberships: [
          { user_id: ada, role: 'org:admin' },
          { user_id: bob, role: 'org:member' },
        ],
      }),
    );
    const imported = await a.cli(['organizations', 'import', source]);
    assert.equal(imported.status, 0, imported.err);
    assert.match(imported.err, /1 imported, 0 skipped, 0 failed; 2 memberships added\./);

    const out = join(a.dir, 'export.jsonl');
    const exported = await a.cli(['organizations', 'export', out]);
    assert.equal(exported.status, 0, exported.err);
    assert.equal(statSync(out).mode & 0o777, 0o600);
    assert.equal(
      (await a.cli(['organizations', 'export', out])).status,
      1,
      'an existing file is not overwritten',
    );
    const [event] = await a.h.db.query<{ actor_kind: string; summary: Record<string, unknown> }>(
      "SELECT actor_kind, summary FROM audit_events WHERE action = 'cli.organizations.export' ORDER BY seq DESC LIMIT 1",
    );
    assert.equal(event!.actor_kind, 'cli');
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const line = lines.find((l) => l.id === org.id)!;
    const byUser = (x: { user_id: string }, y: { user_id: string }) => x.user_id.localeCompare(y.user_id);
    (line.memberships as { user_id: string }[]).sort(byUser);
    assert.deepEqual(line, {
      id: org.id,
      name: 'Moving',
      slug: org.slug,
      public_metadata: { tier: 2 },
      private_metadata: {},
      max_allowed_memberships: 0,
      created_at: '2019-05-06T07:08:09.000Z',
      memberships: [
        { user_id: ada, role: 'org:admin' },
        { user_id: bob, role: 'org:member' },
      ].sort(byUser),
    });

    const b = await Instance.start(backend);
    try {
      const first = await b.cli(['organizations', 'import', out]);
      assert.equal(first.status, 0, first.err);
      assert.match(first.err, new RegExp(`membership of ${ada}: skipped: no such user`));
      assert.match(
        first.err,
        new RegExp(`${lines.length} imported, 0 skipped, 0 failed; 0 memberships added\\.`),
      );
      const [row] = await b.h.db.query<Record<string, unknown>>('SELECT * FROM organizations WHERE id = $1', [
        org.id,
      ]);
      assert.equal(row!.slug, org.slug);
      assert.deepEqual(row!.public_metadata, { tier: 2 });
      assert.equal(new Date(row!.created_at as string).toISOString(), '2019-05-06T07:08:09.000Z');

      assert.equal((await b.cli(['users', 'import', b.file('people.jsonl', people)])).status, 0);
      const second = await b.cli(['organizations', 'import', out]);
      assert.equal(second.status, 0, second.err);
      assert.match(second.err, new RegExp(`membership of ${ada} added`));
      assert.deepEqual(await b.memberships(org.id), await a.memberships(org.id));
      assert.equal(await b.h.count('organizations'), lines.length);
      const third = await b.cli(['organizations', 'import', out]);
      assert.match(third.err, /0 imported, \d+ skipped, 0 failed; 0 memberships added\./);
      assert.deepEqual(await b.memberships(org.id), await a.memberships(org.id));
    } finally {
      await b.close();
    }
  });
});
