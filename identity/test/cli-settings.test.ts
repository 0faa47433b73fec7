import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { decodeJwt } from 'jose';
import { USAGE } from '../src/cli/run-cli.ts';
import { DEFAULT_INSTANCE_SETTINGS } from '../src/instance/settings/schema.ts';
import { forEachBackend, type Store } from './support/backends.ts';
import { cli, cliStore } from './support/cli.ts';
import { signUp } from './support/flows.ts';
import { Harness, uniqueEmail } from './support/harness.ts';

forEachBackend('identity CLI: settings show and set', (backend) => {
  let store: Store;
  let env: NodeJS.ProcessEnv;
  let h: Harness | null = null;

  const start = async () => (h = await Harness.start(backend, { store }));
  const stop = async () => {
    await h?.close();
    h = null;
  };

  let dispose: () => Promise<void>;

  before(async () => {
    ({ store, env, dispose } = await cliStore(backend));
    await start();
  });
  after(async () => {
    await stop();
    await dispose();
  });

  it('the usage names the settings commands; a malformed command line is exit 2', async () => {
    assert.match(USAGE, /settings show/);
    assert.match(USAGE, /settings set <field> <JSON value>/);
    assert.match(USAGE, /settings diff <settings file>/);
    for (const argv of [
      ['settings'],
      ['settings', 'set', 'sessionToken.claims'],
      ['settings', 'drop'],
      ['settings', 'show', 'x'],
    ]) {
      const res = await cli(argv, env);
      assert.equal(res.status, 2, argv.join(' '));
      assert.match(res.err, /settings takes "show", "set <field> <JSON value>" or "diff <settings file>"/);
    }
  });

  it('while the server holds the PGlite directory, the command says so and changes nothing', async () => {
    if (backend.name !== 'pglite') return;
    const res = await cli(['settings', 'show'], env);
    assert.equal(res.status, 1);
    assert.match(res.err, /is in use by process \d+\. Stop it .*\(IDENTITY_SETTINGS_FILE\)/);
    assert.equal(res.out, '');
  });

  it('show prints the settings document on stdout and the version on stderr', async () => {
    if (backend.name === 'pglite') await stop();
    const res = await cli(['settings', 'show'], env);
    assert.equal(res.status, 0, res.err);
    assert.deepEqual(JSON.parse(res.out), DEFAULT_INSTANCE_SETTINGS);
    assert.match(res.err, /^version 1, updated \d{4}-\d\d-\d\dT/);
  });

  it('set refuses an invalid value with the field and the reason, and leaves the version', async () => {
    if (backend.name === 'pglite') await stop();
    const refused = [
      [
        ['sessionToken.claims', '{"sub": "{{user.id}}"}'],
        /sessionToken\.claims\.sub: "sub" is a claim the provider sets itself/,
      ],
      [
        ['sessionToken.claims', '{"a": "{{user.secret}}"}'],
        /sessionToken\.claims\.a: \{\{user\.secret\}\} is not a supported shortcode/,
      ],
      [['sessionToken.claims', '{not json'], /The value for sessionToken\.claims is not JSON/],
      [['sessionToken.nope', '{}'], /sessionToken: Unrecognized key/],
      [['session-token', '{}'], /session-token is not a settings field/],
    ] as const;
    for (const [args, reason] of refused) {
      const res = await cli(['settings', 'set', ...args], env);
      assert.equal(res.status, 1, args.join(' '));
      assert.match(res.err, reason, res.err);
    }
    const shown = await cli(['settings', 'show'], env);
    assert.match(shown.err, /^version 1,/);
  });

  it('diff prints what a settings file would change, refuses a bad one by field, and changes nothing', async () => {
    if (backend.name === 'pglite') await stop();
    const dir = mkdtempSync(join(tmpdir(), 'cli-settings-diff-'));
    try {
      const good = join(dir, 'good.json');
      writeFileSync(
        good,
        JSON.stringify({ ...DEFAULT_INSTANCE_SETTINGS, auditLog: { retentionDays: 30 }, apiKeys: undefined }),
      );
      const res = await cli(['settings', 'diff', good], env);
      assert.equal(res.status, 0, res.err);
      assert.deepEqual(res.out.trim().split('\n').sort(), [
        `apiKeys: ${JSON.stringify(DEFAULT_INSTANCE_SETTINGS.apiKeys)} → (absent)`,
        'auditLog: (absent) → {"retentionDays":30}',
      ]);
      assert.match(res.err, /^2 changes against version 1\./);
      const bad = join(dir, 'bad.json');
      writeFileSync(bad, JSON.stringify({ sessionToken: { claims: { sub: 'x' } } }));
      const refused = await cli(['settings', 'diff', bad], env);
      assert.equal(refused.status, 1);
      assert.match(refused.err, /sessionToken\.claims\.sub: "sub" is a claim the provider sets itself/);
      assert.match((await cli(['settings', 'show'], env)).err, /^version 1,/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('set changes the field; the running server follows it and mints with the new claims', async () => {
    if (backend.name === 'pglite') await stop();
    const claims = { nick: '{{user.username || user.first_name}}', tier: 'gold' };
    const res = await cli(['settings', 'set', 'sessionToken.claims', JSON.stringify(claims)], env);
    assert.equal(res.status, 0, res.err);
    assert.deepEqual(JSON.parse(res.out).sessionToken.claims, claims);
    assert.match(res.err, /^version 2,/);
    assert.doesNotMatch(res.err, /IDENTITY_SETTINGS_FILE/);

    if (!h) await start();
    else {
      // Another process changed the database: the server sees it at its next version check.
      const heard: number[] = [];
      h.identity.onInstanceSettingsChanged((s) => heard.push(s.version));
      assert.equal(await h.identity.settings.refresh(), true);
      assert.deepEqual(heard, [2]);
    }
    assert.equal(h!.identity.instanceSettingsVersion(), 2);
    const browser = h!.browser();
    const { sessionId } = await signUp(h!, browser, uniqueEmail('cli-claims'), { firstName: 'Barbara' });
    const token = await browser.post(`/client/sessions/${sessionId}/tokens`, { organization_id: '' });
    const minted = decodeJwt(token.body.jwt);
    assert.equal(minted.nick, 'Barbara');
    assert.equal(minted.tier, 'gold');
    assert.equal(minted.email, undefined);
  });

  it('set warns when a settings file will put its own settings back at the next start', async () => {
    if (backend.name === 'pglite') await stop();
    const res = await cli(
      [
        'settings',
        'set',
        'sessionToken.claims',
        JSON.stringify(DEFAULT_INSTANCE_SETTINGS.sessionToken.claims),
      ],
      { ...env, IDENTITY_SETTINGS_FILE: '/etc/qoala/settings.json' },
    );
    assert.equal(res.status, 0, res.err);
    assert.match(
      res.err,
      /IDENTITY_SETTINGS_FILE is set: a server started with it puts that file's settings back/,
    );
  });
});
