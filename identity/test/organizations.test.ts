import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { FAPI, Harness, type Json } from './support/harness.ts';
import {
  activate,
  addMember,
  assertError,
  clientMemberships,
  createOrganization,
  GIF,
  newMember,
  PNG,
  putLogo,
  tokenClaims,
  type Member,
} from './support/organizations.ts';

const SYSTEM_PERMISSIONS = [
  'org:sys_profile:manage',
  'org:sys_profile:delete',
  'org:sys_memberships:read',
  'org:sys_memberships:manage',
];

forEachBackend('organisations (Frontend API)', (backend) => {
  let h: Harness;
  let admin: Member;
  before(async () => {
    h = await Harness.start(backend);
    admin = await newMember(h, 'org-admin', { firstName: 'Ada' });
  });
  after(() => h.close());

  /** An organisation of `admin` with a vciso and a member, for the permission checks. */
  async function team(name: string) {
    const org = await createOrganization(admin, name);
    const vciso = await newMember(h, 'vciso');
    const member = await newMember(h, 'member');
    await addMember(admin, org.id, vciso, 'org:vciso');
    await addMember(admin, org.id, member, 'org:member');
    return { org, vciso, member };
  }

  describe('POST /organizations', () => {
    it('creates the organisation with its creator as admin, wrapped, and the client lists the membership', async () => {
      const res = await admin.browser.post('/organizations', {
        name: '  Acme Security  ',
        slug: 'acme-security',
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const org = res.body.response;
      assert.equal(org.object, 'organization');
      assert.match(org.id, /^org_/);
      assert.equal(org.name, 'Acme Security');
      assert.equal(org.slug, 'acme-security');
      assert.equal(org.members_count, 1);
      assert.equal(org.pending_invitations_count, 0);
      assert.equal(org.admin_delete_enabled, true);
      assert.equal(org.max_allowed_memberships, 0);
      assert.equal(org.has_image, false);
      assert.equal(org.image_url, '');
      assert.equal(org.created_by, admin.userId);
      assert.equal(typeof org.created_at, 'number');
      assert.equal('private_metadata' in org, false, 'private metadata never reaches the browser');

      const memberships = clientMemberships(res.body, admin.userId);
      const mine = memberships.find((m: Json) => m.organization.id === org.id);
      assert.ok(mine, 'the piggy-backed client already carries the new membership');
      assert.equal(mine.role, 'org:admin');
      assert.equal(mine.role_name, 'Admin');
      for (const p of SYSTEM_PERMISSIONS) assert.ok(mine.permissions.includes(p), p);
      assert.equal(mine.public_user_data.user_id, admin.userId);
    });

    it('derives the slug from the name, with a numeric suffix when it is taken', async () => {
      const first = await createOrganization(admin, 'Zürich Ops & Co.');
      assert.equal(first.slug, 'zurich-ops-co');
      const second = await createOrganization(admin, 'Zurich ops co');
      assert.equal(second.slug, 'zurich-ops-co-2');
      const third = await createOrganization(admin, 'ZURICH OPS CO', '');
      assert.equal(third.slug, 'zurich-ops-co-3', 'an empty slug field means "derive it"');
      const symbols = await createOrganization(admin, '!!!');
      assert.match(symbols.slug, /^organization(-\d+)?$/);
      const long = await createOrganization(admin, 'x'.repeat(100));
      assert.equal(long.slug, 'x'.repeat(64));
      const longAgain = await createOrganization(admin, 'x'.repeat(100));
      assert.equal(longAgain.slug, `${'x'.repeat(62)}-2`);
    });

    it('French names give transliterated slugs, also when clerk-js filled the field itself', async () => {
      // <CreateOrganization hideSlug/> sends the name only.
      assert.equal((await createOrganization(admin, 'Acme Sécurité')).slug, 'acme-securite');
      // The choose-organization task always sends clerk-js's own derivation, which drops accented letters.
      assert.equal((await createOrganization(admin, 'Équipe Été', '-quipe-t-')).slug, 'equipe-ete');
      assert.equal(
        (await createOrganization(admin, 'Acme Sécurité', 'acme-s-curit-')).slug,
        'acme-securite-2',
      );
      // A slug the user typed is theirs, accents or not.
      assert.equal((await createOrganization(admin, 'Café Noir', 'cafe-noir-fr')).slug, 'cafe-noir-fr');
      assert.equal((await createOrganization(admin, 'Café Crème', 'caf-cr')).slug, 'caf-cr');
    });

    it('an explicit slug must be valid and free', async () => {
      await createOrganization(admin, 'Taken', 'taken-slug');
      assertError(
        await admin.browser.post('/organizations', { name: 'Other', slug: 'taken-slug' }),
        422,
        'form_identifier_exists',
        'slug',
      );
      for (const slug of ['---', 'Upper', 'with space', 'under_score', 'é', 'a'.repeat(65)]) {
        assertError(
          await admin.browser.post('/organizations', { name: 'Other', slug }),
          422,
          'form_param_format_invalid',
          'slug',
        );
      }
      assert.equal((await createOrganization(admin, 'Edge', 'a'.repeat(64))).slug, 'a'.repeat(64));
      assert.equal((await createOrganization(admin, 'Digits', '0-9')).slug, '0-9');
      // What clerk-js sends for "Acme Inc." while it derives the slug field from the name.
      assert.equal((await createOrganization(admin, 'Acme Inc.', 'acme-inc-')).slug, 'acme-inc');
      assert.equal((await createOrganization(admin, 'Lead', '-lead')).slug, 'lead');
    });

    it('the name is required and at most 256 characters after trimming', async () => {
      assertError(await admin.browser.post('/organizations', {}), 422, 'form_param_nil', 'name');
      assertError(await admin.browser.post('/organizations', { name: '   ' }), 422, 'form_param_nil', 'name');
      assertError(
        await admin.browser.post('/organizations', { name: 'n'.repeat(257) }),
        422,
        'form_param_max_length_exceeded',
        'name',
      );
      const org = await createOrganization(admin, ` ${'n'.repeat(256)} `);
      assert.equal(org.name.length, 256);
    });

    it('needs a signed-in session', async () => {
      const before = await h.count('organizations');
      assertError(await h.browser().post('/organizations', { name: 'Nobody' }), 404, 'resource_not_found');
      assert.equal(await h.count('organizations'), before);
    });

    it('follows create_organization_enabled and create_organizations_limit', async () => {
      const user = await newMember(h, 'limited');
      await h.db.query('UPDATE users SET create_organization_enabled = false WHERE id = $1', [user.userId]);
      assertError(await user.browser.post('/organizations', { name: 'No' }), 403, 'not_allowed_access');

      await h.db.query(
        'UPDATE users SET create_organization_enabled = true, create_organizations_limit = 2 WHERE id = $1',
        [user.userId],
      );
      const first = await createOrganization(user, 'One');
      await createOrganization(user, 'Two');
      const refused = await user.browser.post('/organizations', { name: 'Three' });
      assertError(refused, 403, 'organization_creation_limit_exceeded');
      assert.equal(refused.body.errors[0].meta.create_organizations_limit, 2);
      assert.equal(await h.count('organizations', 'created_by = $1', [user.userId]), 2);

      // Deleting one frees its place; 0 means no limit, as in Clerk.
      assert.equal((await user.browser.delete(`/organizations/${first.id}`)).status, 200);
      await createOrganization(user, 'Three');
      await h.db.query('UPDATE users SET create_organizations_limit = 0 WHERE id = $1', [user.userId]);
      await createOrganization(user, 'Four');
    });
  });

  describe('GET / PATCH / DELETE /organizations/:id', () => {
    it('members read the organisation by id or by slug, with counts; others get 404', async () => {
      const { org, member } = await team('Readable');
      for (const key of [org.id, org.slug, org.slug.toUpperCase()]) {
        const res = await member.browser.get(`/organizations/${key}`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.response.id, org.id);
        assert.equal(res.body.response.members_count, 3);
        assert.equal(res.body.response.pending_invitations_count, 0);
      }
      const outsider = await newMember(h, 'outsider');
      assertError(await outsider.browser.get(`/organizations/${org.id}`), 404, 'resource_not_found');
      assertError(await outsider.browser.get(`/organizations/${org.slug}`), 404, 'resource_not_found');
      assertError(await admin.browser.get('/organizations/org_doesnotexist'), 404, 'resource_not_found');
    });

    it("PATCH changes name and slug with org:sys_profile:manage; metadata is not the browser's", async () => {
      const { org, vciso, member } = await team('Patchable');
      assertError(
        await member.browser.patch(`/organizations/${org.id}`, { name: 'Hijacked' }),
        403,
        'not_allowed_access',
      );
      const byVciso = await vciso.browser.patch(`/organizations/${org.id}`, {
        name: 'Patched',
        slug: org.slug,
        public_metadata: JSON.stringify({ plan: 'free-forever' }),
        max_allowed_memberships: '1',
        admin_delete_enabled: 'false',
      });
      assert.equal(byVciso.status, 200, JSON.stringify(byVciso.body));
      assert.equal(byVciso.body.response.name, 'Patched');
      assert.deepEqual(byVciso.body.response.public_metadata, {});
      assert.equal(byVciso.body.response.max_allowed_memberships, 0);
      assert.equal(byVciso.body.response.admin_delete_enabled, true);
      assert.equal(byVciso.body.response.members_count, 3);
      // The piggy-backed client carries the new name in the caller's membership.
      const mine = clientMemberships(byVciso.body, vciso.userId).find(
        (m: Json) => m.organization.id === org.id,
      );
      assert.equal(mine.organization.name, 'Patched');

      const renamed = await admin.browser.patch(`/organizations/${org.slug}`, { slug: 'patched-slug' });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      assert.equal(renamed.body.response.slug, 'patched-slug');
      assert.equal(renamed.body.response.name, 'Patched');

      await createOrganization(admin, 'Other', 'other-slug');
      assertError(
        await admin.browser.patch(`/organizations/${org.id}`, { slug: 'other-slug' }),
        422,
        'form_identifier_exists',
        'slug',
      );
      assertError(
        await admin.browser.patch(`/organizations/${org.id}`, { slug: 'Bad Slug' }),
        422,
        'form_param_format_invalid',
        'slug',
      );
      assertError(
        await admin.browser.patch(`/organizations/${org.id}`, { name: ' ' }),
        422,
        'form_param_nil',
        'name',
      );
      assertError(
        await admin.browser.patch(`/organizations/${org.id}`, { slug: '' }),
        422,
        'form_param_nil',
        'slug',
      );
      assertError(
        await admin.browser.patch(`/organizations/${org.id}`, { name: 'n'.repeat(257) }),
        422,
        'form_param_max_length_exceeded',
        'name',
      );
      const [row] = await h.db.query<{ name: string; slug: string }>(
        'SELECT name, slug FROM organizations WHERE id = $1',
        [org.id],
      );
      assert.deepEqual({ ...row }, { name: 'Patched', slug: 'patched-slug' });
    });

    it('DELETE needs org:sys_profile:delete and admin_delete_enabled; active sessions fall back to none', async () => {
      const { org, vciso, member } = await team('Deletable');
      await activate(member, org.id);
      assert.equal((await tokenClaims(member)).org_id, org.id);

      assertError(await member.browser.delete(`/organizations/${org.id}`), 403, 'not_allowed_access');
      await h.db.query('UPDATE organizations SET admin_delete_enabled = false WHERE id = $1', [org.id]);
      // Admins and vCISOs hold the permission (memberships.test.ts: a vCISO deletes); the setting stops both.
      for (const manager of [admin, vciso]) {
        const disabled = await manager.browser.delete(`/organizations/${org.id}`);
        assertError(disabled, 403, 'not_allowed_access');
        assert.match(disabled.body.errors[0].long_message, /Deleting this organization is not allowed/);
      }
      await h.db.query('UPDATE organizations SET admin_delete_enabled = true WHERE id = $1', [org.id]);

      const res = await admin.browser.delete(`/organizations/${org.id}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.response, {
        object: 'organization',
        id: org.id,
        slug: org.slug,
        deleted: true,
      });
      assert.equal(
        clientMemberships(res.body, admin.userId).some((m: Json) => m.organization.id === org.id),
        false,
      );
      assert.equal(await h.count('organization_memberships', 'organization_id = $1', [org.id]), 0);

      const [session] = await h.db.query<{ last_active_organization_id: string | null }>(
        'SELECT last_active_organization_id FROM sessions WHERE id = $1',
        [member.sessionId],
      );
      assert.equal(session!.last_active_organization_id, null);
      const claims = await tokenClaims(member);
      assert.equal(claims.org_id, undefined);
      assertError(await member.browser.get(`/organizations/${org.id}`), 404, 'resource_not_found');
      assertError(await admin.browser.delete(`/organizations/${org.id}`), 404, 'resource_not_found');
    });
  });

  describe('logo', () => {
    let org: Json;
    let member: Member;
    before(async () => {
      ({ org, member } = await team('Logo Corp'));
    });

    async function image(url: string) {
      const path = new URL(url).pathname + new URL(url).search;
      return h.app.inject({ method: 'GET', url: path });
    }

    it('PUT multipart `file` stores the image and serves it from a versioned, immutable URL', async () => {
      h.clock.advance(1);
      const res = await putLogo(h, admin, org.id, { file: PNG, type: 'image/png', filename: 'logo.png' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const updated = res.body.response;
      assert.equal(updated.object, 'organization');
      assert.equal(updated.has_image, true);
      assert.match(
        updated.image_url,
        new RegExp(`^http://localhost:3000${FAPI}/v1/images/organizations/${org.id}\\?v=\\d+$`),
      );
      assert.equal(updated.members_count, 3);
      const mine = clientMemberships(res.body, admin.userId).find((m: Json) => m.organization.id === org.id);
      assert.equal(mine.organization.image_url, updated.image_url);

      const served = await image(updated.image_url);
      assert.equal(served.statusCode, 200);
      assert.equal(served.headers['content-type'], 'image/png');
      assert.equal(served.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.equal(served.headers['x-content-type-options'], 'nosniff');
      assert.deepEqual(served.rawPayload, PNG);

      // A new upload gets a new URL.
      h.clock.advance(1);
      const again = await putLogo(h, admin, org.id, { file: GIF, type: 'image/gif' });
      assert.equal(again.status, 200);
      assert.notEqual(again.body.response.image_url, updated.image_url);
      assert.equal((await image(again.body.response.image_url)).headers['content-type'], 'image/gif');
    });

    it('a string (data URL) arrives as an octet-stream body', async () => {
      h.clock.advance(1);
      const res = await putLogo(h, admin, org.id, { raw: `data:image/gif;base64,${GIF.toString('base64')}` });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.response.has_image, true);
      const served = await image(res.body.response.image_url);
      assert.equal(served.headers['content-type'], 'image/gif');
      assert.deepEqual(served.rawPayload, GIF);

      const withParams = await putLogo(h, admin, org.id, {
        raw: `data:image/png;name=logo.png;base64,${PNG.toString('base64')}`,
      });
      assert.equal(withParams.status, 200, JSON.stringify(withParams.body));
      const plain = await putLogo(h, admin, org.id, { raw: PNG.toString('base64') });
      assert.equal(plain.status, 200, JSON.stringify(plain.body));
      assert.equal((await image(plain.body.response.image_url)).headers['content-type'], 'image/png');
    });

    it('only PNG, JPEG, GIF and WebP images up to 10 MB, judged by their bytes', async () => {
      const cases = [
        { file: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), type: 'image/svg+xml' },
        { file: Buffer.from('plain text'), type: 'text/plain' },
        { file: Buffer.from('<html>not a png</html>'), type: 'image/png' },
        { file: Buffer.alloc(0), type: 'image/png' },
        { file: Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]), type: 'image/png' },
      ];
      for (const c of cases) {
        const res = await putLogo(h, admin, org.id, c);
        assertError(res, 422, 'form_param_value_invalid');
        assert.equal(res.body.errors[0].meta.param_name, undefined, 'shown on the card, not under a field');
      }
      assertError(
        await putLogo(h, admin, org.id, { raw: 'data:text/html;base64,PGgxPg==' }),
        422,
        'form_param_value_invalid',
      );
      assertError(
        await putLogo(h, admin, org.id, { raw: 'not an image at all' }),
        422,
        'form_param_value_invalid',
      );
      assertError(
        await admin.browser.call('PUT', `/organizations/${org.id}/logo`, {}),
        422,
        'form_param_value_invalid',
      );
    });

    it('needs org:sys_profile:manage; DELETE removes it and the image URL answers 404', async () => {
      h.clock.advance(1);
      const uploaded = await putLogo(h, admin, org.id, { file: PNG, type: 'image/png' });
      assert.equal(uploaded.status, 200);
      assertError(
        await putLogo(h, member, org.id, { file: PNG, type: 'image/png' }),
        403,
        'not_allowed_access',
      );
      assertError(await member.browser.delete(`/organizations/${org.id}/logo`), 403, 'not_allowed_access');

      h.clock.advance(1);
      const removed = await admin.browser.delete(`/organizations/${org.id}/logo`);
      assert.equal(removed.status, 200, JSON.stringify(removed.body));
      assert.equal(removed.body.response.has_image, false);
      assert.equal(removed.body.response.image_url, '');
      const gone = await image(uploaded.body.response.image_url);
      assert.equal(gone.statusCode, 404);
      assert.equal(gone.json().errors[0].code, 'resource_not_found');
      assert.equal(
        (await h.app.inject({ method: 'GET', url: `${FAPI}/v1/images/organizations/org_nope` })).statusCode,
        404,
      );
    });
  });

  describe('GET /organizations/:id/roles', () => {
    it('lists the instance roles with their permissions, paginated, for any member', async () => {
      const { org, member } = await team('Roles Inc');
      const res = await member.browser.get(`/organizations/${org.id}/roles`, { limit: '20', offset: '0' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.response.total_count, 3);
      const roles: Json[] = res.body.response.data;
      assert.deepEqual(
        roles.map((r) => r.key),
        ['org:admin', 'org:vciso', 'org:member'],
      );
      for (const role of roles) {
        assert.equal(role.object, 'role');
        assert.ok(Array.isArray(role.permissions) && role.permissions.length > 0);
        for (const p of role.permissions) assert.equal(p.object, 'permission');
      }
      const admin = roles[0]!.permissions.map((p: Json) => p.key);
      for (const p of SYSTEM_PERMISSIONS) assert.ok(admin.includes(p), p);
      const vciso = roles[1]!.permissions.map((p: Json) => p.key);
      for (const p of admin) assert.ok(vciso.includes(p), `a vCISO holds ${p} as an admin does`);

      const page = await member.browser.get(`/organizations/${org.id}/roles`, { limit: '1', offset: '1' });
      assert.deepEqual(
        page.body.response.data.map((r: Json) => r.key),
        ['org:vciso'],
      );
      assert.equal(page.body.response.total_count, 3);
      const outsider = await newMember(h, 'roles-outsider');
      assertError(await outsider.browser.get(`/organizations/${org.id}/roles`), 404, 'resource_not_found');
    });
  });
});

forEachBackend('organisations with forced organisation selection', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend, { config: { forceOrganizationSelection: true } });
  });
  after(() => h.close());

  it('a pending session creates an organisation, activates it, and is pending again once it is deleted', async () => {
    const user = await newMember(h, 'forced');
    const session = (body: Json) => body.client.sessions.find((s: Json) => s.id === user.sessionId);
    const created = await user.browser.post('/organizations', { name: 'First Org' });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(session(created.body).status, 'pending');
    const touched = await activate(user, created.body.response.id);
    assert.equal(session(touched.body).status, 'active');

    const deleted = await user.browser.delete(`/organizations/${created.body.response.id}`);
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.equal(session(deleted.body).status, 'pending');
    assert.deepEqual(session(deleted.body).tasks, [{ key: 'choose-organization' }]);
    assert.equal((await tokenClaims(user)).sts, 'pending');
  });
});
