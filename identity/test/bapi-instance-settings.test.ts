// The Backend API's instance settings (our extension, docs/instance-settings.md § The Backend API): the
// effective document without any secret, validation with every refused field or the diff, the change
// applied here and in another process, audited, guarded by its version, and written back to the file.
import assert from 'node:assert/strict';
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { loadSettingsFile } from '../src/instance/settings/settings-file.ts';
import { forEachBackend } from './support/backends.ts';
import { BAPI, Harness, type Json } from './support/harness.ts';

const SECRET_ENV = 'BAPI_SETTINGS_TEST_GOOGLE_SECRET';
const SECRET_VALUE = 'google-client-secret-never-shown-0123456789';

const dir = mkdtempSync(join(tmpdir(), 'identity-bapi-settings-'));
after(() => rmSync(dir, { recursive: true, force: true }));

type Method = 'GET' | 'POST' | 'PATCH';

async function call(h: Harness, method: Method, path: string, payload?: unknown, raw?: string) {
  const res = await h.app.inject({
    method,
    url: `${BAPI}${path}`,
    headers: {
      authorization: `Bearer ${h.identity.secretKey}`,
      ...(payload !== undefined || raw !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    payload: raw ?? (payload === undefined ? undefined : JSON.stringify(payload)),
  });
  return { status: res.statusCode, body: res.body ? (res.json() as Json) : null };
}

const stored = async (h: Harness) =>
  (
    await h.db.query<{ settings: unknown; version: number }>(
      'SELECT settings, version FROM instance_settings_document',
    )
  )[0]!;

const settingsEvents = (h: Harness) =>
  h.db.query<{ action: string; summary: Json; actor_kind: string }>(
    `SELECT action, summary, actor_kind FROM audit_events WHERE action = 'instance_settings.updated' ORDER BY created_at`,
  );

const GOOGLE = {
  oauth_google: { clientId: 'google-client.apps.example', clientSecret: { env: SECRET_ENV } },
};

forEachBackend('Backend API: instance settings', (backend) => {
  let h: Harness;
  before(async () => {
    process.env[SECRET_ENV] = SECRET_VALUE;
    h = await Harness.start(backend);
    await h.identity.settings.set({ ...h.identity.settings.settings, social: GOOGLE });
  });
  after(() => h.close());

  it('GET answers the effective document and its version, secrets named by their variable only', async () => {
    const res = await call(h, 'GET', '/v1/instance_settings');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.object, 'instance_settings_document');
    assert.equal(res.body.version, h.identity.settings.version);
    assert.deepEqual(res.body.settings, JSON.parse(JSON.stringify(h.identity.settings.settings)));
    assert.deepEqual(res.body.settings.social.oauth_google.clientSecret, { env: SECRET_ENV });
    assert.equal(res.body.settings_file, false);
    assert.deepEqual(res.body.applied_at_start, ['oauthApplications']);
    assert.equal(JSON.stringify(res.body).includes(SECRET_VALUE), false);
  });

  it('validate answers the changes as {path, before, after} and changes nothing', async () => {
    const before = await stored(h);
    const res = await call(h, 'POST', '/v1/instance_settings/validate', {
      version: before.version,
      settings: { auditLog: { retentionDays: 90 }, sessionToken: { claims: { plan: 'free' } }, social: null },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.valid, true);
    assert.equal(res.body.version, before.version);
    assert.deepEqual(res.body.restart_required, []);
    const byPath = Object.fromEntries((res.body.changes as Json[]).map((c) => [c.path, c]));
    assert.deepEqual(byPath['auditLog'], { path: 'auditLog', after: { retentionDays: 90 } });
    assert.deepEqual(byPath['sessionToken.claims.plan'], { path: 'sessionToken.claims.plan', after: 'free' });
    // The merge patch's null removes the section; the claims it does not name stay.
    assert.equal(byPath['social.oauth_google'].before.clientId, 'google-client.apps.example');
    assert.equal(byPath['social.oauth_google'].after, undefined);
    assert.equal(byPath['sessionToken.claims.email'], undefined);
    assert.deepEqual(await stored(h), before);
  });

  it('a bad document is refused with every field in Clerk’s envelope, by validate and by PATCH, changing nothing', async () => {
    const before = await stored(h);
    const eventsBefore = (await settingsEvents(h)).length;
    const bad = {
      sessionToken: { claims: { sub: 'x' } },
      auditLog: { retentionDays: 0 },
      webhooks: { endpoints: { ep_x: { url: 'ftp://example.com', secret: { env: 'lower' } } } },
      tpyo: true,
    };
    for (const method of ['POST', 'PATCH'] as const) {
      const path = method === 'POST' ? '/v1/instance_settings/validate' : '/v1/instance_settings';
      const res = await call(h, method, path, { settings: bad, version: before.version });
      assert.equal(res.status, 422, JSON.stringify(res.body));
      const errors = res.body.errors as Json[];
      assert.ok(
        errors.every((e) => e.code === 'form_param_value_invalid'),
        JSON.stringify(errors),
      );
      const fields = errors.map((e) => e.meta.param_name).sort();
      assert.deepEqual(fields, [
        'settings',
        'settings.auditLog.retentionDays',
        'settings.sessionToken.claims.sub',
        'settings.webhooks.endpoints.ep_x.secret.env',
        'settings.webhooks.endpoints.ep_x.url',
      ]);
      assert.match(errors.find((e) => e.meta.param_name === 'settings').long_message, /tpyo/);
    }
    assert.deepEqual(await stored(h), before);
    assert.equal((await settingsEvents(h)).length, eventsBefore, 'no audit event');
  });

  it('malformed, mistyped, missing and oversized bodies are refused in Clerk’s envelope, changing nothing', async () => {
    const before = await stored(h);
    const cases: [unknown, string | undefined, number, string][] = [
      [undefined, '{"settings":', 400, 'request_body_invalid'],
      [undefined, '[1]', 400, 'request_body_invalid'],
      [{ settings: 'x' }, undefined, 422, 'form_param_format_invalid'],
      [{ settings: [1] }, undefined, 422, 'form_param_format_invalid'],
      [{ version: 1 }, undefined, 422, 'form_param_nil'],
      [{ settings: {}, version: 'one' }, undefined, 422, 'form_param_format_invalid'],
      [{ settings: {}, version: 0 }, undefined, 422, 'form_param_value_invalid'],
      [{ settings: {}, replace: 'yes' }, undefined, 422, 'form_param_format_invalid'],
      [
        { settings: { sessionToken: { claims: { big: 'x'.repeat(2_000_000) } } } },
        undefined,
        413,
        'request_body_invalid',
      ],
    ];
    for (const [payload, raw, status, code] of cases) {
      for (const method of ['POST', 'PATCH'] as const) {
        const path = method === 'POST' ? '/v1/instance_settings/validate' : '/v1/instance_settings';
        const res = await call(h, method, path, payload, raw);
        const label = `${method} ${raw ?? JSON.stringify(payload).slice(0, 80)}`;
        assert.equal(res.status, status, `${label}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.errors[0].code, code, label);
      }
    }
    assert.deepEqual(await stored(h), before);
  });

  it('PATCH applies at once here and within the poll in another process, audited without secrets', async () => {
    const twin = await h.twin();
    try {
      const version = h.identity.settings.version;
      const res = await call(h, 'PATCH', '/v1/instance_settings', {
        version,
        settings: {
          auditLog: { retentionDays: 120 },
          social: { oauth_google: { clientId: 'rotated-client.apps.example' } },
        },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.version, version + 1);
      assert.deepEqual(res.body.restart_required, []);
      assert.deepEqual(
        (res.body.changes as Json[]).map((c) => c.path),
        ['social.oauth_google.clientId', 'auditLog'],
      );
      // Applied in this process without a restart, and in the other at its next version check.
      assert.equal(h.identity.settings.settings.auditLog?.retentionDays, 120);
      assert.equal(h.identity.settings.version, version + 1);
      assert.equal(await twin.identity.settings.refresh(), true);
      assert.equal(
        twin.identity.settings.settings.social.oauth_google?.clientId,
        'rotated-client.apps.example',
      );
      const again = await call(h, 'GET', '/v1/instance_settings');
      assert.equal(again.body.version, version + 1);
      // The audit event names the fields and the short values, and nothing secret.
      const [event] = (await settingsEvents(h)).slice(-1);
      assert.equal(event!.actor_kind, 'secret_key');
      assert.equal(event!.summary.change_count, 2);
      assert.deepEqual(event!.summary.changes, [
        {
          path: 'social.oauth_google.clientId',
          before: 'google-client.apps.example',
          after: 'rotated-client.apps.example',
        },
        { path: 'auditLog' },
      ]);
      assert.equal(JSON.stringify(event).includes(SECRET_VALUE), false);
      // The same change again changes nothing: no new version, no audit event.
      const count = (await settingsEvents(h)).length;
      const same = await call(h, 'PATCH', '/v1/instance_settings', {
        settings: { auditLog: { retentionDays: 120 } },
      });
      assert.equal(same.status, 200);
      assert.equal(same.body.version, version + 1);
      assert.deepEqual(same.body.changes, []);
      assert.equal((await settingsEvents(h)).length, count);
    } finally {
      await twin.close();
    }
  });

  it('a stale version is refused with 409 conflict and changes nothing: two operators do not overwrite each other', async () => {
    const read = (await call(h, 'GET', '/v1/instance_settings')).body.version as number;
    const first = await call(h, 'PATCH', '/v1/instance_settings', {
      version: read,
      settings: { auditLog: { retentionDays: 30 } },
    });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const before = await stored(h);
    for (const [method, path] of [
      ['PATCH', '/v1/instance_settings'],
      ['POST', '/v1/instance_settings/validate'],
    ] as const) {
      const second = await call(h, method, path, {
        version: read,
        settings: { auditLog: { retentionDays: 60 } },
      });
      assert.equal(second.status, 409, JSON.stringify(second.body));
      assert.equal(second.body.errors[0].code, 'conflict');
      assert.equal(second.body.errors[0].meta.current_version, read + 1);
    }
    assert.deepEqual(await stored(h), before);
    assert.equal(h.identity.settings.settings.auditLog?.retentionDays, 30);
  });

  it('replace: true stores the document as given; a change of oauthApplications answers that it needs a restart', async () => {
    const current = (await call(h, 'GET', '/v1/instance_settings')).body;
    const document = {
      sessionToken: { claims: { email: '{{user.primary_email_address}}' } },
      oauthApplications: [
        {
          clientId: 'partner-cli',
          name: 'Partner CLI',
          public: true,
          redirectUris: ['http://127.0.0.1:8976/cb'],
        },
      ],
    };
    const res = await call(h, 'PATCH', '/v1/instance_settings', {
      version: current.version,
      replace: true,
      settings: document,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.restart_required, ['oauthApplications']);
    assert.equal(h.identity.settings.settings.social.oauth_google, undefined);
    assert.equal(h.identity.settings.settings.auditLog, undefined);
    assert.deepEqual(h.identity.settings.settings.sessionToken.claims, document.sessionToken.claims);
  });
});

forEachBackend('Backend API: instance settings written back to the settings file', (backend) => {
  it('writes the file atomically in its own layout, still valid, and a failed write changes nothing', async () => {
    const sub = mkdtempSync(join(dir, 'file-'));
    // Mounted as a link (a Kubernetes ConfigMap's, a deployment's current/): the link stays, its target changes.
    const path = join(sub, 'settings.json');
    const target = join(sub, 'real-settings.json');
    const original = {
      $schema: './settings.schema.json',
      apiKeys: { enabled: true },
      sessionToken: { claims: { email: '{{user.primary_email_address}}' } },
    };
    writeFileSync(target, `${JSON.stringify(original, null, 4)}\n`);
    symlinkSync('real-settings.json', path);
    const h = await Harness.start(backend, { config: { settingsFile: path } });
    try {
      const got = await call(h, 'GET', '/v1/instance_settings');
      assert.equal(got.body.settings_file, true);
      const res = await call(h, 'PATCH', '/v1/instance_settings', {
        version: got.body.version,
        settings: { auditLog: { retentionDays: 45 }, apiKeys: null },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const text = readFileSync(path, 'utf8');
      // The file's layout is kept (four spaces, final newline, its $schema link), and it is a valid file
      // holding exactly what the instance now runs with: the next start changes nothing.
      assert.match(text, /^\{\n {4}"\$schema": "\.\/settings\.schema\.json",\n {4}"/);
      assert.ok(text.endsWith('}\n'));
      assert.deepEqual(loadSettingsFile(path), h.identity.settings.settings);
      assert.equal(loadSettingsFile(path).auditLog?.retentionDays, 45);
      assert.equal(loadSettingsFile(path).apiKeys, undefined);
      assert.deepEqual(
        readdirSync(sub).sort(),
        ['real-settings.json', 'settings.json'],
        'no temporary file left',
      );
      assert.ok(lstatSync(path).isSymbolicLink());

      // The directory gone (a read-only or vanished volume): refused, nothing stored, nothing audited.
      const before = await stored(h);
      const events = (await settingsEvents(h)).length;
      rmSync(sub, { recursive: true, force: true });
      const failed = await call(h, 'PATCH', '/v1/instance_settings', {
        settings: { auditLog: { retentionDays: 46 } },
      });
      assert.equal(failed.status, 500, JSON.stringify(failed.body));
      assert.equal(failed.body.errors[0].code, 'internal_clerk_error');
      assert.match(failed.body.errors[0].long_message, /nothing was changed/);
      assert.deepEqual(await stored(h), before);
      assert.equal(h.identity.settings.settings.auditLog?.retentionDays, 45);
      assert.equal((await settingsEvents(h)).length, events);
      assert.equal(existsSync(sub), false);
    } finally {
      await h.close();
    }
  });
});
