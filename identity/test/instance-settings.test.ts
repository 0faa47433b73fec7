import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { verifyToken } from '@clerk/backend';
import { decodeJwt } from 'jose';
import { createIdentity } from '../src/identity.ts';
import {
  DEFAULT_INSTANCE_SETTINGS,
  InstanceSettingsError,
  parseInstanceSettings,
  secretFromEnv,
  secretReference,
} from '../src/instance/settings/schema.ts';
import { loadSettingsFile } from '../src/instance/settings/settings-file.ts';
import type { StoredInstanceSettings } from '../src/store/instance-settings.ts';
import { forEachBackend } from './support/backends.ts';
import { signUp } from './support/flows.ts';
import { BAPI, Harness, PUBLIC_URL, testConfig, uniqueEmail } from './support/harness.ts';
import { activate, createOrganization, newMember } from './support/organizations.ts';

const dir = mkdtempSync(join(tmpdir(), 'identity-settings-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
function settingsFile(content: unknown): string {
  const path = join(dir, `settings-${++files}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

function problemsOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  assert.fail('accepted');
}

describe('instance settings file', () => {
  it('the example in the repository is valid and is the built-in default', () => {
    const example = loadSettingsFile(new URL('../settings.example.json', import.meta.url).pathname);
    assert.deepEqual(example, DEFAULT_INSTANCE_SETTINGS);
    assert.deepEqual(DEFAULT_INSTANCE_SETTINGS.sessionToken.claims, {
      email: '{{user.primary_email_address}}',
      first_name: '{{user.first_name}}',
      last_name: '{{user.last_name}}',
    });
  });

  it('a document without settings is the empty template; $schema is allowed and dropped', () => {
    assert.deepEqual(parseInstanceSettings({}), { sessionToken: { claims: {} }, social: {} });
    assert.deepEqual(parseInstanceSettings({ $schema: './x.json', sessionToken: {} }), {
      sessionToken: { claims: {} },
      social: {},
    });
  });

  it('a bad file is refused with the path, the field and the reason', () => {
    const cases: [unknown, RegExp][] = [
      [
        { sessionToken: { claims: { sub: '{{user.id}}' } } },
        /sessionToken\.claims\.sub: "sub" is a claim the provider sets itself/,
      ],
      [
        { sessionToken: { claims: { a: '{{user.password}}' } } },
        /sessionToken\.claims\.a: \{\{user\.password\}\} is not a supported shortcode/,
      ],
      [
        { sessionToken: { claims: { a: 'x'.repeat(1300) } } },
        /sessionToken\.claims: is \d+ bytes; custom claims are limited to 1200 bytes/,
      ],
      [{ sessionToken: { claims: [] } }, /sessionToken\.claims: /],
      [{ sessionToken: { claim: {} } }, /sessionToken: Unrecognized key/],
      [{ signIn: true }, /\(document\): Unrecognized key.*signIn/],
      [
        { social: { oauth_foo: { clientId: 'a', clientSecret: { env: 'A' } } } },
        /social\.oauth_foo: is not a social strategy/,
      ],
      [
        { social: { oauth_custom_acme: { clientId: 'a', clientSecret: { env: 'A' } } } },
        /social\.oauth_custom_acme: a custom provider needs its issuer/,
      ],
      [
        { social: { oauth_google: { clientId: 'a', clientSecret: 'plain-secret' } } },
        /social\.oauth_google\.clientSecret: /,
      ],
      [
        { social: { oauth_google: { clientId: 'a', clientSecret: { env: 'A' }, issuer: 'javascript:x' } } },
        /social\.oauth_google\.issuer: must be an http\(s\) URL/,
      ],
      [
        { social: { oauth_google: { clientId: 'a', clientSecret: { env: 'A' }, secret: 'x' } } },
        /Unrecognized key/,
      ],
      [
        { oauthProvider: { accessTokenLifetime: 30 } },
        /oauthProvider\.accessTokenLifetime: must be a whole number of seconds from 60 to 86400/,
      ],
      [
        { oauthProvider: { accessTokenLifetime: 90.5 } },
        /oauthProvider\.accessTokenLifetime: must be a whole number of seconds/,
      ],
      [
        { oauthProvider: { accessTokenLifetime: '3600' } },
        /oauthProvider\.accessTokenLifetime: must be a whole/,
      ],
      [{ oauthProvider: { refreshTokenLifetime: 400 * 86400 } }, /oauthProvider\.refreshTokenLifetime: /],
      [
        { oauthProvider: { authorizationCodeLifetime: 3600 } },
        /oauthProvider\.authorizationCodeLifetime: .* from 10 to 600/,
      ],
      [
        { oauthProvider: { accessTokenLifetime: 86400, refreshTokenLifetime: 3600 } },
        /oauthProvider\.refreshTokenLifetime: refreshTokenLifetime cannot be shorter than accessTokenLifetime/,
      ],
      [{ oauthProvider: { idTokenLifetime: 60 } }, /oauthProvider: Unrecognized key/],
      ['[1, 2', /is not valid JSON/],
      ['[]', /\(document\): /],
    ];
    for (const [content, expected] of cases) {
      const path = settingsFile(content);
      const message = problemsOf(() => loadSettingsFile(path));
      assert.match(message, new RegExp(`IDENTITY_SETTINGS_FILE: ${path.replace(/[.]/g, '\\.')}`));
      assert.match(message, expected, message);
    }
    assert.match(
      problemsOf(() => loadSettingsFile(join(dir, 'missing.json'))),
      /cannot read .*missing\.json \(ENOENT\)/,
    );
    assert.ok(
      (() => {
        try {
          parseInstanceSettings({ sessionToken: { claims: { iss: 'x' } } });
        } catch (err) {
          return err instanceof InstanceSettingsError && err.problems.length === 1;
        }
        return false;
      })(),
    );
  });

  it('the OAuth provider settings take their defaults for what is not given', () => {
    assert.deepEqual(parseInstanceSettings({ oauthProvider: {} }).oauthProvider, {
      accessTokenLifetime: 3600,
      refreshTokenLifetime: 30 * 86400,
      authorizationCodeLifetime: 60,
      dynamicClientRegistration: false,
      registrationsPerAddressPerHour: 10,
      failedTokenVerificationsPerAddress: 1000,
    });
    assert.equal(
      parseInstanceSettings({ oauthProvider: { accessTokenLifetime: 600 } }).oauthProvider
        ?.accessTokenLifetime,
      600,
    );
    assert.equal(parseInstanceSettings({}).oauthProvider, undefined);
  });

  it('a secret is named by its environment variable, never written in the file', () => {
    assert.deepEqual(secretReference.parse({ env: 'SMTP_PASSWORD' }), { env: 'SMTP_PASSWORD' });
    for (const bad of [
      { env: 'smtp password' },
      { env: '' },
      { value: 'hunter2' },
      { env: 'A', value: 'x' },
      'hunter2',
    ]) {
      assert.equal(secretReference.safeParse(bad).success, false, JSON.stringify(bad));
    }
    assert.equal(secretFromEnv({ env: 'X_SECRET' }, { X_SECRET: 's3cret' }), 's3cret');
    assert.throws(
      () => secretFromEnv({ env: 'X_SECRET' }, {}),
      /X_SECRET named by the instance settings is not set/,
    );
  });

  it('IDENTITY_SETTINGS_FILE is read from the environment', () => {
    assert.equal(testConfig().settingsFile, null);
  });
});

forEachBackend('instance settings', (backend) => {
  let h: Harness;
  let twin: Harness;
  let apiUrl: string;
  before(async () => {
    h = await Harness.start(backend);
    twin = await h.twin();
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    apiUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}${BAPI}`;
  });
  after(async () => {
    await twin?.close();
    await h?.close();
  });

  it('without a settings file a new instance starts with the built-in defaults', () => {
    assert.deepEqual(h.identity.settings.settings, DEFAULT_INSTANCE_SETTINGS);
    assert.equal(h.identity.instanceSettingsVersion(), 1);
    assert.deepEqual(twin.identity.settings.settings, DEFAULT_INSTANCE_SETTINGS);
  });

  it('a change is heard at once here and by another instance at its next version check', async () => {
    const here: StoredInstanceSettings[] = [];
    const there: StoredInstanceSettings[] = [];
    const stopHere = h.identity.onInstanceSettingsChanged((s) => here.push(s));
    const stopThere = twin.identity.onInstanceSettingsChanged((s) => there.push(s));
    try {
      const before = h.identity.instanceSettingsVersion();
      const claims = { plan: "{{user.public_metadata.plan || 'free'}}" };
      const stored = await h.identity.settings.set({ sessionToken: { claims } });
      assert.equal(stored.version, before + 1);
      assert.equal(here.length, 1);
      assert.deepEqual(here[0]!.settings.sessionToken.claims, claims);
      assert.equal(h.identity.instanceSettingsVersion(), before + 1);

      assert.equal(there.length, 0, 'the other instance has not looked yet');
      assert.equal(await twin.identity.settings.refresh(), true);
      assert.equal(there.length, 1);
      assert.equal(twin.identity.instanceSettingsVersion(), before + 1);
      assert.deepEqual(twin.identity.settings.sessionTokenClaims.source, claims);

      // Nothing new: no event, no reload.
      assert.equal(await twin.identity.settings.refresh(), false);
      assert.equal(await h.identity.settings.refresh(), false);
      // The same document again (keys in another order): the version stays.
      await h.identity.settings.set({ sessionToken: { claims: { ...claims } } });
      assert.equal(h.identity.instanceSettingsVersion(), before + 1);
      assert.equal(here.length, 1);
      // After unsubscribing, nothing more.
      stopHere();
      await h.identity.settings.set(DEFAULT_INSTANCE_SETTINGS);
      assert.equal(here.length, 1);
      assert.equal(h.identity.instanceSettingsVersion(), before + 2);
    } finally {
      stopHere();
      stopThere();
      await h.identity.settings.set(DEFAULT_INSTANCE_SETTINGS);
      await twin.identity.settings.refresh();
    }
  });

  it('a refused change leaves the settings and the version as they were', async () => {
    const version = h.identity.instanceSettingsVersion();
    await assert.rejects(
      h.identity.settings.set({ sessionToken: { claims: { exp: 1 } } }),
      (err: Error) => err instanceof InstanceSettingsError && /sessionToken\.claims\.exp/.test(err.message),
    );
    assert.equal(h.identity.instanceSettingsVersion(), version);
    assert.deepEqual(h.identity.settings.settings, DEFAULT_INSTANCE_SETTINGS);
  });

  it('a minted token carries the rendered claims and @clerk/backend verifies it', async () => {
    const browser = h.browser();
    const email = uniqueEmail('claims');
    const { sessionId, userId } = await signUp(h, browser, email, { firstName: 'Grace', lastName: 'Hopper' });
    h.clock.set(new Date());
    const res = await browser.post(`/client/sessions/${sessionId}/tokens`, { organization_id: '' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const claims = await verifyToken(res.body.jwt, {
      secretKey: h.identity.secretKey,
      apiUrl,
      authorizedParties: [PUBLIC_URL],
    });
    assert.equal(claims.sub, userId);
    assert.equal(claims.sid, sessionId);
    assert.equal(claims.email, email);
    assert.equal(claims.first_name, 'Grace');
    assert.equal(claims.last_name, 'Hopper');
  });

  it('a changed template applies to the next token; organisation shortcodes follow the active organisation', async () => {
    const member = await newMember(h, 'claims-org', { firstName: 'Alan' });
    const org = await createOrganization(member, 'Claims Org');
    await activate(member, org.id);
    await h.db.query(`UPDATE users SET public_metadata = '{"plan": "pro"}' WHERE id = $1`, [member.userId]);
    try {
      await h.identity.settings.set({
        sessionToken: {
          claims: {
            name: '{{user.first_name}} {{user.last_name}}',
            plan: "{{user.public_metadata.plan || 'free'}}",
            org: { slug: '{{org.slug}}', role: '{{org.role}}', name: '{{org.name}}' },
            // The provider's own claims cannot be overridden, even through a stale row: sid stays real.
          },
        },
      });
      h.clock.set(new Date());
      const withOrg = decodeJwt(
        (await member.browser.post(`/client/sessions/${member.sessionId}/tokens`, {})).body.jwt,
      );
      assert.equal(withOrg.name, 'Alan ');
      assert.equal(withOrg.plan, 'pro');
      assert.deepEqual(withOrg.org, { slug: org.slug, role: 'org:admin', name: 'Claims Org' });
      assert.equal(withOrg.org_id, org.id);
      assert.equal(withOrg.email, undefined, 'the previous template is gone');

      const personal = decodeJwt(
        (await member.browser.post(`/client/sessions/${member.sessionId}/tokens`, { organization_id: '' }))
          .body.jwt,
      );
      assert.deepEqual(personal.org, { slug: null, role: null, name: null });
      assert.equal(personal.org_id, undefined);

      // Metadata too large for the bound: the token is minted without the custom claims.
      await h.identity.settings.set({ sessionToken: { claims: { meta: '{{user.public_metadata}}' } } });
      await h.db.query(`UPDATE users SET public_metadata = $2::jsonb WHERE id = $1`, [
        member.userId,
        JSON.stringify({ blob: 'x'.repeat(2000) }),
      ]);
      const big = await member.browser.post(`/client/sessions/${member.sessionId}/tokens`, {});
      assert.equal(big.status, 200);
      const bigClaims = decodeJwt(big.body.jwt);
      assert.equal(bigClaims.meta, undefined);
      assert.equal(bigClaims.sid, member.sessionId);

      // An empty template: no custom claims at all.
      await h.identity.settings.set({ sessionToken: { claims: {} } });
      const bare = decodeJwt(
        (await member.browser.post(`/client/sessions/${member.sessionId}/tokens`, {})).body.jwt,
      );
      assert.deepEqual(Object.keys(bare).sort(), [
        'azp',
        'exp',
        'fva',
        'iat',
        'iss',
        'nbf',
        'org_id',
        'org_permissions',
        'org_role',
        'org_slug',
        'sid',
        'sts',
        'sub',
      ]);
    } finally {
      await h.identity.settings.set(DEFAULT_INSTANCE_SETTINGS);
    }
  });

  it('the client JSON token (last_active_token) carries the claims too', async () => {
    const browser = h.browser();
    const email = uniqueEmail('claims-client');
    await signUp(h, browser, email, { firstName: 'Edsger' });
    const res = await browser.get('/client');
    assert.equal(res.status, 200);
    const jwt = res.body.response.sessions[0].last_active_token.jwt;
    const claims = decodeJwt(jwt);
    assert.equal(claims.email, email);
    assert.equal(claims.first_name, 'Edsger');
    assert.equal(claims.last_name, null);
  });

  it('a settings file is applied at start, replacing what the database holds; the same file again changes nothing', async () => {
    const store = await backend.createStore();
    const claims = { mail: '{{user.primary_email_address}}' };
    const path = settingsFile({ sessionToken: { claims } });
    const first = await createIdentity(testConfig({ settingsFile: null }), store.options);
    let second: Awaited<ReturnType<typeof createIdentity>> | null = null;
    try {
      await first.settings.set({ sessionToken: { claims: { a: 'b' } } });
      assert.equal(first.instanceSettingsVersion(), 2);
      if (backend.name === 'pglite') {
        // In-memory PGlite has one handle: the second start uses the same database.
        second = await createIdentity(testConfig({ settingsFile: path }), first.deps.db);
      } else {
        second = await createIdentity(testConfig({ settingsFile: path }), store.options);
      }
      assert.deepEqual(second.settings.settings.sessionToken.claims, claims);
      assert.equal(second.instanceSettingsVersion(), 3);
      const third = await createIdentity(testConfig({ settingsFile: path }), second.deps.db);
      assert.equal(third.instanceSettingsVersion(), 3, 'the same file leaves the version alone');
      await third.stop();
    } finally {
      if (second && backend.name !== 'pglite') await second.close();
      else if (second) await second.stop();
      await first.close();
      await store.dispose();
    }
  });

  it('a bad settings file stops the start, naming the field, and stores nothing', async () => {
    const store = await backend.createStore();
    const path = settingsFile({ sessionToken: { claims: { azp: 'x' } } });
    try {
      await assert.rejects(
        createIdentity(testConfig({ settingsFile: path }), store.options),
        /IDENTITY_SETTINGS_FILE: .* is refused:\n {2}- sessionToken\.claims\.azp: "azp" is a claim the provider sets itself/,
      );
    } finally {
      await store.dispose();
    }
  });
});
