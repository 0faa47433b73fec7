import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { MEMBERS_PATH } from '@app/contract';
import {
  sessionToken,
  signUpUser,
  startEmbeddedServer,
  type ApiBody,
  type EmbeddedServer,
  type User,
  TEST_BACKENDS,
} from './support/embedded-server.ts';
import { teamOrganization, type Organization, type Team } from './support/product-api-world.ts';

/**
 * POST /api/organizations/current/members on the real server and its embedded identity provider: an
 * existing account is added by its verified address, anyone else is invited; the organisation is only
 * the token's; only roles allowed to manage members may, and only with roles they could give.
 */

const codeOf = (answer: { body: ApiBody }) => answer.body?.errors?.[0]?.code;
const unknownAddress = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.com`;

for (const backend of TEST_BACKENDS) {
  describe(`adding a member by email address [${backend.name}]`, () => {
    let server: EmbeddedServer;
    let team: Team;
    let org: Organization;
    let other: { admin: User; org: Organization };

    before(async () => {
      server = await startEmbeddedServer({ databaseUrl: backend.databaseUrl });
      team = {
        admin: await signUpUser(server, 'admin'),
        vciso: await signUpUser(server, 'vciso'),
        member: await signUpUser(server, 'member'),
      };
      org = await teamOrganization(server, team, 'Acme');
      const otherTeam = {
        admin: await signUpUser(server, 'other-admin'),
        vciso: await signUpUser(server, 'other-vciso'),
        member: await signUpUser(server, 'other-member'),
      };
      other = { admin: otherTeam.admin, org: await teamOrganization(server, otherTeam, 'Bravo') };
    });
    after(() => server?.stop());

    const add = async (caller: User, organizationId: string | null, body: unknown) =>
      server.api(await sessionToken(caller, organizationId), 'POST', MEMBERS_PATH, body);
    const roleIn = async (organizationId: string, userId: string) =>
      (
        await server.db.query<{ role: string }>(
          'SELECT role FROM organization_memberships WHERE organization_id = $1 AND user_id = $2',
          [organizationId, userId],
        )
      )[0]?.role ?? null;
    const invitationsTo = (organizationId: string, emailAddress: string) =>
      server.db.query<{ id: string; role: string; status: string; inviter_user_id: string | null }>(
        'SELECT id, role, status, inviter_user_id FROM organization_invitations WHERE organization_id = $1 AND lower(email_address) = $2',
        [organizationId, emailAddress.toLowerCase()],
      );
    /** Everything adding a member could change, in every organisation. */
    const state = async () =>
      JSON.stringify({
        memberships: await server.db.query(
          'SELECT organization_id, user_id, role FROM organization_memberships ORDER BY id',
        ),
        invitations: await server.db.query(
          'SELECT id, organization_id, email_address, role, status FROM organization_invitations ORDER BY id',
        ),
      });

    test('an existing account is added at once by its address, whatever its case and spaces', async () => {
      const newcomer = await signUpUser(server, 'newcomer');
      const res = await add(team.admin, org.id, {
        emailAddress: `  ${newcomer.email.toUpperCase()} `,
        role: 'org:member',
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.deepEqual(res.body, {
        outcome: 'added',
        emailAddress: newcomer.email.toLowerCase(),
        role: 'org:member',
      });
      assert.equal(await roleIn(org.id, newcomer.userId), 'org:member');
      assert.deepEqual(await invitationsTo(org.id, newcomer.email), []);

      const again = await add(team.admin, org.id, { emailAddress: newcomer.email, role: 'org:vciso' });
      assert.equal(again.status, 409, JSON.stringify(again.body));
      assert.equal(codeOf(again), 'already_member');
      assert.equal(await roleIn(org.id, newcomer.userId), 'org:member', 'the role is unchanged');
    });

    test('an unknown address is sent an invitation, naming who invited; a second try says it is pending', async () => {
      const address = unknownAddress('invitee');
      const res = await add(team.admin, org.id, { emailAddress: address, role: 'org:vciso' });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.outcome, 'invited');
      assert.equal(res.body.emailAddress, address);
      assert.equal(res.body.role, 'org:vciso');
      const [invitation, ...more] = await invitationsTo(org.id, address);
      assert.equal(more.length, 0);
      assert.equal(invitation!.id, res.body.invitationId);
      assert.equal(invitation!.status, 'pending');
      assert.equal(invitation!.role, 'org:vciso');
      assert.equal(invitation!.inviter_user_id, team.admin.userId);

      const before = await state();
      const again = await add(team.admin, org.id, { emailAddress: address, role: 'org:member' });
      assert.equal(again.status, 409, JSON.stringify(again.body));
      assert.equal(codeOf(again), 'already_invited');
      assert.equal(await state(), before, 'the pending invitation is left as it was');
    });

    test('an address that an account only typed in, unverified, is invited, never added to that account', async () => {
      const claimant = await signUpUser(server, 'claimant');
      const address = unknownAddress('victim');
      const claimed = await claimant.browser.call('POST', '/me/email_addresses', { email_address: address });
      assert.equal(claimed.status, 200, JSON.stringify(claimed.body?.errors));
      const res = await add(team.admin, org.id, { emailAddress: address, role: 'org:member' });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.outcome, 'invited');
      assert.equal(await roleIn(org.id, claimant.userId), null);
    });

    test('a vCISO holds admin rights: it adds, with any role', async () => {
      const colleague = await signUpUser(server, 'colleague');
      const res = await add(team.vciso, org.id, { emailAddress: colleague.email, role: 'org:admin' });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(await roleIn(org.id, colleague.userId), 'org:admin');
    });

    test('a member is refused before anything is looked up; nothing changes', async () => {
      const before = await state();
      for (const emailAddress of [unknownAddress('by-member'), team.vciso.email]) {
        const res = await add(team.member, org.id, { emailAddress, role: 'org:member' });
        assert.equal(res.status, 403, JSON.stringify(res.body));
        assert.equal(codeOf(res), 'forbidden');
      }
      assert.equal(await state(), before);
    });

    test("another tenant's organisation cannot be named, nor reached with a token naming it", async () => {
      const before = await state();
      const victim = await signUpUser(server, 'planted');
      // The body cannot name an organisation: the route only acts on the token's.
      const named = await add(team.admin, org.id, {
        emailAddress: victim.email,
        role: 'org:admin',
        organizationId: other.org.id,
      });
      assert.equal(named.status, 422, JSON.stringify(named.body));
      assert.equal(codeOf(named), 'invalid_request');
      // A token asked for an organisation the caller is not in names none.
      const foreign = await add(team.admin, other.org.id, { emailAddress: victim.email, role: 'org:admin' });
      assert.equal(foreign.status, 404, JSON.stringify(foreign.body));
      assert.equal(codeOf(foreign), 'no_active_organization');
      // And the other firm's admin, acting in its own organisation, changes nothing in ours.
      const theirs = await add(other.admin, other.org.id, { emailAddress: victim.email, role: 'org:member' });
      assert.equal(theirs.status, 201, JSON.stringify(theirs.body));
      assert.equal(await roleIn(org.id, victim.userId), null);
      assert.equal(await roleIn(other.org.id, victim.userId), 'org:member');
      await server.db.query(
        'DELETE FROM organization_memberships WHERE organization_id = $1 AND user_id = $2',
        [other.org.id, victim.userId],
      );
      assert.equal(await state(), before);
    });

    test('malformed addresses and bodies are refused with their own code; nothing changes', async () => {
      const before = await state();
      for (const emailAddress of [
        '',
        'not-an-address',
        'a@b',
        'two@@example.com',
        'a b@example.com',
        `${'x'.repeat(250)}@example.com`,
      ]) {
        const res = await add(team.admin, org.id, { emailAddress, role: 'org:member' });
        assert.equal(res.status, 422, `${emailAddress}: ${JSON.stringify(res.body)}`);
        assert.equal(codeOf(res), 'email_address_invalid', emailAddress);
      }
      for (const body of [
        { emailAddress: unknownAddress('x'), role: 'org:owner' },
        { emailAddress: unknownAddress('x') },
        { role: 'org:member' },
        { emailAddress: 42, role: 'org:member' },
        [unknownAddress('x')],
      ]) {
        const res = await add(team.admin, org.id, body);
        assert.equal(res.status, 422, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
        assert.equal(codeOf(res), 'invalid_request');
      }
      const noOrganization = await add(team.admin, null, {
        emailAddress: unknownAddress('x'),
        role: 'org:member',
      });
      assert.equal(noOrganization.status, 404);
      assert.equal(codeOf(noOrganization), 'no_active_organization');
      assert.equal(await state(), before);
    });
  });
}
