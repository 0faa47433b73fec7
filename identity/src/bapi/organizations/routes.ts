import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import type { IdentityDeps } from '../../deps.ts';
import { ClerkError, errors } from '../../errors.ts';
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
import { IMAGE_TOO_LARGE, MAX_IMAGE_BYTES, validateImage } from '../../images/image-file.ts';
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
import { sendJson } from '../send-json.ts';
import { JsonBody, orderOf, queryFlag, queryList, queryString } from './request-input.ts';

type Query = Record<string, string | string[] | undefined>;
type Params = { id: string; userId: string };

/**
 * Backend API: organisations and their memberships, as `@clerk/backend` 2.10.1's `organizations.*`
 * calls them (the same services and rules as the Frontend API; the secret key stands for an
 * administrator, so no per-user permission applies). `:id` is an id or a slug wherever Clerk allows it.
 */
export async function registerOrganizationBapi(app: FastifyInstance, deps: IdentityDeps): Promise<void> {
  // Its own scope, so the multipart parser (logo uploads) applies to these routes only.
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 10, parts: 11 },
    });
    registerOrganizationRoutes(scope, deps);
    registerMembershipRoutes(scope, deps);
  });
}

async function organizationOf(db: Queryable, idOrSlug: string): Promise<OrganizationRow> {
  const organization = await findOrganization(db, idOrSlug);
  if (!organization) throw errors.notFound('organization');
  return organization;
}

function registerOrganizationRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  const json = (org: OrganizationRow, counts?: { members: number; pendingInvitations: number }) =>
    organizationJSON(org, { imageBase: deps.fapiBase, includePrivate: true, counts });
  const withCounts = async (db: Queryable, orgs: OrganizationRow[]) => {
    const counts = await organizationCounts(
      db,
      orgs.map((o) => o.id),
      deps.clock(),
    );
    return orgs.map((o) => json(o, counts.get(o.id)));
  };

  app.get<{ Querystring: Query }>('/v1/organizations', async (req, reply) => {
    const q = req.query;
    const page = await listOrganizations(
      deps.db,
      { organizationIds: queryList(q, 'organization_id'), query: queryString(q, 'query') },
      pageOf(q),
      orderOf(q, ORGANIZATION_ORDER_KEYS, '-created_at'),
    );
    const data = queryFlag(q, 'include_members_count')
      ? await withCounts(deps.db, page.data)
      : page.data.map((o) => json(o));
    return sendJson(reply, 200, { data, total_count: page.total });
  });

  app.post('/v1/organizations', async (req, reply) => {
    const body = new JsonBody(req.body);
    const createdBy = body.string('created_by')?.trim() || null;
    const input = {
      name: body.string('name'),
      slug: body.string('slug') || undefined,
      createdBy,
      publicMetadata: body.object('public_metadata'),
      privateMetadata: body.object('private_metadata'),
      maxAllowedMemberships: body.integer('max_allowed_memberships'),
    };
    const organization = await deps.db.transaction(async (tx) => {
      if (createdBy && !(await findUserById(tx, createdBy))) {
        throw errors.paramValueInvalid('created_by', `No user with id ${createdBy}.`);
      }
      return createOrganization(tx, input, deps.clock());
    });
    const [data] = await withCounts(deps.db, [organization]);
    return sendJson(reply, 200, data);
  });

  app.get<{ Params: Params; Querystring: Query }>('/v1/organizations/:id', async (req, reply) => {
    const organization = await organizationOf(deps.db, req.params.id);
    if (!queryFlag(req.query, 'include_members_count')) return sendJson(reply, 200, json(organization));
    const [data] = await withCounts(deps.db, [organization]);
    return sendJson(reply, 200, data);
  });

  app.patch<{ Params: Params }>('/v1/organizations/:id', async (req, reply) => {
    const body = new JsonBody(req.body);
    const update = {
      name: body.string('name'),
      slug: body.string('slug'),
      publicMetadata: body.object('public_metadata'),
      privateMetadata: body.object('private_metadata'),
      maxAllowedMemberships: body.integer('max_allowed_memberships'),
      adminDeleteEnabled: body.boolean('admin_delete_enabled'),
    };
    const organization = await deps.db.transaction(async (tx) =>
      updateOrganization(tx, await organizationOf(tx, req.params.id), update, deps.clock()),
    );
    return sendJson(reply, 200, json(organization));
  });

  app.delete<{ Params: Params }>('/v1/organizations/:id', async (req, reply) => {
    const deleted = await deps.db.transaction(async (tx) =>
      deleteOrganization(tx, deps, await organizationOf(tx, req.params.id), deps.clock()),
    );
    return sendJson(reply, 200, deleted);
  });

  /** Deep merge; `null` deletes a key at any depth. */
  app.patch<{ Params: Params }>('/v1/organizations/:id/metadata', async (req, reply) => {
    const body = new JsonBody(req.body);
    const patch = {
      publicMetadata: body.object('public_metadata'),
      privateMetadata: body.object('private_metadata'),
    };
    const organization = await deps.db.transaction(async (tx) => {
      const org = await organizationOf(tx, req.params.id);
      return mergeOrganizationMetadata(tx, org.id, patch, deps.clock());
    });
    return sendJson(reply, 200, json(organization));
  });

  /** `updateOrganizationLogo`: multipart `file` (and `uploader_user_id`, which changes nothing here). */
  app.put<{ Params: Params }>('/v1/organizations/:id/logo', async (req, reply) => {
    if (!req.isMultipart()) throw errors.imageInvalid('Upload the image as multipart field `file`.');
    let logo: ReturnType<typeof validateImage> | undefined;
    try {
      for await (const part of req.parts()) {
        if (part.type !== 'file') continue;
        const data = await part.toBuffer();
        if (part.fieldname === 'file' && !logo) logo = validateImage(data, part.mimetype);
      }
    } catch (err) {
      if (err instanceof ClerkError) throw err;
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        throw errors.imageInvalid(IMAGE_TOO_LARGE);
      }
      throw errors.bodyInvalid('The multipart request body could not be read.');
    }
    if (!logo) throw errors.imageInvalid('Choose an image file to upload.');
    const image = logo;
    const organization = await deps.db.transaction(async (tx) =>
      setOrganizationLogo(tx, (await organizationOf(tx, req.params.id)).id, image, deps.clock()),
    );
    return sendJson(reply, 200, json(organization));
  });

  app.delete<{ Params: Params }>('/v1/organizations/:id/logo', async (req, reply) => {
    const organization = await deps.db.transaction(async (tx) =>
      setOrganizationLogo(tx, (await organizationOf(tx, req.params.id)).id, null, deps.clock()),
    );
    return sendJson(reply, 200, json(organization));
  });
}

function registerMembershipRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  const include = { includePrivate: true };

  app.get<{ Params: Params; Querystring: Query }>('/v1/organizations/:id/memberships', async (req, reply) => {
    const q = req.query;
    const organization = await organizationOf(deps.db, req.params.id);
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
    return sendJson(reply, 200, { data, total_count: page.total });
  });

  app.post<{ Params: Params }>('/v1/organizations/:id/memberships', async (req, reply) => {
    const body = new JsonBody(req.body);
    const input = { userId: body.string('user_id'), role: body.string('role') };
    const data = await deps.db.transaction(async (tx) => {
      const organization = await organizationOf(tx, req.params.id);
      const membership = await addMember(tx, organization, input, deps.clock());
      return membershipJSONOf(tx, deps, membership, organization, include);
    });
    return sendJson(reply, 200, data);
  });

  app.patch<{ Params: Params }>('/v1/organizations/:id/memberships/:userId', async (req, reply) => {
    const role = new JsonBody(req.body).string('role');
    const data = await deps.db.transaction(async (tx) => {
      const organization = await organizationOf(tx, req.params.id);
      const membership = await changeRole(tx, organization, req.params.userId, role, deps.clock());
      return membershipJSONOf(tx, deps, membership, organization, include);
    });
    return sendJson(reply, 200, data);
  });

  app.patch<{ Params: Params }>('/v1/organizations/:id/memberships/:userId/metadata', async (req, reply) => {
    const body = new JsonBody(req.body);
    const patch = {
      publicMetadata: body.object('public_metadata'),
      privateMetadata: body.object('private_metadata'),
    };
    const data = await deps.db.transaction(async (tx) => {
      const organization = await organizationOf(tx, req.params.id);
      const membership = await mergeMembershipMetadata(
        tx,
        organization,
        req.params.userId,
        patch,
        deps.clock(),
      );
      return membershipJSONOf(tx, deps, membership, organization, include);
    });
    return sendJson(reply, 200, data);
  });

  app.delete<{ Params: Params }>('/v1/organizations/:id/memberships/:userId', async (req, reply) => {
    const data = await deps.db.transaction(async (tx) => {
      const organization = await organizationOf(tx, req.params.id);
      const membership = await removeMember(tx, deps, organization, req.params.userId, deps.clock());
      return membershipJSONOf(tx, deps, membership, organization, include);
    });
    return sendJson(reply, 200, data);
  });
}
