import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { permissionsOf, ROLES } from '../src/organizations/roles.ts';
import { insertMembership, insertOrganization, membershipOf } from '../src/store/organizations.ts';
import type { OrganizationRow } from '../src/store/rows.ts';
import { createUserWithVerifiedEmail } from '../src/store/users.ts';
import { forEachBackend } from './support/backends.ts';
import { BAPI, Harness, uniqueEmail, type FapiResponse } from './support/harness.ts';
import { assertError, newMember, type Member } from './support/organizations.ts';

const ROLE_KEYS = ROLES.map((r) => r.key);
/** The other role an action moves from or to: one every manager may hand out (the lowest one). */
const other = (role: string) => (role === 'org:member' ? 'org:vciso' : 'org:member');

/** The rule under test, spelled out independently: the actor's role carries every permission of the role. */
const carriesAll = (actor: string, role: string) =>
  permissionsOf(role).every((p) => permissionsOf(actor).includes(p));

forEachBackend('organisation roles: who may grant or take away which role (FAPI)', (backend) => {
  let h: Harness;
  let org: OrganizationRow;
  const actors = new Map<string, Member>();

  before(async () => {
    h = await Harness.start(backend);
    // The creator stays an admin throughout, so no action below trips the last-admin rule.
    const founder = await targetUser('org:admin');
    org = await insertOrganization(h.db, {
      name: 'Roles',
      slug: `roles-${randomBytes(4).toString('hex')}`,
      createdBy: founder,
      now: h.clock.now,
    });
    await insertMembership(h.db, {
      organizationId: org.id,
      userId: founder,
      role: 'org:admin',
      now: h.clock.now,
    });
    for (const role of ROLE_KEYS) {
      const actor = await newMember(h, role.replace('org:', ''));
      await insertMembership(h.db, { organizationId: org.id, userId: actor.userId, role, now: h.clock.now });
      actors.set(role, actor);
    }
  });
  after(() => h.close());

  /** A user without a session (only the actor acts); with `role`, already a member of the organisation. */
  async function targetUser(role?: string): Promise<string> {
    const user = await createUserWithVerifiedEmail(h.db, {
      email: uniqueEmail('target'),
      username: null,
      passwordHash: null,
      firstName: null,
      lastName: null,
      unsafeMetadata: {},
      legalAcceptedAt: null,
      now: h.clock.now,
    });
    if (role && org) {
      await insertMembership(h.db, { organizationId: org.id, userId: user.id, role, now: h.clock.now });
    }
    return user.id;
  }

  async function bapiInvitation(role: string): Promise<string> {
    const res = await h.app.inject({
      method: 'POST',
      url: `${BAPI}/v1/organizations/${org.id}/invitations`,
      headers: { authorization: `Bearer ${h.identity.secretKey}` },
      payload: { email_address: uniqueEmail('invitee'), role },
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().id;
  }

  const roleOf = async (userId: string) => (await membershipOf(h.db, org.id, userId))?.role ?? null;
  const invitationStatus = async (id: string) =>
    (
      await h.db.query<{ status: string }>('SELECT status FROM organization_invitations WHERE id = $1', [id])
    )[0]?.status;

  function outcome(res: FapiResponse, allowed: boolean) {
    if (allowed) assert.equal(res.status, 200, JSON.stringify(res.body));
    else assertError(res, 403, 'not_allowed_access');
  }

  for (const actorRole of ROLE_KEYS) {
    for (const role of ROLE_KEYS) {
      describe(`${actorRole} acting on ${role}`, () => {
        const may = () => carriesAll(actorRole, role);
        // A member cannot manage memberships at all; the others by the permissions they carry.
        const manages = () => permissionsOf(actorRole).includes('org:sys_memberships:manage');

        it('changes a member to it', async () => {
          const from = other(role);
          const target = await targetUser(from);
          const allowed = manages() && may() && carriesAll(actorRole, from);
          const res = await actors
            .get(actorRole)!
            .browser.patch(`/organizations/${org.id}/memberships/${target}`, { role });
          outcome(res, allowed);
          assert.equal(await roleOf(target), allowed ? role : from);
        });

        it('changes a member from it', async () => {
          const to = other(role);
          const target = await targetUser(role);
          const allowed = manages() && may() && carriesAll(actorRole, to);
          const res = await actors
            .get(actorRole)!
            .browser.patch(`/organizations/${org.id}/memberships/${target}`, { role: to });
          outcome(res, allowed);
          assert.equal(await roleOf(target), allowed ? to : role);
        });

        it('removes a member holding it', async () => {
          const target = await targetUser(role);
          const allowed = manages() && may();
          const res = await actors
            .get(actorRole)!
            .browser.delete(`/organizations/${org.id}/memberships/${target}`);
          outcome(res, allowed);
          assert.equal(await roleOf(target), allowed ? null : role);
        });

        it('adds a member with it', async () => {
          const target = await targetUser();
          const allowed = manages() && may();
          const res = await actors
            .get(actorRole)!
            .browser.post(`/organizations/${org.id}/memberships`, { user_id: target, role });
          outcome(res, allowed);
          assert.equal(await roleOf(target), allowed ? role : null);
        });

        it('invites with it (single and bulk); nothing is mailed when refused', async () => {
          const allowed = manages() && may();
          const single = uniqueEmail('invitee');
          const res = await actors
            .get(actorRole)!
            .browser.post(`/organizations/${org.id}/invitations`, { email_address: single, role });
          outcome(res, allowed);
          const bulk = uniqueEmail('invitee');
          const bulkRes = await actors
            .get(actorRole)!
            .browser.post(`/organizations/${org.id}/invitations/bulk`, { email_address: bulk, role });
          outcome(bulkRes, allowed);
          for (const to of [single, bulk]) {
            assert.equal((await h.mail(to)).length, allowed ? 1 : 0);
            assert.equal(
              await h.count('organization_invitations', 'lower(email_address) = $1', [to.toLowerCase()]),
              allowed ? 1 : 0,
            );
          }
        });

        it('revokes an invitation carrying it', async () => {
          const invitation = await bapiInvitation(role);
          const allowed = manages() && may();
          const res = await actors
            .get(actorRole)!
            .browser.post(`/organizations/${org.id}/invitations/${invitation}/revoke`);
          outcome(res, allowed);
          assert.equal(await invitationStatus(invitation), allowed ? 'revoked' : 'pending');
        });
      });
    }
  }

  it('a member cannot make itself vCISO or admin', async () => {
    const member = actors.get('org:member')!;
    for (const role of ['org:vciso', 'org:admin']) {
      assertError(
        await member.browser.patch(`/organizations/${org.id}/memberships/${member.userId}`, { role }),
        403,
        'not_allowed_access',
      );
    }
    assert.equal(await roleOf(member.userId), 'org:member');
  });

  it("a vCISO holds an admin's rights: it makes an admin and demotes one, but not the last one with admin rights", async () => {
    const vciso = actors.get('org:vciso')!;
    const colleague = await targetUser('org:member');
    const promoted = await vciso.browser.patch(`/organizations/${org.id}/memberships/${colleague}`, {
      role: 'org:admin',
    });
    assert.equal(promoted.status, 200, JSON.stringify(promoted.body));
    assert.equal(await roleOf(colleague), 'org:admin');
    const demoted = await vciso.browser.patch(`/organizations/${org.id}/memberships/${colleague}`, {
      role: 'org:member',
    });
    assert.equal(demoted.status, 200, JSON.stringify(demoted.body));

    // Alone in an organisation of its own, as in a client organisation it created: it cannot step down
    // or leave, which would leave the organisation with nobody to manage it.
    const alone = await insertOrganization(h.db, {
      name: 'Client',
      slug: `client-${randomBytes(4).toString('hex')}`,
      createdBy: null,
      now: h.clock.now,
    });
    await insertMembership(h.db, {
      organizationId: alone.id,
      userId: vciso.userId,
      role: 'org:vciso',
      now: h.clock.now,
    });
    assertError(
      await vciso.browser.patch(`/organizations/${alone.id}/memberships/${vciso.userId}`, {
        role: 'org:member',
      }),
      403,
      'organization_minimum_permissions_needed',
    );
    assertError(
      await vciso.browser.delete(`/me/organization_memberships/${alone.id}`),
      403,
      'organization_minimum_permissions_needed',
    );
    // Moving between the two roles with admin rights keeps it managed.
    const asAdmin = await vciso.browser.patch(`/organizations/${alone.id}/memberships/${vciso.userId}`, {
      role: 'org:admin',
    });
    assert.equal(asAdmin.status, 200, JSON.stringify(asAdmin.body));
  });

  it('anyone may still leave, and a vCISO may step down to member', async () => {
    const vciso = await newMember(h, 'vciso-leaves');
    await insertMembership(h.db, {
      organizationId: org.id,
      userId: vciso.userId,
      role: 'org:vciso',
      now: h.clock.now,
    });
    const res = await vciso.browser.patch(`/organizations/${org.id}/memberships/${vciso.userId}`, {
      role: 'org:member',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const left = await vciso.browser.delete(`/me/organization_memberships/${org.id}`);
    assert.equal(left.status, 200, JSON.stringify(left.body));
    assert.equal(await roleOf(vciso.userId), null);
  });

  it('the Backend API (secret key) is not restricted by role', async () => {
    const target = await targetUser('org:member');
    const res = await h.app.inject({
      method: 'PATCH',
      url: `${BAPI}/v1/organizations/${org.id}/memberships/${target}`,
      headers: { authorization: `Bearer ${h.identity.secretKey}` },
      payload: { role: 'org:admin' },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(await roleOf(target), 'org:admin');
  });
});
