import { after, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AuthContext } from '../src/auth/authenticate.ts';
import type { ApiDeps } from '../src/api/deps.ts';
import { InMemoryBackend, fakeApiDeps } from './support/in-memory-backend.ts';
import { MODULE_SETTING_FLAGS } from '../src/api/organizations/settings.ts';
import { registerProductApi } from '../src/api/product-api.ts';
import { MODULE_FLAGS, defaultOrganizationMetadata } from '../src/organizations/default-metadata.ts';

const context = (orgId: string | null, orgRole: string | null): AuthContext => ({
  userId: 'user_1',
  sessionId: 'sess_1',
  orgId,
  orgSlug: orgId ? `${orgId}-slug` : null,
  orgRole,
  orgPermissions: [],
});

interface Answer {
  status: number;
  body: Record<string, unknown> & { errors?: { code: string; message: string }[] };
}

describe('PATCH /api/organizations/current/settings', () => {
  let backend: InMemoryBackend;
  let app: FastifyInstance;
  const tokens = new Map<string, AuthContext>();
  const deps: ApiDeps = fakeApiDeps(() => backend, tokens);

  const patch = async (token: string | undefined, payload: unknown, raw = false): Promise<Answer> => {
    const res = await app.inject({
      method: 'PATCH',
      url: '/api/organizations/current/settings',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      payload: raw ? (payload as string) : JSON.stringify(payload),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const metadataOf = (orgId: string) => backend.stored(orgId).publicMetadata ?? {};

  beforeEach(async () => {
    await app?.close();
    backend = new InMemoryBackend();
    backend.add({ id: 'org_a', name: 'Acme Security', slug: 'acme', publicMetadata: {} });
    backend.add({ id: 'org_b', name: 'Beta Audits', slug: 'beta', publicMetadata: null });
    tokens.clear();
    tokens.set('none', context(null, null));
    tokens.set('admin-a', context('org_a', 'org:admin'));
    tokens.set('vciso-a', context('org_a', 'org:vciso'));
    tokens.set('member-a', context('org_a', 'org:member'));
    tokens.set('admin-b', context('org_b', 'org:admin'));
    tokens.set('admin-gone', context('org_deleted', 'org:admin'));
    app = Fastify({ logger: false });
    await app.register(async (api) => registerProductApi(api, deps), { prefix: '/api' });
  });

  after(async () => {
    await app?.close();
  });

  test('maps every module key to exactly one spec §3 flag', () => {
    assert.deepEqual(Object.values(MODULE_SETTING_FLAGS).sort(), [...MODULE_FLAGS].sort());
  });

  test('an admin switches modules and the language; answers { id, slug, name, publicMetadata }', async () => {
    const res = await patch('admin-a', { modules: { compliance: true, passport: true }, uiLanguage: 'EN' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      id: 'org_a',
      slug: 'acme',
      name: 'Acme Security',
      publicMetadata: {
        ...defaultOrganizationMetadata('org_a'),
        complianceModuleEnabled: true,
        passportModuleEnabled: true,
        uiLanguage: 'EN',
      },
    });
    assert.equal(metadataOf('org_a').complianceModuleEnabled, true);
    assert.equal(metadataOf('org_a').uiLanguage, 'EN');
  });

  test('a virtual security officer may change them too', async () => {
    const res = await patch('vciso-a', { modules: { vCiso: true } });
    assert.equal(res.status, 200);
    assert.equal((res.body.publicMetadata as Record<string, unknown>).vCisoModuleEnabled, true);
  });

  test('403 forbidden for a member, and nothing is written', async () => {
    const res = await patch('member-a', { modules: { compliance: true } });
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, {
      errors: [{ code: 'forbidden', message: 'Your role in the active organisation does not allow this.' }],
    });
    assert.equal(backend.metadataWrites.length, 0);
  });

  test('401 unauthenticated without a session token', async () => {
    const res = await patch(undefined, { uiLanguage: 'EN' });
    assert.equal(res.status, 401);
    assert.equal(res.body.errors?.[0]?.code, 'unauthenticated');
  });

  test('404 no_active_organization without an active organisation', async () => {
    const res = await patch('none', { uiLanguage: 'EN' });
    assert.equal(res.status, 404);
    assert.equal(res.body.errors?.[0]?.code, 'no_active_organization');
    assert.equal(backend.metadataWrites.length, 0);
  });

  test('404 organization_not_found when the organisation no longer exists', async () => {
    const res = await patch('admin-gone', { uiLanguage: 'EN' });
    assert.equal(res.status, 404);
    assert.equal(res.body.errors?.[0]?.code, 'organization_not_found');
  });

  const invalidBodies: [string, unknown][] = [
    ['an unknown top-level key', { uiLanguage: 'EN', organizationId: 'org_b' }],
    ['an unknown module', { modules: { billing: true } }],
    ['a module that is not a boolean', { modules: { compliance: 'true' } }],
    ['modules that are not an object', { modules: ['compliance'] }],
    ['an unsupported language', { uiLanguage: 'DE' }],
    ['a language that is not a string', { uiLanguage: 1 }],
    ['a body that is not an object', ['EN']],
    ['a null body', null],
  ];
  for (const [what, body] of invalidBodies) {
    test(`422 invalid_request for ${what}, and nothing is written`, async () => {
      const res = await patch('admin-a', body);
      assert.equal(res.status, 422);
      assert.equal(res.body.errors?.length, 1);
      assert.equal(res.body.errors[0]!.code, 'invalid_request');
      assert.equal(typeof res.body.errors[0]!.message, 'string');
      assert.equal(backend.metadataWrites.length, 0);
    });
  }

  test('422 invalid_request for a body that is not JSON', async () => {
    const res = await patch('admin-a', '{"uiLanguage":', true);
    assert.equal(res.status, 422);
    assert.equal(res.body.errors?.[0]?.code, 'invalid_request');
  });

  test('a member still gets 403, not 422, for an invalid body', async () => {
    assert.equal((await patch('member-a', { nonsense: true })).status, 403);
  });

  test('only the given keys change; everything else in the metadata is kept', async () => {
    backend.add({
      id: 'org_a',
      name: 'Acme Security',
      slug: 'acme',
      publicMetadata: {
        ...defaultOrganizationMetadata('org_a'),
        vCisoModuleEnabled: true,
        hasActiveSubscription: 'TRIAL',
        vcisoChildOrganizations: ['org_c'],
        custom: 'kept',
      },
    });
    const res = await patch('admin-a', { modules: { compliance: true, vCiso: false } });
    assert.equal(res.status, 200);
    assert.deepEqual(backend.metadataWrites, [
      {
        organizationId: 'org_a',
        publicMetadata: { complianceModuleEnabled: true, vCisoModuleEnabled: false },
      },
    ]);
    assert.deepEqual(metadataOf('org_a'), {
      ...defaultOrganizationMetadata('org_a'),
      vCisoModuleEnabled: false,
      complianceModuleEnabled: true,
      hasActiveSubscription: 'TRIAL',
      vcisoChildOrganizations: ['org_c'],
      custom: 'kept',
    });
  });

  test('writes the defaults first on an organisation never read before, then only the given keys', async () => {
    const res = await patch('admin-b', { uiLanguage: 'EN' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.publicMetadata, { ...defaultOrganizationMetadata('org_b'), uiLanguage: 'EN' });
    assert.deepEqual(backend.metadataWrites[1], {
      organizationId: 'org_b',
      publicMetadata: { uiLanguage: 'EN' },
    });
  });

  test('an empty body changes nothing and answers the organisation', async () => {
    await patch('admin-a', { modules: { hexadiag: true } });
    const writes = backend.metadataWrites.length;
    const res = await patch('admin-a', {});
    assert.equal(res.status, 200);
    assert.equal((res.body.publicMetadata as Record<string, unknown>).hexadiagModuleEnabled, true);
    assert.equal(backend.metadataWrites.length, writes);
  });

  test("only ever changes the token's organisation, whatever the request says", async () => {
    const res = await app.inject({
      method: 'PATCH',
      url: '/api/organizations/current/settings?organizationId=org_a',
      headers: { 'content-type': 'application/json', authorization: 'Bearer admin-b' },
      payload: JSON.stringify({ modules: { passport: true } }),
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().id, 'org_b');
    assert.equal(metadataOf('org_a').passportModuleEnabled, undefined);
    assert.equal(metadataOf('org_b').passportModuleEnabled, true);
  });
});
