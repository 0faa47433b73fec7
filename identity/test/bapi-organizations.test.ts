import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { backendApiClient, rejectsWith } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { signUp } from './support/flows.ts';
import { Harness, uniqueEmail } from './support/harness.ts';
import { activate, GIF, newMember, PNG, tokenClaims } from './support/organizations.ts';

forEachBackend('organisations through @clerk/backend 2.10.1', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;
  const users: { userId: string; email: string }[] = [];
  before(async () => {
    h = await Harness.start(backend);
    clerk = await backendApiClient(h);
    for (const name of ['owner', 'second', 'third']) {
      const email = uniqueEmail(`bapi-${name}`);
      const { userId } = await signUp(h, h.browser(), email, { firstName: name });
      users.push({ userId, email });
    }
  });
  after(() => h.close());

  it('createOrganization makes created_by its admin and keeps both metadata objects', async () => {
    const org = await clerk.organizations.createOrganization({
      name: 'Backend Made',
      createdBy: users[0]!.userId,
      publicMetadata: { modules: ['risk'], camelKey: { nested: true } },
      privateMetadata: { billing: 'acct_1' },
      maxAllowedMemberships: 25,
    });
    assert.match(org.id, /^org_/);
    assert.equal(org.name, 'Backend Made');
    assert.equal(org.slug, 'backend-made');
    assert.equal(org.createdBy, users[0]!.userId);
    assert.equal(org.maxAllowedMemberships, 25);
    assert.equal(org.adminDeleteEnabled, true);
    assert.equal(org.membersCount, 1);
    assert.deepEqual(org.publicMetadata, { modules: ['risk'], camelKey: { nested: true } });
    assert.deepEqual(org.privateMetadata, { billing: 'acct_1' });

    const { data, totalCount } = await clerk.organizations.getOrganizationMembershipList({
      organizationId: org.id,
    });
    assert.equal(totalCount, 1);
    assert.equal(data[0]!.role, 'org:admin');
    assert.equal(data[0]!.publicUserData!.userId, users[0]!.userId);
    assert.equal(data[0]!.publicUserData!.identifier, users[0]!.email);
    assert.equal(data[0]!.organization.id, org.id);

    // Without created_by there is no member at all; with an unknown one, nothing is created.
    const orphan = await clerk.organizations.createOrganization({ name: 'Backend Made', slug: 'orphan-co' });
    assert.equal(orphan.slug, 'orphan-co');
    assert.equal(orphan.membersCount, 0);
    await rejectsWith(
      clerk.organizations.createOrganization({ name: 'Ghost', createdBy: 'user_ghost' }),
      422,
      'form_param_value_invalid',
      'created_by',
    );
    await rejectsWith(
      clerk.organizations.createOrganization({ name: 'Dup', slug: 'orphan-co' }),
      422,
      'form_identifier_exists',
      'slug',
    );
    await rejectsWith(
      clerk.organizations.createOrganization({ name: 'Bad', slug: 'Bad Slug' }),
      422,
      'form_param_format_invalid',
      'slug',
    );
    await rejectsWith(clerk.organizations.createOrganization({ name: ' ' }), 422, 'form_param_nil', 'name');
  });

  it('getOrganization takes an id or a slug; include_members_count adds the counts', async () => {
    const created = await clerk.organizations.createOrganization({
      name: 'Lookup Co',
      createdBy: users[0]!.userId,
    });
    const bySlug = await clerk.organizations.getOrganization({ slug: 'lookup-co' });
    assert.equal(bySlug.id, created.id);
    assert.equal(bySlug.membersCount, undefined, 'counts only when asked for');
    const byId = await clerk.organizations.getOrganization({
      organizationId: created.id,
      includeMembersCount: true,
    });
    assert.equal(byId.slug, 'lookup-co');
    assert.equal(byId.membersCount, 1);
    await rejectsWith(
      clerk.organizations.getOrganization({ slug: 'no-such-org' }),
      404,
      'resource_not_found',
    );
    await rejectsWith(
      clerk.organizations.getOrganization({ organizationId: 'org_missing' }),
      404,
      'resource_not_found',
    );
  });

  it('getOrganizationList pages, searches and orders', async () => {
    for (const name of ['List Alpha', 'List Beta', 'List Gamma']) {
      h.clock.advance(1);
      await clerk.organizations.createOrganization({ name, createdBy: users[1]!.userId });
    }
    const found = await clerk.organizations.getOrganizationList({ query: 'list ', orderBy: 'name' });
    assert.equal(found.totalCount, 3);
    assert.deepEqual(
      found.data.map((o) => o.name),
      ['List Alpha', 'List Beta', 'List Gamma'],
    );
    const newest = await clerk.organizations.getOrganizationList({ query: 'list', limit: 1 });
    assert.equal(newest.totalCount, 3);
    assert.deepEqual(
      newest.data.map((o) => o.name),
      ['List Gamma'],
    );
    const second = await clerk.organizations.getOrganizationList({ query: 'list', limit: 1, offset: 1 });
    assert.deepEqual(
      second.data.map((o) => o.name),
      ['List Beta'],
    );
    const counted = await clerk.organizations.getOrganizationList({
      query: 'list-alpha',
      includeMembersCount: true,
    });
    assert.equal(counted.data[0]!.membersCount, 1);
    const all = await clerk.organizations.getOrganizationList();
    assert.ok(all.totalCount >= 3);
    await rejectsWith(
      clerk.organizations.getOrganizationList({ orderBy: 'bogus' as never }),
      422,
      'form_param_value_invalid',
      'order_by',
    );
  });

  it('updateOrganization replaces metadata; updateOrganizationMetadata deep-merges and null deletes', async () => {
    const org = await clerk.organizations.createOrganization({
      name: 'Meta Co',
      publicMetadata: { keep: 1, drop: 2 },
      privateMetadata: { secret: 'x' },
    });
    const updated = await clerk.organizations.updateOrganization(org.id, {
      name: 'Meta Corp',
      slug: 'meta-corp',
      publicMetadata: { only: true },
      maxAllowedMemberships: 3,
    });
    assert.equal(updated.name, 'Meta Corp');
    assert.equal(updated.slug, 'meta-corp');
    assert.equal(updated.maxAllowedMemberships, 3);
    assert.deepEqual(updated.publicMetadata, { only: true });
    assert.deepEqual(updated.privateMetadata, { secret: 'x' }, 'metadata not given is kept');

    await clerk.organizations.updateOrganizationMetadata(org.id, {
      publicMetadata: {
        modules: { risk: { enabled: true, level: 2 }, audit: { enabled: false } },
        language: 'en',
      },
      privateMetadata: { stripe: { customer: 'cus_1' } },
    });
    const merged = await clerk.organizations.updateOrganizationMetadata(org.id, {
      publicMetadata: { modules: { risk: { level: null }, audit: null }, language: 'fr' },
    });
    assert.deepEqual(merged.publicMetadata, {
      only: true,
      modules: { risk: { enabled: true } },
      language: 'fr',
    });
    assert.deepEqual(merged.privateMetadata, { secret: 'x', stripe: { customer: 'cus_1' } });
    const bySlug = await clerk.organizations.getOrganization({ slug: 'meta-corp' });
    assert.deepEqual(bySlug.publicMetadata, merged.publicMetadata);

    await rejectsWith(
      clerk.organizations.updateOrganizationMetadata('org_missing', { publicMetadata: { a: 1 } }),
      404,
      'resource_not_found',
    );
    await rejectsWith(
      clerk.organizations.updateOrganizationMetadata(org.id, { publicMetadata: [1, 2] as never }),
      422,
      'form_param_format_invalid',
      'public_metadata',
    );
  });

  it('memberships: create, list with filters, update role, merge metadata, delete; the last-admin rule holds', async () => {
    const [owner, second, third] = users as [(typeof users)[0], (typeof users)[0], (typeof users)[0]];
    const org = await clerk.organizations.createOrganization({ name: 'Members Co', createdBy: owner.userId });
    h.clock.advance(1);
    const added = await clerk.organizations.createOrganizationMembership({
      organizationId: org.id,
      userId: second.userId,
      role: 'org:member',
    });
    assert.equal(added.role, 'org:member');
    assert.deepEqual(added.permissions, [
      'org:sys_memberships:read',
      'org:sys_billing:read',
      'org:modules:read',
      'org:clients:read',
    ]);
    assert.equal(added.organization.id, org.id);
    assert.equal(added.publicUserData!.userId, second.userId);
    h.clock.advance(1);
    await clerk.organizations.createOrganizationMembership({
      organizationId: org.slug,
      userId: third.userId,
      role: 'org:vciso',
    });
    await rejectsWith(
      clerk.organizations.createOrganizationMembership({
        organizationId: org.id,
        userId: third.userId,
        role: 'org:member',
      }),
      422,
      'already_a_member_in_organization',
    );
    await rejectsWith(
      clerk.organizations.createOrganizationMembership({
        organizationId: org.id,
        userId: 'user_x',
        role: 'nope',
      }),
      422,
      'form_param_value_invalid',
      'role',
    );

    const list = await clerk.organizations.getOrganizationMembershipList({ organizationId: org.id });
    assert.equal(list.totalCount, 3);
    assert.deepEqual(
      list.data.map((m) => m.publicUserData!.userId),
      [owner.userId, second.userId, third.userId],
    );
    const newest = await clerk.organizations.getOrganizationMembershipList({
      organizationId: org.id,
      orderBy: '-created_at',
      limit: 1,
    });
    assert.equal(newest.data[0]!.publicUserData!.userId, third.userId);
    const vcisos = await clerk.organizations.getOrganizationMembershipList({
      organizationId: org.id,
      role: ['org:vciso', 'org:admin'],
    });
    assert.equal(vcisos.totalCount, 2);
    const byEmail = await clerk.organizations.getOrganizationMembershipList({
      organizationId: org.id,
      emailAddress: [second.email],
    });
    assert.deepEqual(
      byEmail.data.map((m) => m.publicUserData!.userId),
      [second.userId],
    );
    const byQuery = await clerk.organizations.getOrganizationMembershipList({
      organizationId: org.id,
      query: 'thir',
    });
    assert.deepEqual(
      byQuery.data.map((m) => m.publicUserData!.userId),
      [third.userId],
    );
    assert.deepEqual(list.data[0]!.privateMetadata, {});

    const promoted = await clerk.organizations.updateOrganizationMembership({
      organizationId: org.id,
      userId: second.userId,
      role: 'org:admin',
    });
    assert.equal(promoted.role, 'org:admin');
    const withMeta = await clerk.organizations.updateOrganizationMembershipMetadata({
      organizationId: org.id,
      userId: second.userId,
      publicMetadata: { team: { name: 'red', lead: true } },
      privateMetadata: { note: 'x' },
    });
    assert.deepEqual(withMeta.publicMetadata, { team: { name: 'red', lead: true } });
    const mergedMeta = await clerk.organizations.updateOrganizationMembershipMetadata({
      organizationId: org.id,
      userId: second.userId,
      publicMetadata: { team: { lead: null } },
    });
    assert.deepEqual(mergedMeta.publicMetadata, { team: { name: 'red' } });
    assert.deepEqual(mergedMeta.privateMetadata, { note: 'x' });

    // Two admins and a vCISO (admin rights too): the owner and the vCISO may go; then the last member
    // with admin rights may neither be demoted nor removed.
    const removed = await clerk.organizations.deleteOrganizationMembership({
      organizationId: org.id,
      userId: owner.userId,
    });
    assert.equal(removed.publicUserData!.userId, owner.userId);
    await clerk.organizations.deleteOrganizationMembership({ organizationId: org.id, userId: third.userId });
    await rejectsWith(
      clerk.organizations.updateOrganizationMembership({
        organizationId: org.id,
        userId: second.userId,
        role: 'org:member',
      }),
      403,
      'organization_minimum_permissions_needed',
    );
    await rejectsWith(
      clerk.organizations.deleteOrganizationMembership({ organizationId: org.id, userId: second.userId }),
      403,
      'organization_minimum_permissions_needed',
    );
    await rejectsWith(
      clerk.organizations.deleteOrganizationMembership({ organizationId: org.id, userId: owner.userId }),
      404,
      'resource_not_found',
    );
    await rejectsWith(
      clerk.organizations.getOrganizationMembershipList({ organizationId: 'org_missing' }),
      404,
      'resource_not_found',
    );
  });

  it("a membership deleted through the Backend API drops the organisation from the member's next token", async () => {
    const admin = await newMember(h, 'bapi-admin');
    const member = await newMember(h, 'bapi-member');
    const org = await clerk.organizations.createOrganization({ name: 'Token Co', createdBy: admin.userId });
    await clerk.organizations.createOrganizationMembership({
      organizationId: org.id,
      userId: member.userId,
      role: 'org:member',
    });
    await activate(member, org.id);
    assert.equal((await tokenClaims(member)).org_role, 'org:member');
    await clerk.organizations.updateOrganizationMembership({
      organizationId: org.id,
      userId: member.userId,
      role: 'org:vciso',
    });
    assert.equal((await tokenClaims(member)).org_role, 'org:vciso');
    await clerk.organizations.deleteOrganizationMembership({ organizationId: org.id, userId: member.userId });
    assert.equal((await tokenClaims(member)).org_id, undefined);
  });

  it('logo upload and removal; deleteOrganization answers a deleted object', async () => {
    const org = await clerk.organizations.createOrganization({
      name: 'Logo Backend',
      createdBy: users[2]!.userId,
    });
    const withLogo = await clerk.organizations.updateOrganizationLogo(org.id, {
      file: new Blob([PNG], { type: 'image/png' }),
      uploaderUserId: users[2]!.userId,
    });
    assert.equal(withLogo.hasImage, true);
    assert.match(withLogo.imageUrl, /\/v1\/images\/organizations\/org_/);
    await rejectsWith(
      clerk.organizations.updateOrganizationLogo(org.id, {
        file: new Blob(['<svg/>'], { type: 'image/svg+xml' }),
      }),
      422,
      'form_param_value_invalid',
    );
    const gif = await clerk.organizations.updateOrganizationLogo(org.id, {
      file: new Blob([GIF], { type: 'image/gif' }),
    });
    assert.equal(gif.hasImage, true);
    const without = await clerk.organizations.deleteOrganizationLogo(org.id);
    assert.equal(without.hasImage, false);
    assert.equal(without.imageUrl, '');

    // Typed as an Organization by the SDK; the deserializer makes it a DeletedObject.
    const deleted = (await clerk.organizations.deleteOrganization(org.id)) as unknown as {
      id: string;
      slug: string;
      deleted: boolean;
      object: string;
    };
    assert.deepEqual(
      { id: deleted.id, slug: deleted.slug, deleted: deleted.deleted, object: deleted.object },
      { id: org.id, slug: org.slug, deleted: true, object: 'organization' },
    );
    await rejectsWith(clerk.organizations.deleteOrganization(org.id), 404, 'resource_not_found');
    assert.equal(await h.count('organization_memberships', 'organization_id = $1', [org.id]), 0);
  });

  it('answers with exactly application/json and refuses calls without the secret key', async () => {
    const res = await h.bapi('/v1/organizations');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/json');
    const refused = await h.bapi('/v1/organizations', null);
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.json().errors[0].code, 'clerk_key_invalid');
  });
  it('getInstanceOrganizationMembershipList lists every organisation’s memberships, paged and ordered', async () => {
    const first = await clerk.organizations.createOrganization({
      name: 'Instance A',
      createdBy: users[0]!.userId,
    });
    h.clock.advance(1);
    const second = await clerk.organizations.createOrganization({
      name: 'Instance B',
      createdBy: users[1]!.userId,
    });
    h.clock.advance(1);
    await clerk.organizations.createOrganizationMembership({
      organizationId: second.id,
      userId: users[2]!.userId,
      role: 'org:member',
    });
    const all = await clerk.organizations.getInstanceOrganizationMembershipList({ limit: 500 });
    const mine = all.data.filter((m) => [first.id, second.id].includes(m.organization.id));
    assert.equal(mine.length, 3);
    assert.ok(all.totalCount >= 3);
    assert.deepEqual(
      mine.map((m) => m.publicUserData!.userId),
      [users[0]!.userId, users[1]!.userId, users[2]!.userId],
      'oldest first by default',
    );
    const newest = await clerk.organizations.getInstanceOrganizationMembershipList({
      orderBy: '-created_at',
      limit: 1,
    });
    assert.equal(newest.data.length, 1);
    assert.equal(newest.data[0]!.publicUserData!.userId, users[2]!.userId);
    const byName = await clerk.organizations.getInstanceOrganizationMembershipList({
      orderBy: '-first_name',
      limit: 500,
    });
    const names = byName.data.map((m) => m.publicUserData!.firstName ?? '');
    assert.deepEqual(names, [...names].sort().reverse());
    await rejectsWith(
      clerk.organizations.getInstanceOrganizationMembershipList({ orderBy: 'password' as 'created_at' }),
      422,
      'form_param_value_invalid',
    );
    await rejectsWith(
      clerk.organizations.getInstanceOrganizationMembershipList({ limit: 501 }),
      422,
      'form_param_value_invalid',
    );
  });

  it('organisation domains: none exist and none can be added (not offered here), said in Clerk’s envelope', async () => {
    const org = await clerk.organizations.createOrganization({
      name: 'No Domains',
      createdBy: users[0]!.userId,
    });
    const list = await clerk.organizations.getOrganizationDomainList({ organizationId: org.id });
    assert.deepEqual(list, { data: [], totalCount: 0 });
    await assert.rejects(
      clerk.organizations.createOrganizationDomain({
        organizationId: org.id,
        name: 'example.com',
        enrollmentMode: 'automatic_invitation',
      }),
      (err: { status?: number; errors?: { code: string }[] }) => {
        assert.equal(err.status, 422);
        assert.equal(err.errors?.[0]?.code, 'not_supported_by_this_provider');
        return true;
      },
    );
    await rejectsWith(
      clerk.organizations.updateOrganizationDomain({
        organizationId: org.id,
        domainId: 'orgdmn_x',
        verified: true,
      }),
      404,
      'resource_not_found',
    );
    await rejectsWith(
      clerk.organizations.deleteOrganizationDomain({ organizationId: org.id, domainId: 'orgdmn_x' }),
      404,
      'resource_not_found',
    );
    await rejectsWith(
      clerk.organizations.getOrganizationDomainList({ organizationId: 'org_doesnotexist' }),
      404,
      'resource_not_found',
    );
  });
});
