import type { IdentityDeps } from '../../deps.ts';
import { errors } from '../../errors.ts';
import {
  createInvitations,
  findOrganizationInvitation,
  pageOf,
  revokeInvitation,
  statusFilterOf,
  type InvitationRequest,
} from '../../organizations/invitations.ts';
import { invitationJSON } from '../../serializers/organization.ts';
import { listOrganizationInvitations } from '../../store/invitations.ts';
import { findOrganization } from '../../store/organizations.ts';
import type { InvitationRow, OrganizationRow } from '../../store/rows.ts';
import { findUserById } from '../../store/users.ts';
import { JsonBody } from '../request-input.ts';
import type { BapiRoute } from '../route.ts';
import { jsonInput, queryInput } from '../json-input.ts';

/**
 * Backend API: organisation invitations, as `@clerk/backend` 2.10.1's `organizations.*Invitation*` call
 * them. The same service as the Frontend API; `url` (the accept link) is only known when the invitation
 * is (re)issued, since only the ticket's hash is kept.
 */

const json = (deps: IdentityDeps, inv: InvitationRow, org: OrganizationRow, url: string | null = null) => ({
  ...invitationJSON(inv, org, { imageBase: deps.fapiBase, includePrivate: true }),
  url,
});

async function organizationOf(deps: IdentityDeps, idOrSlug: string) {
  const org = await findOrganization(deps.db, idOrSlug);
  if (!org) throw errors.notFound('organization');
  return org;
}

const INVITATION = {
  email_address: 'email',
  role: 'role',
  inviter_user_id: 'id',
  public_metadata: 'object',
  private_metadata: 'object',
  redirect_url: 'string',
  // A number: invitations.ts refuses one that is not a whole count of days in range (param_value_invalid).
  expires_in_days: 'number',
} as const;
const INVITATION_INPUT = jsonInput(INVITATION);

export const invitationRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: '/v1/organizations/:id/invitations',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { query: queryInput({ limit: 'page', offset: 'page', status: 'enum' }) },
    async handler(req, deps) {
      const org = await organizationOf(deps, req.params.id!);
      const page = await listOrganizationInvitations(
        deps.db,
        org.id,
        statusFilterOf(req.query.status, null),
        pageOf(req.query),
        deps.clock(),
      );
      return { data: page.data.map((inv) => json(deps, inv, org)), total_count: page.total };
    },
  },
  {
    method: 'POST',
    path: '/v1/organizations/:id/invitations',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: INVITATION_INPUT },
    async handler(req, deps) {
      const request = await invitationRequest(deps, req.body);
      const [issued] = await issue(deps, req.params.id!, [request]);
      return json(deps, issued!.invitation, issued!.organization, issued!.url);
    },
  },
  {
    method: 'POST',
    path: '/v1/organizations/:id/invitations/bulk',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { array: true, body: INVITATION_INPUT },
    async handler(req, deps) {
      if (!Array.isArray(req.body))
        throw errors.bodyInvalid('The request body must be a JSON array of invitations.');
      const requests: InvitationRequest[] = [];
      for (const item of req.body as unknown[]) requests.push(await invitationRequest(deps, item));
      const issued = await issue(deps, req.params.id!, requests);
      return issued.map((i) => json(deps, i.invitation, i.organization, i.url));
    },
  },
  {
    method: 'GET',
    path: '/v1/organizations/:id/invitations/:invitationId',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: {},
    async handler(req, deps) {
      const org = await organizationOf(deps, req.params.id!);
      const inv = await findOrganizationInvitation(deps.db, org.id, req.params.invitationId!, deps.clock());
      if (!inv) throw errors.notFound('organization invitation');
      return json(deps, inv, org);
    },
  },
  {
    method: 'POST',
    path: '/v1/organizations/:id/invitations/:invitationId/revoke',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { body: jsonInput({ requesting_user_id: 'string' }) },
    async handler(req, deps) {
      // `requesting_user_id` is accepted and not needed: the secret key already authorises the call.
      // It must still be what the SDK sends (a string), like every other parameter.
      req.fields.string('requesting_user_id');
      const { org, revoked } = await deps.db.transaction(async (tx) => {
        const org = await findOrganization(tx, req.params.id!);
        if (!org) throw errors.notFound('organization');
        return {
          org,
          revoked: await revokeInvitation(tx, org.id, req.params.invitationId!, deps.clock()),
        };
      });
      return json(deps, revoked, org);
    },
  },
];

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
  const fields = new JsonBody(body, INVITATION_INPUT);
  const text = (name: string): string | undefined => fields.string(name) || undefined;
  const inviterUserId = text('inviter_user_id');
  if (inviterUserId && !(await findUserById(deps.db, inviterUserId))) {
    throw errors.paramValueInvalid('inviter_user_id', `No user with id ${inviterUserId}.`);
  }
  const days = fields.number('expires_in_days');
  return {
    emailAddress: text('email_address'),
    role: text('role'),
    inviterUserId: inviterUserId ?? null,
    publicMetadata: fields.object('public_metadata'),
    privateMetadata: fields.object('private_metadata'),
    redirectUrl: text('redirect_url'),
    expiresInDays: days,
  };
}
