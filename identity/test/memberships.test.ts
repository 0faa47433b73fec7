import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { Harness, type Json } from './support/harness.ts';
import {
  activate,
  addMember,
  assertError,
  clientMemberships,
  createOrganization,
  newMember,
  tokenClaims,
  type Member,
} from './support/organizations.ts';

const MEMBER_PERMISSIONS = [
  'org:sys_memberships:read',
  'org:sys_billing:read',
  'org:modules:read',
  'org:clients:read',
];

forEachBackend('organisation memberships (Frontend API)', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());

  /** A fresh organisation: its admin, a virtual security officer and a member. */
  async function team(name: string) {
    const admin = await newMember(h, 'admin', { firstName: 'Alice', lastName: 'Admin' });
    const org = await createOrganization(admin, name);
    const vciso = await newMember(h, 'vciso', { firstName: 'Victor', lastName: 'Ciso' });
    const member = await newMember(h, 'member', { firstName: 'Mona', lastName: 'Member' });
    // The clock stands still in tests: advance it so "oldest first" is well defined.
    h.clock.advance(1);
    await addMember(admin, org.id, vciso, 'org:vciso');
    h.clock.advance(1);
    await addMember(admin, org.id, member, 'org:member');
    return { org, admin, vciso, member };
  }

  const roleOf = async (orgId: string, userId: string) =>
    (
      await h.db.query<{ role: string }>(
        'SELECT role FROM organization_memberships WHERE organization_id = $1 AND user_id = $2',
        [orgId, userId],
      )
    )[0]?.role;

  describe('POST /organizations/:id/memberships', () => {
    it('adds a member with a role; the answer carries organisation and public_user_data', async () => {
      const admin = await newMember(h, 'admin');
      const org = await createOrganization(admin, 'Adders');
      const user = await newMember(h, 'added', { firstName: 'Ann', lastName: 'Added' });
      const res = await admin.browser.post(`/organizations/${org.id}/memberships`, {
        user_id: user.userId,
        role: 'org:member',
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const m = res.body.response;
      assert.equal(m.object, 'organization_membership');
      assert.match(m.id, /^orgmem_/);
      assert.equal(m.role, 'org:member');
      assert.equal(m.role_name, 'Member');
      assert.deepEqual(m.permissions, MEMBER_PERMISSIONS);
      assert.equal(m.organization.id, org.id);
      assert.equal(m.public_user_data.user_id, user.userId);
      assert.equal(m.public_user_data.identifier, user.email);
      assert.equal(m.public_user_data.first_name, 'Ann');
      assert.equal('private_metadata' in m, false);

      // The new member's own client lists it from their next response on.
      const me = await user.browser.get('/me');
      assert.deepEqual(
        me.body.response.organization_memberships.map((x: Json) => [x.organization.id, x.role]),
        [[org.id, 'org:member']],
      );
    });

    it('validates the role and the user, refuses duplicates and respects max_allowed_memberships', async () => {
      const { org, admin, member } = await team('Validators');
      const user = await newMember(h, 'candidate');
      const add = (form: Record<string, string>) =>
        admin.browser.post(`/organizations/${org.id}/memberships`, form);
      assertError(
        await add({ user_id: user.userId, role: 'org:owner' }),
        422,
        'form_param_value_invalid',
        'role',
      );
      assertError(await add({ user_id: user.userId }), 422, 'form_param_nil', 'role');
      assertError(await add({ role: 'org:member' }), 422, 'form_param_nil', 'user_id');
      assertError(await add({ user_id: 'user_nobody', role: 'org:member' }), 404, 'resource_not_found');
      assertError(
        await add({ user_id: member.userId, role: 'org:admin' }),
        422,
        'already_a_member_in_organization',
      );
      assert.equal(await roleOf(org.id, member.userId), 'org:member', 'the existing role is kept');

      await h.db.query('UPDATE organizations SET max_allowed_memberships = 3 WHERE id = $1', [org.id]);
      assertError(
        await add({ user_id: user.userId, role: 'org:member' }),
        422,
        'organization_membership_quota_exceeded',
      );
      await h.db.query('UPDATE organizations SET max_allowed_memberships = 4 WHERE id = $1', [org.id]);
      assert.equal((await add({ user_id: user.userId, role: 'org:member' })).status, 200);
    });
  });

  describe('GET /organizations/:id/memberships', () => {
    it('pages (limit default 10), filters by role and by a free-text query', async () => {
      const { org, admin, vciso, member } = await team('Listers');
      const extra: Member[] = [];
      for (let i = 0; i < 9; i++) {
        const u = await newMember(h, `extra${i}`, { firstName: `Extra${i}` });
        h.clock.advance(1);
        await addMember(admin, org.id, u, 'org:member');
        extra.push(u);
      }
      const list = (query: Record<string, string> = {}) =>
        member.browser.get(`/organizations/${org.id}/memberships`, { paginated: 'true', ...query });

      const first = await list();
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body.response.total_count, 12);
      assert.equal(first.body.response.data.length, 10);
      assert.equal(first.body.response.data[0].public_user_data.user_id, admin.userId, 'oldest first');
      for (const m of first.body.response.data) {
        assert.equal(m.organization.id, org.id);
        assert.equal(typeof m.public_user_data.identifier, 'string');
      }
      const second = await list({ limit: '10', offset: '10' });
      assert.equal(second.body.response.data.length, 2);
      assert.equal(second.body.response.total_count, 12);

      const admins = await list({ role: 'org:admin' });
      assert.deepEqual(
        admins.body.response.data.map((m: Json) => m.public_user_data.user_id),
        [admin.userId],
      );
      // clerk-js joins an array filter with commas.
      const managers = await list({ role: 'org:admin,org:vciso' });
      assert.equal(managers.body.response.total_count, 2);
      const none = await list({ role: 'org:unknown' });
      assert.equal(none.body.response.total_count, 0);

      const byName = await list({ query: 'victor' });
      assert.deepEqual(
        byName.body.response.data.map((m: Json) => m.public_user_data.user_id),
        [vciso.userId],
      );
      const byEmail = await list({ query: extra[3]!.email.toUpperCase() });
      assert.deepEqual(
        byEmail.body.response.data.map((m: Json) => m.public_user_data.user_id),
        [extra[3]!.userId],
      );
      const byFullName = await list({ query: 'mona mem' });
      assert.equal(byFullName.body.response.total_count, 1);
      assert.equal(
        (await list({ query: '%' })).body.response.total_count,
        0,
        'LIKE wildcards match literally',
      );
    });
  });

  describe('permissions', () => {
    it('members read but cannot manage; virtual security officers hold admin rights, deleting included', async () => {
      const { org, admin, vciso, member } = await team('Permissions');
      const user = await newMember(h, 'perm-user');
      const checks: [string, () => Promise<{ status: number; body: Json }>][] = [
        [
          'add',
          () =>
            member.browser.post(`/organizations/${org.id}/memberships`, {
              user_id: user.userId,
              role: 'org:member',
            }),
        ],
        [
          'change role',
          () =>
            member.browser.patch(`/organizations/${org.id}/memberships/${vciso.userId}`, {
              role: 'org:member',
            }),
        ],
        ['remove', () => member.browser.delete(`/organizations/${org.id}/memberships/${vciso.userId}`)],
        ['update', () => member.browser.patch(`/organizations/${org.id}`, { name: 'Nope' })],
        ['delete logo', () => member.browser.delete(`/organizations/${org.id}/logo`)],
        ['delete', () => member.browser.delete(`/organizations/${org.id}`)],
        [
          'invite',
          () =>
            member.browser.post(`/organizations/${org.id}/invitations`, {
              email_address: 'x@example.com',
              role: 'org:member',
            }),
        ],
      ];
      for (const [what, call] of checks) {
        const res = await call();
        assert.equal(res.status, 403, `${what}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.errors[0].code, 'not_allowed_access', what);
      }
      assert.equal((await member.browser.get(`/organizations/${org.id}/memberships`)).status, 200);
      assert.equal(await roleOf(org.id, vciso.userId), 'org:vciso');

      // The virtual security officer manages members…
      const added = await vciso.browser.post(`/organizations/${org.id}/memberships`, {
        user_id: user.userId,
        role: 'org:member',
      });
      assert.equal(added.status, 200, JSON.stringify(added.body));
      const promoted = await vciso.browser.patch(`/organizations/${org.id}/memberships/${user.userId}`, {
        role: 'org:vciso',
      });
      assert.equal(promoted.status, 200);
      assert.equal(promoted.body.response.role, 'org:vciso');
      assert.equal(
        (await vciso.browser.delete(`/organizations/${org.id}/memberships/${user.userId}`)).status,
        200,
      );
      // …and, holding every permission of an admin, may delete the organisation.
      assert.equal((await vciso.browser.delete(`/organizations/${org.id}`)).status, 200);
      assert.equal((await admin.browser.get(`/organizations/${org.id}`)).status, 404);
    });
  });

  describe('changing roles and removing members', () => {
    it("PATCH changes the role; the member's next token carries it", async () => {
      const { org, admin, member } = await team('Promotions');
      await activate(member, org.id);
      assert.equal((await tokenClaims(member)).org_role, 'org:member');

      const res = await admin.browser.patch(`/organizations/${org.id}/memberships/${member.userId}`, {
        role: 'org:vciso',
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.response.role, 'org:vciso');
      assert.equal(res.body.response.role_name, 'Virtual security officer');
      assert.equal(res.body.response.public_user_data.user_id, member.userId);
      const claims = await tokenClaims(member);
      assert.equal(claims.org_role, 'org:vciso');
      assert.ok((claims.org_permissions as string[]).includes('org:sys_memberships:manage'));

      assertError(
        await admin.browser.patch(`/organizations/${org.id}/memberships/${member.userId}`, {
          role: 'org:root',
        }),
        422,
        'form_param_value_invalid',
        'role',
      );
      const outsider = await newMember(h, 'not-in-org');
      assertError(
        await admin.browser.patch(`/organizations/${org.id}/memberships/${outsider.userId}`, {
          role: 'org:member',
        }),
        404,
        'resource_not_found',
      );
      assertError(
        await admin.browser.delete(`/organizations/${org.id}/memberships/${outsider.userId}`),
        404,
        'resource_not_found',
      );
    });

    it('the last member with admin rights cannot be demoted, removed or leave; beside a vCISO they can', async () => {
      const admin = await newMember(h, 'admin', { firstName: 'Alice', lastName: 'Admin' });
      const org = await createOrganization(admin, 'Last Admin');
      const vciso = await newMember(h, 'vciso', { firstName: 'Victor', lastName: 'Ciso' });
      const minimum = 'organization_minimum_permissions_needed';
      assertError(
        await admin.browser.patch(`/organizations/${org.id}/memberships/${admin.userId}`, {
          role: 'org:member',
        }),
        403,
        minimum,
      );
      assertError(
        await admin.browser.delete(`/organizations/${org.id}/memberships/${admin.userId}`),
        403,
        minimum,
      );
      assertError(await admin.browser.delete(`/me/organization_memberships/${org.id}`), 403, minimum);
      // Setting the same role is no change; another role with admin rights keeps the organisation managed.
      for (const role of ['org:admin', 'org:vciso', 'org:admin']) {
        const res = await admin.browser.patch(`/organizations/${org.id}/memberships/${admin.userId}`, {
          role,
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
      assert.equal(await roleOf(org.id, admin.userId), 'org:admin');

      // A vCISO holds admin rights: beside it, the admin may step down, and the vCISO is then the last one.
      await addMember(admin, org.id, vciso, 'org:vciso');
      const demoted = await vciso.browser.patch(`/organizations/${org.id}/memberships/${admin.userId}`, {
        role: 'org:member',
      });
      assert.equal(demoted.status, 200, JSON.stringify(demoted.body));
      assertError(
        await vciso.browser.patch(`/organizations/${org.id}/memberships/${vciso.userId}`, {
          role: 'org:member',
        }),
        403,
        minimum,
      );
      assertError(await vciso.browser.delete(`/me/organization_memberships/${org.id}`), 403, minimum);
      assert.equal(
        await h.count('organization_memberships', 'organization_id = $1 AND role = ANY($2)', [
          org.id,
          ['org:admin', 'org:vciso'],
        ]),
        1,
      );
    });

    it('a removed member loses the organisation: their next token carries no organisation', async () => {
      const { org, admin, member } = await team('Removals');
      await activate(member, org.id);
      assert.equal((await tokenClaims(member)).org_id, org.id);

      const res = await admin.browser.delete(`/organizations/${org.id}/memberships/${member.userId}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.response.object, 'organization_membership');
      assert.equal(res.body.response.public_user_data.user_id, member.userId);
      assert.equal(res.body.response.organization.id, org.id);

      const claims = await tokenClaims(member);
      for (const claim of ['org_id', 'org_slug', 'org_role', 'org_permissions'])
        assert.equal(claims[claim], undefined);
      assertError(await member.browser.get(`/organizations/${org.id}`), 404, 'resource_not_found');
      const client = await member.browser.get('/client');
      const session = client.body.response.sessions.find((s: Json) => s.id === member.sessionId);
      assert.equal(session.last_active_organization_id, null);
      assert.deepEqual(session.user.organization_memberships, []);
    });
  });

  describe("the user's own memberships (/me)", () => {
    it('GET /me/organization_memberships lists them with their organisation, paginated', async () => {
      const user = await newMember(h, 'many');
      const orgs = [];
      for (const name of ['First', 'Second', 'Third']) {
        h.clock.advance(1);
        orgs.push(await createOrganization(user, `${name} Org`));
      }
      const other = await team('Joined');
      h.clock.advance(1);
      await addMember(other.admin, other.org.id, user, 'org:member');

      const res = await user.browser.get('/me/organization_memberships', {
        paginated: 'true',
        limit: '2',
        offset: '0',
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.response.total_count, 4);
      assert.deepEqual(
        res.body.response.data.map((m: Json) => m.organization.id),
        [orgs[0].id, orgs[1].id],
      );
      const m = res.body.response.data[0];
      assert.equal(m.object, 'organization_membership');
      assert.equal(m.role, 'org:admin');
      assert.equal(m.organization.members_count, 1);
      assert.equal(m.public_user_data.user_id, user.userId);
      const rest = await user.browser.get('/me/organization_memberships', { limit: '2', offset: '2' });
      assert.deepEqual(
        rest.body.response.data.map((x: Json) => [x.organization.id, x.role]),
        [
          [orgs[2].id, 'org:admin'],
          [other.org.id, 'org:member'],
        ],
      );
      assert.equal(rest.body.response.data[1].organization.members_count, 4);
      assertError(await h.browser().get('/me/organization_memberships'), 404, 'resource_not_found');
    });

    it('DELETE /me/organization_memberships/:orgId leaves; the client and the token follow at once', async () => {
      const { org, member } = await team('Leavers');
      await activate(member, org.id);
      const res = await member.browser.delete(`/me/organization_memberships/${org.id}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.response.object, 'organization_membership');
      assert.match(res.body.response.id, /^orgmem_/);
      assert.equal(res.body.response.deleted, true);
      assert.deepEqual(clientMemberships(res.body, member.userId), []);
      const session = res.body.client.sessions.find((s: Json) => s.id === member.sessionId);
      assert.equal(session.last_active_organization_id, null);
      assert.equal((await tokenClaims(member)).org_id, undefined);
      assertError(
        await member.browser.delete(`/me/organization_memberships/${org.id}`),
        404,
        'resource_not_found',
      );
    });

    it('GET /me/organization_suggestions is an empty list (verified domains are off)', async () => {
      const user = await newMember(h, 'suggested');
      const res = await user.browser.get('/me/organization_suggestions', {
        status: 'pending,accepted',
        limit: '10',
        offset: '0',
      });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.response, { data: [], total_count: 0 });
    });
  });

  describe('session tokens and the active organisation', () => {
    it("switching (touch active_organization_id) gives the next tokens the new organisation's v1 claims", async () => {
      const user = await newMember(h, 'switcher');
      const first = await createOrganization(user, 'Switch One');
      const other = await team('Switch Two');
      await addMember(other.admin, other.org.id, user, 'org:vciso');

      const none = await tokenClaims(user);
      assert.equal(none.org_id, undefined);
      assert.equal(none.v, undefined, 'v1 claims: no `v`');

      const touched = await activate(user, first.id);
      const session = touched.body.response;
      assert.equal(session.last_active_organization_id, first.id);
      const piggyBacked = JSON.parse(
        Buffer.from(session.last_active_token.jwt.split('.')[1], 'base64url').toString(),
      );
      assert.equal(piggyBacked.org_id, first.id);

      const claims = await tokenClaims(user);
      assert.equal(claims.org_id, first.id);
      assert.equal(claims.org_slug, first.slug);
      assert.equal(claims.org_role, 'org:admin');
      assert.ok((claims.org_permissions as string[]).includes('org:sys_profile:delete'));
      assert.equal(claims.v, undefined);

      await activate(user, other.org.id);
      const switched = await tokenClaims(user);
      assert.equal(switched.org_id, other.org.id);
      assert.equal(switched.org_slug, other.org.slug);
      assert.equal(switched.org_role, 'org:vciso');
      // A vCISO holds every permission of an admin, billing included.
      assert.ok((switched.org_permissions as string[]).includes('org:sys_billing:manage'));

      await activate(user, null);
      assert.equal((await tokenClaims(user)).org_id, undefined);

      // Naming an organisation the user is not in yields no organisation claims; it is never an error.
      const stranger = await team('Stranger Org');
      const foreign = await tokenClaims(user, { organization_id: stranger.org.id });
      assert.equal(foreign.org_id, undefined);
      const res = await user.browser.post(`/client/sessions/${user.sessionId}/touch`, {
        active_organization_id: stranger.org.id,
      });
      assertError(res, 404, 'resource_not_found');
    });
  });
});
