import { errors } from '../../errors.ts';
import { pageOf } from '../../organizations/invitations.ts';
import {
  addMember,
  changeRole,
  membershipJSONOf,
  membershipsJSON,
  mergeMembershipMetadata,
  removeMember,
} from '../../organizations/memberships.ts';
import {
  createOrganization,
  deleteOrganization,
  mergeOrganizationMetadata,
  setOrganizationLogo,
  updateOrganization,
} from '../../organizations/organizations.ts';
import { uploadedImage } from '../uploaded-image.ts';
import { newOrganizationOf, ORGANIZATION_CREATE_FIELDS } from './organization-input.ts';
import { organizationJSON } from '../../serializers/organization.ts';
import {
  findOrganization,
  listOrganizationMemberships,
  listOrganizations,
  MEMBERSHIP_ORDER_KEYS,
  organizationCounts,
  ORGANIZATION_ORDER_KEYS,
} from '../../store/organizations.ts';
import type { OrganizationRow } from '../../store/rows.ts';
import { findUserById } from '../../store/users.ts';
import type { Queryable } from '../../db/database.ts';
import type { IdentityDeps } from '../../deps.ts';
import type { BapiRoute } from '../route.ts';
import { orderOf, queryFlag, queryList, queryString } from '../request-input.ts';
import { jsonInput, queryInput } from '../json-input.ts';

/**
 * Backend API: organisations and their memberships, as `@clerk/backend` 2.10.1's `organizations.*`
 * calls them (the same services and rules as the Frontend API; the secret key stands for an
 * administrator, so no per-user permission applies). `:id` is an id or a slug wherever Clerk allows it.
 */

async function organizationOf(db: Queryable, idOrSlug: string): Promise<OrganizationRow> {
  const organization = await findOrganization(db, idOrSlug);
  if (!organization) throw errors.notFound('organization');
  return organization;
}

const json = (
  deps: IdentityDeps,
  org: OrganizationRow,
  counts?: { members: number; pendingInvitations: number },
) => organizationJSON(org, { imageBase: deps.fapiBase, includePrivate: true, counts });

async function withCounts(deps: IdentityDeps, db: Queryable, orgs: OrganizationRow[]) {
  const counts = await organizationCounts(
    db,
    orgs.map((o) => o.id),
    deps.clock(),
  );
  return orgs.map((o) => json(deps, o, counts.get(o.id)));
}

const METADATA = { public_metadata: 'object', private_metadata: 'object' } as const;
const PAGE = { limit: 'page', offset: 'page', order_by: 'enum' } as const;
const include = { includePrivate: true };

export const organizationRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: '/v1/organizations',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {
      query: queryInput({ ...PAGE, organization_id: 'text', query: 'text', include_members_count: 'flag' }),
    },
    async handler(req, deps) {
      const q = req.query;
      const page = await listOrganizations(
        deps.db,
        { organizationIds: queryList(q, 'organization_id'), query: queryString(q, 'query') },
        pageOf(q),
        orderOf(q, ORGANIZATION_ORDER_KEYS, '-created_at'),
      );
      const data = queryFlag(q, 'include_members_count')
        ? await withCounts(deps, deps.db, page.data)
        : page.data.map((o) => json(deps, o));
      return { data, total_count: page.total };
    },
  },
  {
    method: 'POST',
    path: '/v1/organizations',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {
      body: jsonInput({ ...ORGANIZATION_CREATE_FIELDS, created_by: 'id' }),
    },
    async handler(req, deps) {
      const body = req.fields;
      const createdBy = body.string('created_by')?.trim() || null;
      const input = { ...newOrganizationOf(body), createdBy };
      const organization = await deps.db.transaction(async (tx) => {
        if (createdBy && !(await findUserById(tx, createdBy))) {
          throw errors.paramValueInvalid('created_by', `No user with id ${createdBy}.`);
        }
        return createOrganization(tx, input, deps.clock());
      });
      const [data] = await withCounts(deps, deps.db, [organization]);
      return data;
    },
  },
  {
    method: 'GET',
    path: '/v1/organizations/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { query: queryInput({ include_members_count: 'flag' }) },
    async handler(req, deps) {
      const organization = await organizationOf(deps.db, req.params.id!);
      if (!queryFlag(req.query, 'include_members_count')) return json(deps, organization);
      const [data] = await withCounts(deps, deps.db, [organization]);
      return data;
    },
  },
  {
    method: 'PATCH',
    path: '/v1/organizations/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    audit: {
      before: {
        row: 'organization',
        params: ['id'],
        columns: ['name', 'slug', 'max_allowed_memberships', 'admin_delete_enabled'],
      },
    },
    input: {
      body: jsonInput({
        name: 'string',
        slug: 'string',
        ...METADATA,
        max_allowed_memberships: 'integer',
        admin_delete_enabled: 'boolean',
      }),
    },
    async handler(req, deps) {
      const body = req.fields;
      const update = {
        name: body.string('name'),
        slug: body.string('slug'),
        publicMetadata: body.object('public_metadata'),
        privateMetadata: body.object('private_metadata'),
        maxAllowedMemberships: body.integer('max_allowed_memberships'),
        adminDeleteEnabled: body.boolean('admin_delete_enabled'),
      };
      const organization = await deps.db.transaction(async (tx) =>
        updateOrganization(tx, await organizationOf(tx, req.params.id!), update, deps.clock()),
      );
      return json(deps, organization);
    },
  },
  {
    method: 'DELETE',
    path: '/v1/organizations/:id',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    handler: (req, deps) =>
      deps.db.transaction(async (tx) =>
        deleteOrganization(tx, deps, await organizationOf(tx, req.params.id!), deps.clock()),
      ),
  },
  {
    /** Deep merge; `null` deletes a key at any depth. */
    method: 'PATCH',
    path: '/v1/organizations/:id/metadata',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput(METADATA) },
    async handler(req, deps) {
      const patch = {
        publicMetadata: req.fields.object('public_metadata'),
        privateMetadata: req.fields.object('private_metadata'),
      };
      const organization = await deps.db.transaction(async (tx) => {
        const org = await organizationOf(tx, req.params.id!);
        return mergeOrganizationMetadata(tx, org.id, patch, deps.clock());
      });
      return json(deps, organization);
    },
  },
  {
    /** `updateOrganizationLogo`: multipart `file` (and `uploader_user_id`, which changes nothing here). */
    method: 'PUT',
    path: '/v1/organizations/:id/logo',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { upload: true },
    async handler(req, deps) {
      const image = await uploadedImage(req.raw);
      const organization = await deps.db.transaction(async (tx) =>
        setOrganizationLogo(tx, (await organizationOf(tx, req.params.id!)).id, image, deps.clock()),
      );
      return json(deps, organization);
    },
  },
  {
    method: 'DELETE',
    path: '/v1/organizations/:id/logo',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const organization = await deps.db.transaction(async (tx) =>
        setOrganizationLogo(tx, (await organizationOf(tx, req.params.id!)).id, null, deps.clock()),
      );
      return json(deps, organization);
    },
  },
  {
    method: 'GET',
    path: '/v1/organizations/:id/memberships',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {
      query: queryInput({ ...PAGE, role: 'text', user_id: 'text', email_address: 'text', query: 'text' }),
    },
    async handler(req, deps) {
      const q = req.query;
      const organization = await organizationOf(deps.db, req.params.id!);
      const page = await listOrganizationMemberships(
        deps.db,
        organization.id,
        {
          roles: queryList(q, 'role'),
          userIds: queryList(q, 'user_id'),
          emailAddresses: queryList(q, 'email_address'),
          query: queryString(q, 'query'),
        },
        pageOf(q),
        orderOf(q, MEMBERSHIP_ORDER_KEYS, 'created_at'),
      );
      const data = await membershipsJSON(deps.db, deps, page.data, {
        ...include,
        organizations: new Map([[organization.id, organization]]),
      });
      return { data, total_count: page.total };
    },
  },
  {
    // Every organisation's memberships at once (`getInstanceOrganizationMembershipList`).
    method: 'GET',
    path: '/v1/organization_memberships',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { query: queryInput({ ...PAGE }) },
    async handler(req, deps) {
      const q = req.query;
      const page = await listOrganizationMemberships(
        deps.db,
        null,
        {},
        pageOf(q),
        orderOf(q, MEMBERSHIP_ORDER_KEYS, 'created_at'),
      );
      return { data: await membershipsJSON(deps.db, deps, page.data, include), total_count: page.total };
    },
  },
  {
    method: 'POST',
    path: '/v1/organizations/:id/memberships',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput({ user_id: 'id', role: 'role' }) },
    async handler(req, deps) {
      const input = { userId: req.fields.string('user_id'), role: req.fields.string('role') };
      return deps.db.transaction(async (tx) => {
        const organization = await organizationOf(tx, req.params.id!);
        const membership = await addMember(tx, organization, input, deps.clock());
        return membershipJSONOf(tx, deps, membership, organization, include);
      });
    },
  },
  {
    method: 'PATCH',
    path: '/v1/organizations/:id/memberships/:userId',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    audit: { before: { row: 'organization_membership', params: ['id', 'userId'], columns: ['role'] } },
    input: { body: jsonInput({ role: 'role' }) },
    async handler(req, deps) {
      const role = req.fields.string('role');
      return deps.db.transaction(async (tx) => {
        const organization = await organizationOf(tx, req.params.id!);
        const membership = await changeRole(tx, organization, req.params.userId!, role, deps.clock());
        return membershipJSONOf(tx, deps, membership, organization, include);
      });
    },
  },
  {
    method: 'PATCH',
    path: '/v1/organizations/:id/memberships/:userId/metadata',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput(METADATA) },
    async handler(req, deps) {
      const patch = {
        publicMetadata: req.fields.object('public_metadata'),
        privateMetadata: req.fields.object('private_metadata'),
      };
      return deps.db.transaction(async (tx) => {
        const organization = await organizationOf(tx, req.params.id!);
        const membership = await mergeMembershipMetadata(
          tx,
          organization,
          req.params.userId!,
          patch,
          deps.clock(),
        );
        return membershipJSONOf(tx, deps, membership, organization, include);
      });
    },
  },
  {
    method: 'DELETE',
    path: '/v1/organizations/:id/memberships/:userId',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    handler: (req, deps) =>
      deps.db.transaction(async (tx) => {
        const organization = await organizationOf(tx, req.params.id!);
        const membership = await removeMember(tx, deps, organization, req.params.userId!, deps.clock());
        return membershipJSONOf(tx, deps, membership, organization, include);
      }),
  },
  // Verified organisation domains (automatic invitations or suggestions by address domain) are not
  // offered here: an organisation has none, and none can be added (docs/backend-api.md).
  {
    method: 'GET',
    path: '/v1/organizations/:id/domains',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { query: queryInput({ limit: 'page', offset: 'page' }) },
    async handler(req, deps) {
      await organizationOf(deps.db, req.params.id!);
      pageOf(req.query);
      return { data: [], total_count: 0 };
    },
  },
  {
    method: 'POST',
    path: '/v1/organizations/:id/domains',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput({ name: 'string', enrollment_mode: 'string', verified: 'boolean' }) },
    async handler(req, deps) {
      await organizationOf(deps.db, req.params.id!);
      throw errors.notSupportedByThisProvider('organization_domains', ORGANIZATION_DOMAINS);
    },
  },
  {
    method: 'PATCH',
    path: '/v1/organizations/:id/domains/:domainId',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput({ name: 'string', enrollment_mode: 'string', verified: 'boolean' }) },
    async handler(req, deps) {
      await organizationOf(deps.db, req.params.id!);
      throw errors.notFound('organization_domain');
    },
  },
  {
    method: 'DELETE',
    path: '/v1/organizations/:id/domains/:domainId',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      await organizationOf(deps.db, req.params.id!);
      throw errors.notFound('organization_domain');
    },
  },
];

const ORGANIZATION_DOMAINS =
  'Verified organization domains (enrollment by email address domain) are not offered by this provider: members join by invitation or are added through the Backend API (docs/organizations.md).';
