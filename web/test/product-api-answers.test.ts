import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defaultOrganizationMetadata } from '@app/contract';
import { fetchCurrentOrganization } from '../src/features/organizations/api/get-current-organization.ts';
import { patchOrganizationSettings } from '../src/features/settings/api/patch-organization-settings.ts';
import { attachChildOrganization } from '../src/features/vciso/api/attach-child-organization.ts';
import { detachChildOrganization } from '../src/features/vciso/api/detach-child-organization.ts';
import { fetchParentOrganization } from '../src/features/vciso/api/get-parent-organization.ts';
import { listChildOrganizations } from '../src/features/vciso/api/list-child-organizations.ts';
import type { HttpClient } from '../src/lib/http/client.ts';
import { HttpError } from '../src/lib/http/http-error.ts';
import { fetchMe } from '../src/lib/product-api.ts';

/** A request client whose every JSON answer is `body` (the network and interceptors are tested elsewhere). */
const answering = (body: unknown): HttpClient => ({
  request: async () => new Response(JSON.stringify(body)),
  json: async <T>() => body as T,
});

const unexpectedAnswer = (error: unknown) => error instanceof HttpError && error.status === null;

const me = {
  userId: 'user_1',
  sessionId: 'sess_1',
  orgId: 'org_a',
  orgSlug: 'acme',
  orgRole: 'org:admin',
  orgPermissions: ['org:modules:manage'],
  user: { id: 'user_1', firstName: 'Ada', lastName: null, primaryEmailAddress: 'ada@example.com' },
  actor: null,
};
const organization = {
  id: 'org_a',
  slug: 'acme',
  name: 'Acme',
  publicMetadata: defaultOrganizationMetadata('org_a'),
};
const child = {
  id: 'org_c',
  name: 'Client',
  slug: 'client',
  modules: { vCisoModuleEnabled: true },
  hasActiveSubscription: 'TRIAL',
};

describe('the product API answers, parsed with the contract', () => {
  test('well-formed answers come back typed, reduced to what the contract names', async () => {
    assert.deepEqual(await fetchMe(answering({ ...me, extra: 'dropped' })), me);
    assert.deepEqual(await fetchCurrentOrganization(answering(organization)), organization);
    assert.deepEqual(
      await patchOrganizationSettings(answering(organization), { uiLanguage: 'FR' }),
      organization,
    );
    const [listed] = await listChildOrganizations(answering({ data: [child] }));
    assert.equal(listed?.modules.vCisoModuleEnabled, true);
    assert.equal(listed?.modules.passportModuleEnabled, false);
    assert.equal(listed?.hasActiveSubscription, 'TRIAL');
    assert.equal((await attachChildOrganization(answering(child), 'org_c')).id, 'org_c');
    await detachChildOrganization(answering({ id: 'org_c', detached: true }), 'org_c');
    assert.equal(await fetchParentOrganization(answering({ parent: null })), null);
  });

  test('answers outside the contract are refused as unexpected, never half-read', async () => {
    await assert.rejects(fetchMe(answering({ ...me, orgPermissions: 'all' })), unexpectedAnswer);
    await assert.rejects(
      fetchMe(answering({ userId: 'user_1', sessionId: 's', user: { id: 'user_1' } })),
      unexpectedAnswer,
    );
    await assert.rejects(
      fetchCurrentOrganization(answering({ ...organization, publicMetadata: {} })),
      unexpectedAnswer,
    );
    await assert.rejects(
      patchOrganizationSettings(answering({ errors: [] }), { uiLanguage: 'EN' }),
      unexpectedAnswer,
    );
    await assert.rejects(
      listChildOrganizations(answering({ data: [child, { name: 'no id' }] })),
      unexpectedAnswer,
    );
    await assert.rejects(listChildOrganizations(answering([child])), unexpectedAnswer);
    await assert.rejects(detachChildOrganization(answering({ id: 'org_c' }), 'org_c'), unexpectedAnswer);
    await assert.rejects(fetchParentOrganization(answering({})), unexpectedAnswer);
    await assert.rejects(
      fetchParentOrganization(answering({ parent: { id: 'org_p', name: 'P', slug: null } })),
      unexpectedAnswer,
    );
  });
});
