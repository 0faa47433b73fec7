import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { Harness } from './support/harness.ts';

/**
 * `instance` of @clerk/backend 2.10.1 (docs/backend-api.md): what the provider runs with, and updates
 * that succeed only when they ask for what already is; any other value is refused, naming the field, and
 * nothing changes.
 */
forEachBackend('Backend API instance through @clerk/backend 2.10.1', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;

  before(async () => {
    h = await Harness.start(backend);
    clerk = await backendApiClient(h);
  });
  after(() => h.close());

  const refused = async (promise: Promise<unknown>, param: string) => {
    await assert.rejects(
      promise,
      (err: {
        status?: number;
        errors?: { code: string; meta?: Record<string, unknown>; longMessage?: string }[];
      }) => {
        assert.equal(err.status, 422, JSON.stringify(err));
        assert.equal(err.errors?.[0]?.code, 'not_supported_by_this_provider');
        assert.equal(err.errors?.[0]?.meta?.paramName, param);
        return true;
      },
    );
  };

  it('get answers the instance as the provider runs it', async () => {
    const instance = await clerk.instance.get();
    assert.equal(instance.id, 'ins_embedded');
    assert.equal(instance.environmentType, h.config.mode);
    assert.deepEqual(instance.allowedOrigins ?? [], h.config.allowedOrigins);
  });

  it('update accepts what already is and refuses any change, naming the field', async () => {
    const before = await h.identity.deps.settings.version;
    await clerk.instance.update({
      testMode: h.config.mode === 'development',
      allowedOrigins: h.config.allowedOrigins,
    });
    await refused(clerk.instance.update({ testMode: h.config.mode !== 'development' }), 'test_mode');
    await refused(
      clerk.instance.update({ allowedOrigins: ['https://elsewhere.example'] }),
      'allowed_origins',
    );
    await refused(clerk.instance.update({ supportEmail: 'help@example.com' }), 'support_email');
    await refused(clerk.instance.update({ urlBasedSessionSyncing: true }), 'url_based_session_syncing');
    // One refused field refuses the call, with the fields it would accept.
    await refused(
      clerk.instance.update({
        testMode: h.config.mode === 'development',
        developmentOrigin: 'http://x.test',
      }),
      'development_origin',
    );
    assert.equal(h.identity.deps.settings.version, before, 'the settings did not move');
    assert.deepEqual((await clerk.instance.get()).allowedOrigins ?? [], h.config.allowedOrigins);
    const malformed = await h.app.inject({
      method: 'PATCH',
      url: '/__clerk_backend/v1/instance',
      headers: { authorization: `Bearer ${h.identity.secretKey}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ test_mode: 'yes' }),
    });
    assert.equal(malformed.statusCode, 422);
    assert.equal(malformed.json().errors[0].code, 'form_param_format_invalid');
  });

  it('updateRestrictions: the lists are always on; the rest is refused', async () => {
    const restrictions = await clerk.instance.updateRestrictions({ allowlist: true, blocklist: true });
    assert.equal(restrictions.allowlist, true);
    assert.equal(restrictions.blocklist, true);
    assert.equal(restrictions.blockEmailSubaddresses, false);
    assert.equal(
      (await clerk.instance.updateRestrictions({ blockDisposableEmailDomains: false }))
        .blockDisposableEmailDomains,
      false,
    );
    await refused(clerk.instance.updateRestrictions({ allowlist: false }), 'allowlist');
    await refused(
      clerk.instance.updateRestrictions({ blockEmailSubaddresses: true }),
      'block_email_subaddresses',
    );
    await refused(
      clerk.instance.updateRestrictions({ ignoreDotsForGmailAddresses: true }),
      'ignore_dots_for_gmail_addresses',
    );
  });

  it('updateOrganizationSettings answers the organisation settings clerk-js is told; a change is refused', async () => {
    const settings = await clerk.instance.updateOrganizationSettings({
      enabled: true,
      adminDeleteEnabled: true,
    });
    assert.equal(settings.enabled, true);
    assert.equal(settings.maxAllowedMemberships, 0);
    assert.equal(settings.adminDeleteEnabled, true);
    assert.equal(settings.domainsEnabled, false);
    assert.equal(settings.creatorRole, 'org:admin');
    const environment = await h.browser().get('/environment');
    assert.equal(
      environment.body.organization_settings.max_allowed_memberships,
      settings.maxAllowedMemberships,
    );
    assert.equal(environment.body.organization_settings.domains.enabled, settings.domainsEnabled);
    await refused(
      clerk.instance.updateOrganizationSettings({ maxAllowedMemberships: 5 }),
      'max_allowed_memberships',
    );
    await refused(clerk.instance.updateOrganizationSettings({ enabled: false }), 'enabled');
    await refused(clerk.instance.updateOrganizationSettings({ domainsEnabled: true }), 'domains_enabled');
    await refused(
      clerk.instance.updateOrganizationSettings({ creatorRoleId: 'role_custom' }),
      'creator_role_id',
    );
    await rejectsWith(
      clerk.instance.updateOrganizationSettings({ maxAllowedMemberships: 1.5 as number }),
      422,
      'form_param_format_invalid',
    );
  });
});
