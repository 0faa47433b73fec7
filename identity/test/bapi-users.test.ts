import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { backendApiClient } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { signUp } from './support/flows.ts';
import { BAPI, Harness, uniqueEmail } from './support/harness.ts';

forEachBackend('Backend API users: list, count, metadata', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;
  const people: { email: string; userId: string }[] = [];
  before(async () => {
    h = await Harness.start(backend);
    clerk = await backendApiClient(h);
    for (const name of ['grace', 'alan', 'ada']) {
      const email = uniqueEmail(name);
      h.clock.advance(1);
      const { userId } = await signUp(h, h.browser(), email, { firstName: name });
      people.push({ email, userId });
    }
  });
  after(() => h.close());

  it('getUserList filters by email address and counts with the same filter', async () => {
    const { data, totalCount } = await clerk.users.getUserList({ emailAddress: [people[1]!.email] });
    assert.equal(totalCount, 1);
    assert.deepEqual(
      data.map((u) => u.id),
      [people[1]!.userId],
    );
  });

  it('getUserList pages newest first by default and reports the full count', async () => {
    const first = await clerk.users.getUserList({ limit: 2 });
    assert.equal(first.totalCount, 3);
    assert.deepEqual(
      first.data.map((u) => u.id),
      [people[2]!.userId, people[1]!.userId],
    );
    const second = await clerk.users.getUserList({ limit: 2, offset: 2 });
    assert.deepEqual(
      second.data.map((u) => u.id),
      [people[0]!.userId],
    );
    const oldest = await clerk.users.getUserList({ orderBy: '+created_at', limit: 1 });
    assert.equal(oldest.data[0]!.id, people[0]!.userId);
  });

  it('getUserList finds users by a free-text query and by id', async () => {
    const byQuery = await clerk.users.getUserList({ query: 'alan' });
    assert.deepEqual(
      byQuery.data.map((u) => u.id),
      [people[1]!.userId],
    );
    const byId = await clerk.users.getUserList({ userId: [people[0]!.userId, people[2]!.userId] });
    assert.equal(byId.totalCount, 2);
  });

  it('updateUserMetadata deep-merges and a null deletes a key', async () => {
    const { userId } = people[0]!;
    await clerk.users.updateUserMetadata(userId, {
      publicMetadata: { userId: 'ext-1', prefs: { theme: 'dark', lang: 'fr' } },
      privateMetadata: { note: 'vip' },
    });
    const merged = await clerk.users.updateUserMetadata(userId, {
      publicMetadata: { prefs: { lang: null, density: 'compact' } },
    });
    assert.deepEqual(merged.publicMetadata, {
      userId: 'ext-1',
      prefs: { theme: 'dark', density: 'compact' },
    });
    assert.deepEqual(merged.privateMetadata, { note: 'vip' });
    const again = await clerk.users.getUser(userId);
    assert.deepEqual(again.publicMetadata, merged.publicMetadata);
  });

  it('updateUserMetadata on an unknown user is 404 and a non-object is 422', async () => {
    await assert.rejects(
      clerk.users.updateUserMetadata('user_missing', { publicMetadata: { a: 1 } }),
      (err: { status?: number; errors?: { code: string }[] }) => {
        assert.equal(err.status, 404);
        assert.equal(err.errors?.[0]?.code, 'resource_not_found');
        return true;
      },
    );
    const res = await h.app.inject({
      method: 'PATCH',
      url: `${BAPI}/v1/users/${people[0]!.userId}/metadata`,
      headers: { authorization: `Bearer ${h.identity.secretKey}`, 'content-type': 'application/json' },
      payload: { public_metadata: ['not', 'an', 'object'] },
    });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().errors[0].code, 'form_param_format_invalid');
  });
});
