import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { runCli } from '../src/cli/run-cli.ts';
import { databaseOAuthAppsAdmin } from '../src/cli/oauth-apps-admin.ts';
import { createIdentity } from '../src/identity.ts';
import { clientSecretMatches } from '../src/oauth-provider/oauth-client-secret.ts';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { FAPI, Harness, PUBLIC_URL, testConfig, type Json } from './support/harness.ts';

/**
 * OAuth applications through @clerk/backend 2.10.1's `oauthApplications`, as an operator calls them:
 * Clerk's resource, the client secret shown once and stored hashed, pagination, and every refusal.
 */

const REDIRECT = 'https://app.example.com/callback';

const dir = mkdtempSync(join(tmpdir(), 'oauth-apps-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
function settingsFile(oauthApplications: unknown[]): string {
  const path = join(dir, `settings-${++files}.json`);
  writeFileSync(path, JSON.stringify({ oauthApplications }));
  return path;
}

forEachBackend('OAuth applications', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;

  before(async () => {
    h = await Harness.start(backend);
    clerk = await backendApiClient(h);
  });
  after(() => h.close());

  const rowOf = async (id: string) =>
    (await h.db.query<Record<string, unknown>>('SELECT * FROM oauth_applications WHERE id = $1', [id]))[0];

  it("creates a confidential application with Clerk's resource and its secret, shown once", async () => {
    const app = await clerk.oauthApplications.create({
      name: 'Partner portal',
      redirectUris: [REDIRECT, 'http://localhost:8080/cb'],
      scopes: 'openid profile email',
    });
    assert.match(app.id, /^oa_/);
    assert.equal(app.instanceId, 'ins_embedded');
    assert.equal(app.name, 'Partner portal');
    assert.match(app.clientId, /^[0-9A-Za-z]{16}$/);
    assert.equal(app.isPublic, false);
    assert.equal(app.pkceRequired, false);
    assert.equal(app.consentScreenEnabled, true);
    assert.equal(app.dynamicallyRegistered, false);
    assert.equal(app.scopes, 'openid profile email');
    assert.deepEqual(app.redirectUris, [REDIRECT, 'http://localhost:8080/cb']);
    const base = `${PUBLIC_URL}${FAPI}`;
    assert.equal(app.authorizeUrl, `${base}/oauth/authorize`);
    assert.equal(app.tokenFetchUrl, `${base}/oauth/token`);
    assert.equal(app.userInfoUrl, `${base}/oauth/userinfo`);
    assert.equal(app.discoveryUrl, `${base}/.well-known/openid-configuration`);
    assert.equal(app.tokenIntrospectionUrl, `${base}/oauth/token_info`);
    assert.equal(typeof app.createdAt, 'number');
    assert.match(app.clientSecret!, /^[0-9A-Za-z]{40}$/);

    const row = await rowOf(app.id);
    assert.ok(row!.secret_hash, 'a hash is kept');
    assert.equal(JSON.stringify(row).includes(app.clientSecret!), false, 'the secret is not stored');

    const read = await clerk.oauthApplications.get(app.id);
    assert.equal(read.clientSecret, undefined, 'never shown again');
    const raw = await h.bapi(`/v1/oauth_applications/${app.id}`);
    const json = raw.json();
    assert.equal(json.object, 'oauth_application');
    assert.equal(json.callback_url, REDIRECT);
    assert.equal('client_secret' in json, false);
  });

  it('creates a public application: PKCE required, no secret; defaults to profile email', async () => {
    const app = await clerk.oauthApplications.create({ name: 'CLI', public: true, redirectUris: null });
    assert.equal(app.isPublic, true);
    assert.equal(app.pkceRequired, true);
    assert.equal(app.clientSecret, undefined);
    assert.equal(app.scopes, 'profile email');
    assert.deepEqual(app.redirectUris, []);
    assert.equal((await rowOf(app.id))!.secret_hash, null);
    await rejectsWith(
      clerk.oauthApplications.rotateSecret(app.id),
      422,
      'form_param_value_invalid',
      'public',
    );
  });

  it('rotates the secret: a new one, once, and the old hash is gone', async () => {
    const app = await clerk.oauthApplications.create({ name: 'Rotating', redirectUris: [REDIRECT] });
    const before = (await rowOf(app.id))!.secret_hash;
    const rotated = await clerk.oauthApplications.rotateSecret(app.id);
    assert.match(rotated.clientSecret!, /^[0-9A-Za-z]{40}$/);
    assert.notEqual(rotated.clientSecret, app.clientSecret);
    assert.notEqual((await rowOf(app.id))!.secret_hash, before);
  });

  it('updates the fields given and keeps the others; switching public drops or makes the secret', async () => {
    const app = await clerk.oauthApplications.create({ name: 'Before', redirectUris: [REDIRECT] });
    const renamed = await clerk.oauthApplications.update({
      oauthApplicationId: app.id,
      name: 'After',
      scopes: 'email',
    });
    assert.equal(renamed.name, 'After');
    assert.equal(renamed.scopes, 'email');
    assert.deepEqual(renamed.redirectUris, [REDIRECT]);
    assert.equal(renamed.clientSecret, undefined);
    assert.ok(renamed.updatedAt >= app.updatedAt);

    const pub = await clerk.oauthApplications.update({
      oauthApplicationId: app.id,
      name: 'After',
      public: true,
    });
    assert.equal(pub.isPublic, true);
    assert.equal((await rowOf(app.id))!.secret_hash, null);
    const conf = await clerk.oauthApplications.update({
      oauthApplicationId: app.id,
      name: 'After',
      public: false,
    });
    assert.equal(conf.isPublic, false);
    assert.match(conf.clientSecret!, /^[0-9A-Za-z]{40}$/);
  });

  it('lists with total_count, limit, offset and order_by', async () => {
    const all = await clerk.oauthApplications.list({ limit: 100 });
    assert.equal(all.totalCount, all.data.length);
    assert.ok(all.totalCount >= 4);
    assert.ok(all.data.every((a) => a.clientSecret === undefined));
    const byName = await clerk.oauthApplications.list({ orderBy: '+name', limit: 2, offset: 1 });
    assert.equal(byName.totalCount, all.totalCount);
    const names = all.data.map((a) => a.name).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    assert.deepEqual(
      byName.data.map((a) => a.name),
      names.slice(1, 3),
    );
    const newest = await clerk.oauthApplications.list({ limit: 1 });
    assert.equal(newest.data[0]!.id, all.data[0]!.id);
    await rejectsWith(
      clerk.oauthApplications.list({ orderBy: 'secret' as never }),
      422,
      'form_param_value_invalid',
      'order_by',
    );
  });

  it('deletes: the deleted object, then 404 everywhere', async () => {
    const app = await clerk.oauthApplications.create({ name: 'Short lived', redirectUris: [REDIRECT] });
    const deleted = await clerk.oauthApplications.delete(app.id);
    assert.equal(deleted.id, app.id);
    assert.equal(deleted.deleted, true);
    assert.equal(deleted.object, 'oauth_application');
    await rejectsWith(clerk.oauthApplications.get(app.id), 404, 'resource_not_found');
    await rejectsWith(clerk.oauthApplications.delete(app.id), 404, 'resource_not_found');
    await rejectsWith(clerk.oauthApplications.rotateSecret(app.id), 404, 'resource_not_found');
    await rejectsWith(
      clerk.oauthApplications.update({ oauthApplicationId: app.id, name: 'x' }),
      404,
      'resource_not_found',
    );
  });

  it('the CLI: oauth-apps create (secret printed once), list, rotate-secret, delete; mistakes exit 1 or 2', async () => {
    const run = async (...argv: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const status = await runCli(argv, {
        env: {},
        out: (l) => out.push(l),
        err: (l) => err.push(l),
        openOAuthApps: async () => ({
          ...(await databaseOAuthAppsAdmin(h.db, h.config, 'the test database')),
          close: async () => {},
        }),
      });
      return { status, out: out.join('\n'), err: err.join('\n') };
    };
    const made = await run(
      'oauth-apps',
      'create',
      'From the CLI',
      '--redirect-uri',
      REDIRECT,
      '--redirect-uri',
      'http://localhost:9000/cb',
      '--scopes',
      'openid email',
      '--client-uri',
      'https://partner.example.com',
      '--logo-url',
      'https://partner.example.com/logo.png',
      '--no-consent',
    );
    assert.equal(made.status, 0, made.err);
    const secret = /client_secret: ([0-9A-Za-z]{40})/.exec(made.out)![1]!;
    const clientId = /client_id: (\S+)/.exec(made.out)![1]!;
    assert.match(made.err, /shown this once/);
    const app = (await clerk.oauthApplications.list({ limit: 100 })).data.find(
      (a) => a.clientId === clientId,
    )!;
    assert.deepEqual(app.redirectUris, [REDIRECT, 'http://localhost:9000/cb']);
    assert.equal(app.scopes, 'openid email');
    assert.equal(app.consentScreenEnabled, false);
    const json = (await h.bapi(`/v1/oauth_applications/${app.id}`)).json();
    assert.equal(json.client_uri, 'https://partner.example.com');
    assert.equal(json.client_image_url, 'https://partner.example.com/logo.png');
    const row = await rowOf(app.id);
    assert.ok(clientSecretMatches(h.identity.deps.keys.codePepper, secret, row!.secret_hash as string));

    const listed = await run('oauth-apps', 'list');
    assert.equal(listed.status, 0, listed.err);
    assert.match(listed.out, new RegExp(`${app.id}\\s+${clientId}\\s+confidential`));
    assert.equal(listed.out.includes(secret), false, 'the list shows no secret');

    const rotated = await run('oauth-apps', 'rotate-secret', app.id);
    assert.equal(rotated.status, 0, rotated.err);
    const next = /client_secret: ([0-9A-Za-z]{40})/.exec(rotated.out)![1]!;
    assert.ok(
      clientSecretMatches(
        h.identity.deps.keys.codePepper,
        next,
        (await rowOf(app.id))!.secret_hash as string,
      ),
    );

    const bad = await run('oauth-apps', 'create', 'Bad', '--redirect-uri', 'http://evil.example.com/cb');
    assert.equal(bad.status, 1);
    assert.match(bad.err, /must be https/);
    const badLogo = await run(
      'oauth-apps',
      'create',
      'Bad logo',
      '--redirect-uri',
      REDIRECT,
      '--logo-url',
      'javascript:alert(1)',
    );
    assert.equal(badLogo.status, 1);
    assert.equal((await run('oauth-apps', 'delete', app.id)).status, 0);
    assert.equal(await rowOf(app.id), undefined);
    const gone = await run('oauth-apps', 'delete', app.id);
    assert.equal(gone.status, 1);
    assert.equal((await run('oauth-apps', 'frobnicate')).status, 2);
    assert.equal((await run('oauth-apps', 'create')).status, 2);
  });

  describe('refuses, and changes nothing', () => {
    const refused: [string, Record<string, unknown>, string, string][] = [
      ['no name', {}, 'form_param_nil', 'name'],
      ['a blank name', { name: '  ' }, 'form_param_nil', 'name'],
      ['a name too long', { name: 'x'.repeat(257) }, 'form_param_max_length_exceeded', 'name'],
      ['an unknown scope', { name: 'a', scopes: 'profile admin' }, 'form_param_value_invalid', 'scopes'],
      [
        'a relative redirect',
        { name: 'a', redirectUris: ['/cb'] },
        'form_param_value_invalid',
        'redirect_uris',
      ],
      [
        'plain http off loopback',
        { name: 'a', redirectUris: ['http://app.example.com/cb'] },
        'form_param_value_invalid',
        'redirect_uris',
      ],
      [
        'a javascript: redirect',
        { name: 'a', redirectUris: ['javascript:alert(1)'] },
        'form_param_value_invalid',
        'redirect_uris',
      ],
      [
        'a fragment',
        { name: 'a', redirectUris: ['https://app.example.com/cb#x'] },
        'form_param_value_invalid',
        'redirect_uris',
      ],
      [
        'credentials in the URI',
        { name: 'a', redirectUris: ['https://u:p@app.example.com/cb'] },
        'form_param_value_invalid',
        'redirect_uris',
      ],
      [
        'too many redirects',
        { name: 'a', redirectUris: Array.from({ length: 21 }, (_, i) => `https://a.example.com/${i}`) },
        'form_param_value_invalid',
        'redirect_uris',
      ],
    ];
    for (const [what, params, code, param] of refused) {
      it(what, async () => {
        const before = await h.count('oauth_applications');
        await rejectsWith(clerk.oauthApplications.create(params as never), 422, code, param);
        assert.equal(await h.count('oauth_applications'), before);
      });
    }

    it('a native private-use scheme and loopback IPs are taken', async () => {
      const app = await clerk.oauthApplications.create({
        name: 'Native',
        public: true,
        redirectUris: ['com.example.app:/oauth', 'http://127.0.0.1:4000/cb', 'http://[::1]/cb'],
      });
      assert.equal(app.redirectUris.length, 3);
    });

    it('an update with a bad redirect keeps the application as it was', async () => {
      const app = await clerk.oauthApplications.create({ name: 'Kept', redirectUris: [REDIRECT] });
      await rejectsWith(
        clerk.oauthApplications.update({
          oauthApplicationId: app.id,
          name: 'Changed',
          redirectUris: ['ftp://x'],
        }),
        422,
        'form_param_value_invalid',
        'redirect_uris',
      );
      const kept = await clerk.oauthApplications.get(app.id);
      assert.equal(kept.name, 'Kept');
    });

    it('without the secret key', async () => {
      const res = await h.bapi('/v1/oauth_applications', null);
      assert.equal(res.statusCode, 401);
    });
  });
});

forEachBackend('OAuth applications declared in the instance settings', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;
  const partner = {
    clientId: 'partner-portal',
    name: 'Partner portal',
    redirectUris: [REDIRECT],
    scopes: 'openid profile',
    clientSecret: { env: 'TEST_OAUTH_PARTNER_SECRET' },
  };
  const cli = {
    clientId: 'acme-cli',
    name: 'Acme CLI',
    public: true,
    consentScreenEnabled: false,
    redirectUris: ['http://127.0.0.1/cb'],
  };

  before(async () => {
    process.env.TEST_OAUTH_PARTNER_SECRET = 'declared-secret-0123456789';
    h = await Harness.start(backend, { config: { settingsFile: settingsFile([partner, cli]) } });
    clerk = await backendApiClient(h);
  });
  after(() => h.close());

  const rows = () => h.db.query<Record<string, Json>>('SELECT * FROM oauth_applications ORDER BY client_id');

  it("are registered at start, the secret being the named variable's, hashed", async () => {
    const list = await clerk.oauthApplications.list();
    assert.deepEqual(list.data.map((a) => a.clientId).sort(), ['acme-cli', 'partner-portal']);
    const [cliRow, partnerRow] = await rows();
    assert.equal(partnerRow!.declared, true);
    assert.equal(partnerRow!.scopes, 'openid profile');
    assert.equal(partnerRow!.consent_screen_enabled, true);
    const pepper = h.identity.deps.keys.codePepper;
    assert.ok(clientSecretMatches(pepper, 'declared-secret-0123456789', partnerRow!.secret_hash));
    assert.equal(cliRow!.public, true);
    assert.equal(cliRow!.consent_screen_enabled, false);
    assert.equal(cliRow!.secret_hash, null);
  });

  it("a later start makes the declared rows the file's: changed, removed; API-made ones stay", async () => {
    const made = await clerk.oauthApplications.create({ name: 'Made by API', redirectUris: [REDIRECT] });
    const before = await rows();
    const path = settingsFile([{ ...partner, name: 'Partner portal v2' }]);
    const again = await createIdentity(testConfig({ settingsFile: path }), h.db);
    await again.stop();
    const after = await rows();
    assert.deepEqual(after.map((r) => r.client_id).sort(), [made.clientId, 'partner-portal'].sort());
    const partnerRow = after.find((r) => r.client_id === 'partner-portal')!;
    assert.equal(partnerRow.name, 'Partner portal v2');
    assert.equal(partnerRow.id, before.find((r) => r.client_id === 'partner-portal')!.id, 'same id');
  });

  it('a bad declaration stops the start, naming the application, and changes nothing', async () => {
    const before = JSON.stringify(await rows());
    const settingsBefore = JSON.stringify(await h.db.query('SELECT * FROM instance_settings_document'));
    const cases: [unknown, RegExp][] = [
      [{ ...partner, redirectUris: ['http://partner.example.com/cb'] }, /redirectUris.*must be https/],
      [{ ...partner, scopes: 'openid root' }, /scopes.*scopes must be/],
      [{ ...cli, clientSecret: { env: 'TEST_OAUTH_PARTNER_SECRET' } }, /clientSecret/],
      // Last: a missing variable is found after the document is stored.
      [{ ...partner, clientSecret: { env: 'TEST_OAUTH_UNSET_SECRET' } }, /TEST_OAUTH_UNSET_SECRET/],
    ];
    for (const [app, message] of cases) {
      await assert.rejects(createIdentity(testConfig({ settingsFile: settingsFile([app]) }), h.db), message);
      // What the schema can judge is refused before the document is stored; a missing variable is not.
      if (!JSON.stringify(app).includes('UNSET')) {
        assert.equal(
          JSON.stringify(await h.db.query('SELECT * FROM instance_settings_document')),
          settingsBefore,
        );
      }
    }
    const made = (await rows()).find((r) => !r.declared)!;
    await assert.rejects(
      createIdentity(
        testConfig({ settingsFile: settingsFile([{ ...cli, clientId: made.client_id }]) }),
        h.db,
      ),
      /belongs to an application made through the Backend API/,
    );
    assert.equal(JSON.stringify(await rows()), before);
  });
});
