import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { currentOrganizationSchema } from '@app/contract';
import {
  MODULE_FLAGS,
  defaultMetadataPatch,
  defaultOrganizationMetadata,
  withDefaultMetadata,
} from '../src/organizations/default-metadata.ts';
import { startEmbeddedServer, type EmbeddedServer } from './support/embedded-server.ts';
import {
  backendApi,
  namedUser,
  productApiOn,
  sessionToken,
  storedOrganization,
  teamOrganization,
  type Call,
  type Team,
} from './support/product-api-world.ts';

describe('organisation default public metadata', () => {
  test('names the organisation, switches every module off, French, no subscription, no family', () => {
    assert.deepEqual(defaultOrganizationMetadata('org_1'), {
      organizationId: 'org_1',
      vCisoModuleEnabled: false,
      complianceModuleEnabled: false,
      qompanionModuleEnabled: false,
      hexadiagModuleEnabled: false,
      passportModuleEnabled: false,
      uiLanguage: 'FR',
      hasActiveSubscription: 'NO',
      vcisoChildOrganizations: [],
      parentOrganizationId: null,
    });
  });

  test('covers the five module flags of the spec', () => {
    const defaults = defaultOrganizationMetadata('org_1');
    assert.equal(MODULE_FLAGS.length, 5);
    for (const flag of MODULE_FLAGS) assert.equal(defaults[flag], false);
  });

  test('gives a fresh object each time, so one organisation never shares arrays with another', () => {
    const a = defaultOrganizationMetadata('org_1');
    a.vcisoChildOrganizations.push('org_x');
    assert.deepEqual(defaultOrganizationMetadata('org_1').vcisoChildOrganizations, []);
  });
});

describe('defaultMetadataPatch', () => {
  test('is every default for an organisation without metadata, but the subscription flag', () => {
    // hasActiveSubscription is only ever written by the billing projection (docs/billing.md).
    const { hasActiveSubscription: _derived, ...written } = defaultOrganizationMetadata('org_1');
    assert.deepEqual(defaultMetadataPatch('org_1', null), written);
    assert.deepEqual(defaultMetadataPatch('org_1', {}), written);
  });

  test('is null once the metadata names its organisation (idempotent)', () => {
    assert.equal(defaultMetadataPatch('org_1', { organizationId: 'org_1' }), null);
    assert.equal(defaultMetadataPatch('org_1', defaultOrganizationMetadata('org_1')), null);
  });

  test('leaves out keys already present, so values written before the first read survive', () => {
    const patch = defaultMetadataPatch('org_1', { complianceModuleEnabled: true, uiLanguage: 'EN' });
    assert.ok(patch);
    assert.equal('complianceModuleEnabled' in patch, false);
    assert.equal('uiLanguage' in patch, false);
    assert.equal(patch.organizationId, 'org_1');
    assert.equal(patch.passportModuleEnabled, false);
  });

  test('writes organizationId when the stored one is not a string', () => {
    assert.equal(defaultMetadataPatch('org_1', { organizationId: 42 })?.organizationId, 'org_1');
  });
});

describe('withDefaultMetadata', () => {
  test('puts the stored values over the defaults and keeps unknown keys', () => {
    const shown = withDefaultMetadata('org_1', {
      organizationId: 'org_1',
      hexadiagModuleEnabled: true,
      extra: 1,
    });
    assert.equal(shown.hexadiagModuleEnabled, true);
    assert.equal(shown.passportModuleEnabled, false);
    assert.equal(shown.extra, 1);
  });

  test('restores parentOrganizationId: null, which a metadata merge does not store', () => {
    assert.equal(withDefaultMetadata('org_1', { organizationId: 'org_1' }).parentOrganizationId, null);
  });
});

describe('defaults written on first read, through the real embedded provider', () => {
  let server: EmbeddedServer;
  let call: Call;
  let team: Team;

  before(async () => {
    server = await startEmbeddedServer();
    ({ call } = await productApiOn(server));
    team = {
      admin: await namedUser(server, 'admin', 'Ada', null),
      vciso: await namedUser(server, 'vciso', 'Grace', null),
      member: await namedUser(server, 'member', 'Alan', null),
    };
  });
  after(() => server?.stop());

  // What the first read stores: no null parent (a merge drops it) and no subscription flag, which only the
  // billing projection writes (docs/billing.md); both read as their defaults.
  const {
    parentOrganizationId: _null,
    hasActiveSubscription: _derived,
    ...storedDefaults
  } = defaultOrganizationMetadata('');

  test('concurrent first reads by every member all answer the defaults, which are stored once', async () => {
    const org = await teamOrganization(server, team, 'Concurrent');
    const tokens = await Promise.all(
      [team.admin, team.vciso, team.member, team.admin].map((u) => sessionToken(u, org.id)),
    );
    const answers = await Promise.all(tokens.map((t) => call(t, 'GET', '/api/organizations/current')));
    for (const answer of answers) {
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(answer.body.publicMetadata, defaultOrganizationMetadata(org.id));
      assert.deepEqual(currentOrganizationSchema.parse(answer.body), answer.body);
    }
    assert.deepEqual((await storedOrganization(server, org.id)).publicMetadata, {
      ...storedDefaults,
      organizationId: org.id,
    });
  });

  test("the defaults merge into what is stored, as Clerk merges: another writer's nested values survive", async () => {
    const org = await teamOrganization(server, team, 'Nested');
    await backendApi(server).organizations.updateOrganizationMetadata(org.id, {
      publicMetadata: { billing: { plan: 'gold', seats: { used: 3, max: 10 } }, uiLanguage: 'EN' },
    });
    const res = await call(await sessionToken(team.member, org.id), 'GET', '/api/organizations/current');
    assert.equal(res.status, 200);
    assert.equal(res.body.publicMetadata.uiLanguage, 'EN');
    assert.deepEqual(res.body.publicMetadata.billing, { plan: 'gold', seats: { used: 3, max: 10 } });
    assert.deepEqual((await storedOrganization(server, org.id)).publicMetadata, {
      ...storedDefaults,
      organizationId: org.id,
      uiLanguage: 'EN',
      billing: { plan: 'gold', seats: { used: 3, max: 10 } },
    });
  });

  test('metadata naming another organisation as its own is left alone, and shown as stored', async () => {
    const org = await teamOrganization(server, team, 'Copied');
    // Copied from another organisation by an operator: it names that one, so the defaults are not rewritten.
    await backendApi(server).organizations.updateOrganizationMetadata(org.id, {
      publicMetadata: { organizationId: 'org_elsewhere', complianceModuleEnabled: true },
    });
    const before = await storedOrganization(server, org.id);
    const res = await call(await sessionToken(team.admin, org.id), 'GET', '/api/organizations/current');
    assert.equal(res.status, 200);
    assert.equal(res.body.publicMetadata.complianceModuleEnabled, true);
    assert.equal(res.body.publicMetadata.passportModuleEnabled, false);
    assert.deepEqual(await storedOrganization(server, org.id), before);
  });
});
