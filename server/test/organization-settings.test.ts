import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MODULE_FLAGS, MODULE_SETTING_FLAGS, currentOrganizationSchema } from '@app/contract';
import { defaultOrganizationMetadata } from '../src/organizations/default-metadata.ts';
import {
  startEmbeddedServer,
  type EmbeddedServer,
  type User,
  withoutTraceId,
} from './support/embedded-server.ts';
import {
  backendApi,
  namedUser,
  productApiOn,
  sessionToken,
  storedOrganization,
  teamOrganization,
  type Call,
  type Organization,
  type Team,
} from './support/product-api-world.ts';

const PATH = '/api/organizations/current/settings';

/** The defaults as the provider stores them: Clerk's merge keeps no null, so no parentOrganizationId. */
/** What the first read stores: no null parent, and no subscription flag (only billing's projection writes it). */
const storedDefaults = (organizationId: string) => {
  const {
    parentOrganizationId: _null,
    hasActiveSubscription: _derived,
    ...stored
  } = defaultOrganizationMetadata(organizationId);
  return stored;
};

/** PATCH /api/organizations/current/settings against the real embedded provider, with real tokens. */
describe('PATCH /api/organizations/current/settings', () => {
  let server: EmbeddedServer;
  let call: Call;
  let team: Team;

  before(async () => {
    server = await startEmbeddedServer();
    ({ call } = await productApiOn(server));
    team = {
      admin: await namedUser(server, 'admin', 'Ada', 'Lovelace'),
      vciso: await namedUser(server, 'vciso', 'Grace', 'Hopper'),
      member: await namedUser(server, 'member', 'Alan', 'Turing'),
    };
  });
  after(() => server?.stop());

  const patch = async (user: User | null, organization: Organization | null, body: unknown, raw = false) =>
    call(user ? await sessionToken(user, organization?.id ?? null) : null, 'PATCH', PATH, body, { raw });
  const fresh = (label = 'Settings') => teamOrganization(server, team, label);

  test('maps every module key to exactly one spec §3 flag', () => {
    assert.deepEqual(Object.values(MODULE_SETTING_FLAGS).sort(), [...MODULE_FLAGS].sort());
  });

  test('an admin switches modules and the language; answers { id, slug, name, publicMetadata }', async () => {
    const org = await fresh();
    const res = await patch(team.admin, org, {
      modules: { compliance: true, passport: true },
      uiLanguage: 'EN',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, {
      id: org.id,
      slug: org.slug,
      name: org.name,
      publicMetadata: {
        ...defaultOrganizationMetadata(org.id),
        complianceModuleEnabled: true,
        passportModuleEnabled: true,
        uiLanguage: 'EN',
      },
    });
    assert.deepEqual(currentOrganizationSchema.parse(res.body), res.body);
    const stored = (await storedOrganization(server, org.id)).publicMetadata;
    assert.equal(stored.complianceModuleEnabled, true);
    assert.equal(stored.uiLanguage, 'EN');
  });

  test('a virtual security officer may change them too', async () => {
    const org = await fresh();
    const res = await patch(team.vciso, org, { modules: { vCiso: true } });
    assert.equal(res.status, 200);
    assert.equal(res.body.publicMetadata.vCisoModuleEnabled, true);
    assert.equal((await storedOrganization(server, org.id)).publicMetadata.vCisoModuleEnabled, true);
  });

  test('403 forbidden for a member, and nothing is written', async () => {
    const org = await fresh();
    const before = await storedOrganization(server, org.id);
    const res = await patch(team.member, org, { modules: { compliance: true } });
    assert.equal(res.status, 403);
    assert.deepEqual(withoutTraceId(res.body), {
      errors: [{ code: 'forbidden', message: 'Your role in the active organisation does not allow this.' }],
    });
    assert.deepEqual(await storedOrganization(server, org.id), before);
  });

  test('a member demoted from admin loses the right with their next token', async () => {
    const org = await fresh();
    const demoted = await namedUser(server, 'demoted', 'Dee', null);
    await backendApi(server).organizations.createOrganizationMembership({
      organizationId: org.id,
      userId: demoted.userId,
      role: 'org:admin',
    });
    assert.equal((await patch(demoted, org, { uiLanguage: 'EN' })).status, 200);
    await backendApi(server).organizations.updateOrganizationMembership({
      organizationId: org.id,
      userId: demoted.userId,
      role: 'org:member',
    });
    assert.equal((await patch(demoted, org, { uiLanguage: 'FR' })).status, 403);
    assert.equal((await storedOrganization(server, org.id)).publicMetadata.uiLanguage, 'EN');
  });

  test('401 unauthenticated without a session token', async () => {
    const res = await patch(null, null, { uiLanguage: 'EN' });
    assert.equal(res.status, 401);
    assert.equal(res.body.errors[0].code, 'unauthenticated');
  });

  test('404 no_active_organization without an active organisation', async () => {
    const res = await patch(team.admin, null, { uiLanguage: 'EN' });
    assert.equal(res.status, 404);
    assert.equal(res.body.errors[0].code, 'no_active_organization');
  });

  test('404 organization_not_found when the organisation no longer exists', async () => {
    const org = await fresh('Doomed');
    const stillNamingIt = await sessionToken(team.admin, org.id);
    await backendApi(server).organizations.deleteOrganization(org.id);
    const res = await call(stillNamingIt, 'PATCH', PATH, { uiLanguage: 'EN' });
    assert.equal(res.status, 404);
    assert.equal(res.body.errors[0].code, 'organization_not_found');
  });

  const invalidBodies: [string, unknown][] = [
    ['an unknown top-level key', { uiLanguage: 'EN', organizationId: 'org_b' }],
    ['an unknown module', { modules: { billing: true } }],
    ['a module that is not a boolean', { modules: { compliance: 'true' } }],
    ['modules that are not an object', { modules: ['compliance'] }],
    ['modules that are null', { modules: null }],
    ['an unsupported language', { uiLanguage: 'DE' }],
    ['a language that is not a string', { uiLanguage: 1 }],
    ['a lower-case language', { uiLanguage: 'en' }],
    ['a prototype key', JSON.parse('{"__proto__": {"uiLanguage": "EN"}, "modules": {}}')],
    ['a body that is not an object', ['EN']],
    ['a null body', null],
    ['a string body', 'EN'],
  ];
  for (const [what, body] of invalidBodies) {
    test(`422 invalid_request for ${what}, and nothing is written`, async () => {
      const org = await fresh('Invalid');
      const before = await storedOrganization(server, org.id);
      const res = await patch(team.admin, org, body);
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.equal(res.body.errors.length, 1);
      assert.equal(res.body.errors[0].code, 'invalid_request');
      assert.equal(typeof res.body.errors[0].message, 'string');
      assert.deepEqual(await storedOrganization(server, org.id), before);
    });
  }

  test('422 invalid_request for a body that is not JSON', async () => {
    const org = await fresh();
    const res = await patch(team.admin, org, '{"uiLanguage":', true);
    assert.equal(res.status, 422);
    assert.equal(res.body.errors[0].code, 'invalid_request');
  });

  test('the refusal names what is wrong, not the value sent', async () => {
    const org = await fresh();
    const res = await patch(team.admin, org, { modules: { compliance: 'secret-looking-value' } });
    assert.equal(res.status, 422);
    assert.match(res.body.errors[0].message, /modules\.compliance/);
    assert.equal(res.body.errors[0].message.includes('secret-looking-value'), false);
  });

  test('a member still gets 403, not 422, for an invalid body', async () => {
    assert.equal((await patch(team.member, await fresh(), { nonsense: true })).status, 403);
  });

  test('only the given keys change; everything else in the metadata, nested values too, is kept', async () => {
    const org = await fresh();
    await backendApi(server).organizations.updateOrganizationMetadata(org.id, {
      publicMetadata: {
        ...defaultOrganizationMetadata(org.id),
        vCisoModuleEnabled: true,
        hasActiveSubscription: 'TRIAL',
        vcisoChildOrganizations: ['org_c'],
        custom: { kept: true, nested: { deep: 1 } },
      },
    });
    const res = await patch(team.admin, org, { modules: { compliance: true, vCiso: false } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual((await storedOrganization(server, org.id)).publicMetadata, {
      ...storedDefaults(org.id),
      vCisoModuleEnabled: false,
      complianceModuleEnabled: true,
      hasActiveSubscription: 'TRIAL',
      vcisoChildOrganizations: ['org_c'],
      custom: { kept: true, nested: { deep: 1 } },
    });
    assert.deepEqual(res.body.publicMetadata.custom, { kept: true, nested: { deep: 1 } });
  });

  test('writes the defaults first on an organisation never read before, then only the given keys', async () => {
    const org = await fresh();
    assert.deepEqual((await storedOrganization(server, org.id)).publicMetadata, {});
    const res = await patch(team.admin, org, { uiLanguage: 'EN' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.publicMetadata, { ...defaultOrganizationMetadata(org.id), uiLanguage: 'EN' });
    assert.deepEqual((await storedOrganization(server, org.id)).publicMetadata, {
      ...storedDefaults(org.id),
      uiLanguage: 'EN',
    });
  });

  test('an empty body changes nothing and answers the organisation', async () => {
    const org = await fresh();
    await patch(team.admin, org, { modules: { hexadiag: true } });
    const before = await storedOrganization(server, org.id);
    const res = await patch(team.admin, org, {});
    assert.equal(res.status, 200);
    assert.equal(res.body.publicMetadata.hexadiagModuleEnabled, true);
    assert.deepEqual(await storedOrganization(server, org.id), before);
  });

  test('the same change sent twice (a replay) leaves the same metadata', async () => {
    const org = await fresh();
    const body = { modules: { qompanion: true }, uiLanguage: 'EN' };
    const first = await patch(team.admin, org, body);
    const stored = (await storedOrganization(server, org.id)).publicMetadata;
    const second = await patch(team.admin, org, body);
    assert.deepEqual(second.body, first.body);
    assert.deepEqual((await storedOrganization(server, org.id)).publicMetadata, stored);
  });

  test("only ever changes the token's organisation, whatever the request says", async () => {
    const a = await fresh('A');
    const b = await fresh('B');
    await patch(team.admin, a, {});
    const res = await call(await sessionToken(team.admin, b.id), 'PATCH', `${PATH}?organizationId=${a.id}`, {
      modules: { passport: true },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.id, b.id);
    assert.equal((await storedOrganization(server, a.id)).publicMetadata.passportModuleEnabled, false);
    assert.equal((await storedOrganization(server, b.id)).publicMetadata.passportModuleEnabled, true);
  });
});
