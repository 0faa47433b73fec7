import type { FastifyInstance } from 'fastify';
import type { IdentityDeps } from '../../deps.ts';
import { errors } from '../../errors.ts';
import {
  createInvitations,
  findOrganizationInvitation,
  listOrganizationInvitations,
  pageOf,
  revokeInvitation,
  statusFilterOf,
  type InvitationRequest,
} from '../../organizations/invitations.ts';
import { invitationJSON } from '../../serializers/organization.ts';
import { findOrganization } from '../../store/organizations.ts';
import type { InvitationRow, OrganizationRow } from '../../store/rows.ts';
import { findUserById } from '../../store/users.ts';
import { JsonBody } from '../organizations/request-input.ts';
import { sendJson } from '../send-json.ts';

type Query = Record<string, string | string[] | undefined>;
type Params = { id: string; invitationId: string };

/**
 * Backend API: organisation invitations, as `@clerk/backend` 2.10.1's `organizations.*Invitation*` call
 * them. The same service as the Frontend API; `url` (the accept link) is only known when the invitation
 * is (re)issued, since only the ticket's hash is kept.
 */
export async function registerInvitationBapi(app: FastifyInstance, deps: IdentityDeps): Promise<void> {
  registerRoutes(app, deps);
}

function registerRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  const json = (inv: InvitationRow, org: OrganizationRow, url: string | null = null) => ({
    ...invitationJSON(inv, org, { imageBase: deps.fapiBase, includePrivate: true }),
    url,
  });
  const organizationOf = async (idOrSlug: string) => {
    const org = await findOrganization(deps.db, idOrSlug);
    if (!org) throw errors.notFound('organization');
    return org;
  };

  app.get<{ Params: Params; Querystring: Query }>('/v1/organizations/:id/invitations', async (req, reply) => {
    const org = await organizationOf(req.params.id);
    const page = await listOrganizationInvitations(
      deps.db,
      org.id,
      statusFilterOf(req.query.status, null),
      pageOf(req.query),
      deps.clock(),
    );
    return sendJson(reply, 200, { data: page.data.map((inv) => json(inv, org)), total_count: page.total });
  });

  app.post<{ Params: Params }>('/v1/organizations/:id/invitations', async (req, reply) => {
    const request = await invitationRequest(deps, req.body);
    const [issued] = await issue(deps, req.params.id, [request]);
    return sendJson(reply, 200, json(issued!.invitation, issued!.organization, issued!.url));
  });

  app.post<{ Params: Params }>('/v1/organizations/:id/invitations/bulk', async (req, reply) => {
    if (!Array.isArray(req.body))
      throw errors.bodyInvalid('The request body must be a JSON array of invitations.');
    const requests: InvitationRequest[] = [];
    for (const item of req.body as unknown[]) requests.push(await invitationRequest(deps, item));
    const issued = await issue(deps, req.params.id, requests);
    return sendJson(
      reply,
      200,
      issued.map((i) => json(i.invitation, i.organization, i.url)),
    );
  });

  app.get<{ Params: Params }>('/v1/organizations/:id/invitations/:invitationId', async (req, reply) => {
    const org = await organizationOf(req.params.id);
    const inv = await findOrganizationInvitation(deps.db, org.id, req.params.invitationId, deps.clock());
    if (!inv) throw errors.notFound('organization invitation');
    return sendJson(reply, 200, json(inv, org));
  });

  app.post<{ Params: Params }>(
    '/v1/organizations/:id/invitations/:invitationId/revoke',
    async (req, reply) => {
      // `requesting_user_id` is accepted and not needed: the secret key already authorises the call.
      // It must still be what the SDK sends (a string), like every other parameter.
      new JsonBody(req.body).string('requesting_user_id');
      const { org, revoked } = await deps.db.transaction(async (tx) => {
        const org = await findOrganization(tx, req.params.id);
        if (!org) throw errors.notFound('organization');
        return { org, revoked: await revokeInvitation(tx, org.id, req.params.invitationId, deps.clock()) };
      });
      return sendJson(reply, 200, json(revoked, org));
    },
  );
}

async function issue(deps: IdentityDeps, idOrSlug: string, requests: InvitationRequest[]) {
  return deps.db.transaction(async (tx) => {
    const org = await findOrganization(tx, idOrSlug);
    if (!org) throw errors.notFound('organization');
    const issued = await createInvitations(tx, deps, org, requests, deps.clock());
    return issued.map((i) => ({ ...i, organization: org }));
  });
}

/** One invitation of a create/bulk body (snake_case JSON). */
async function invitationRequest(deps: IdentityDeps, body: unknown): Promise<InvitationRequest> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw errors.bodyInvalid('Each invitation must be a JSON object.');
  }
  const b = body as Record<string, unknown>;
  const text = (name: string): string | undefined => {
    const v = b[name];
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v !== 'string') throw errors.paramFormatInvalid(name, 'a string');
    return v;
  };
  const object = (name: string): Record<string, unknown> | undefined => {
    const v = b[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'object' || Array.isArray(v)) throw errors.paramFormatInvalid(name, 'a JSON object');
    return v as Record<string, unknown>;
  };
  const inviterUserId = text('inviter_user_id');
  if (inviterUserId && !(await findUserById(deps.db, inviterUserId))) {
    throw errors.paramValueInvalid('inviter_user_id', `No user with id ${inviterUserId}.`);
  }
  const days = b.expires_in_days;
  if (days !== undefined && days !== null && typeof days !== 'number') {
    throw errors.paramFormatInvalid('expires_in_days', 'a number');
  }
  return {
    emailAddress: text('email_address'),
    role: text('role'),
    inviterUserId: inviterUserId ?? null,
    publicMetadata: object('public_metadata'),
    privateMetadata: object('private_metadata'),
    redirectUrl: text('redirect_url'),
    expiresInDays: typeof days === 'number' ? days : undefined,
  };
}
