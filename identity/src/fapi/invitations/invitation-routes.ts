import type { IdentityConfig } from '../../config.ts';
import { errors } from '../../errors.ts';
import { authorOf } from '../../impersonation/author.ts';
import { chargeSends, invitationRules } from '../../mail/send-limits.ts';
import {
  acceptInvitationAsUser,
  createInvitations,
  pageOf,
  revokeInvitation,
  statusFilterOf,
} from '../../organizations/invitations.ts';
import { invitationJSON, userInvitationJSON } from '../../serializers/organization.ts';
import { listOrganizationInvitations, listUserInvitations } from '../../store/invitations.ts';
import { organizationsByIds } from '../../store/organizations.ts';
import type { FapiContext, FapiRoute } from '../context.ts';
import { field, type FormBody } from '../form.ts';
import { currentSession } from '../me/me-session.ts';
import { requireOrganization } from '../organizations/access.ts';
import { acceptTicketRoute } from '../tickets/accept-ticket.ts';
import { formInput } from '../form-input.ts';

/** Every value of a repeated form field, trimmed, empty ones dropped. */
function fields(body: FormBody, name: string): string[] {
  const raw = body[name];
  return (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map((v) => v.trim()).filter(Boolean);
}

const imageBase = (ctx: FapiContext) => ctx.deps.fapiBase;

/**
 * Invitations mail text chosen by the inviter (the organisation's name, their own) to any address, so
 * besides each recipient's limit an organisation and a member may send only so many an hour; each
 * address counts once. Counted with the request: a refused one rolls back and sends nothing.
 */
async function chargeInvitations(
  ctx: FapiContext,
  organizationId: string,
  inviterUserId: string,
  count: number,
): Promise<void> {
  const rules = invitationRules(ctx.deps.config.sendLimits, { organizationId, inviterUserId });
  await chargeSends(ctx.tx, Array.from({ length: count }, () => rules).flat(), ctx.now);
}

/** GET /organizations/:id/invitations — Members → Invitations tab (`status` repeated, paginated). */
const listInvitationsRoute: FapiRoute = {
  method: 'GET',
  path: '/organizations/:id/invitations',
  auth: 'session',
  permission: 'org:sys_memberships:read',
  input: { query: formInput({ limit: 'page', offset: 'page', status: 'enum' }) },
  async handler(ctx) {
    const { organization } = await requireOrganization(ctx, ctx.params.id!, 'org:sys_memberships:read');
    const page = await listOrganizationInvitations(
      ctx.tx,
      organization.id,
      statusFilterOf(ctx.query.status, null),
      pageOf(ctx.query),
      ctx.now,
    );
    return {
      response: {
        data: page.data.map((inv) => invitationJSON(inv, organization, { imageBase: imageBase(ctx) })),
        total_count: page.total,
      },
    };
  },
};

/** POST /organizations/:id/invitations — `organization.inviteMember({emailAddress, role})`. */
const createInvitationRoute: FapiRoute = {
  method: 'POST',
  path: '/organizations/:id/invitations',
  auth: 'session',
  permission: 'org:sys_memberships:manage',
  input: { body: formInput({ email_address: 'email', role: 'enum' }) },
  async handler(ctx) {
    const { organization, session, membership } = await requireOrganization(
      ctx,
      ctx.params.id!,
      'org:sys_memberships:manage',
    );
    await chargeInvitations(ctx, organization.id, authorOf(session), 1);
    const [issued] = await createInvitations(
      ctx.tx,
      ctx.deps,
      organization,
      [
        {
          emailAddress: field(ctx.body, 'email_address'),
          role: field(ctx.body, 'role'),
          inviterUserId: authorOf(session),
          inviterRole: membership.role,
        },
      ],
      ctx.now,
    );
    return { response: invitationJSON(issued!.invitation, organization, { imageBase: imageBase(ctx) }) };
  },
};

/** POST /organizations/:id/invitations/bulk — InviteMembersForm: `email_address` repeated, one `role`. */
const createInvitationsBulkRoute: FapiRoute = {
  method: 'POST',
  path: '/organizations/:id/invitations/bulk',
  auth: 'session',
  permission: 'org:sys_memberships:manage',
  input: { body: formInput({ email_address: 'email', role: 'enum' }) },
  async handler(ctx) {
    const { organization, session, membership } = await requireOrganization(
      ctx,
      ctx.params.id!,
      'org:sys_memberships:manage',
    );
    const role = field(ctx.body, 'role');
    const addresses = fields(ctx.body, 'email_address');
    // An oversized request is refused for its size (in createInvitations), not counted address by address.
    if (addresses.length <= ctx.deps.config.sendLimits.invitationsPerBulkRequest) {
      await chargeInvitations(ctx, organization.id, authorOf(session), addresses.length);
    }
    const issued = await createInvitations(
      ctx.tx,
      ctx.deps,
      organization,
      addresses.map((emailAddress) => ({
        emailAddress,
        role,
        inviterUserId: authorOf(session),
        inviterRole: membership.role,
      })),
      ctx.now,
    );
    return {
      response: issued.map((i) => invitationJSON(i.invitation, organization, { imageBase: imageBase(ctx) })),
    };
  },
};

/** POST /organizations/:id/invitations/:invitationId/revoke — InvitedMembersList → Revoke. */
const revokeInvitationRoute: FapiRoute = {
  method: 'POST',
  path: '/organizations/:id/invitations/:invitationId/revoke',
  auth: 'session',
  permission: 'org:sys_memberships:manage',
  input: { body: formInput() },
  async handler(ctx) {
    const { organization, membership } = await requireOrganization(
      ctx,
      ctx.params.id!,
      'org:sys_memberships:manage',
    );
    const revoked = await revokeInvitation(
      ctx.tx,
      organization.id,
      ctx.params.invitationId!,
      ctx.now,
      membership.role,
    );
    return { response: invitationJSON(revoked, organization, { imageBase: imageBase(ctx) }) };
  },
};

/**
 * GET /me/organization_invitations — OrganizationSwitcher/OrganizationList "Join": invitations to any
 * verified address of the user (pending unless `status` says otherwise), whichever organisation sent them.
 */
const listMyInvitationsRoute: FapiRoute = {
  method: 'GET',
  path: '/me/organization_invitations',
  auth: 'session',
  permission: null,
  input: { query: formInput({ limit: 'page', offset: 'page', status: 'enum' }) },
  async handler(ctx) {
    const session = await currentSession(ctx);
    const page = await listUserInvitations(
      ctx.tx,
      session.user_id,
      statusFilterOf(ctx.query.status, ['pending']),
      pageOf(ctx.query),
      ctx.now,
    );
    const organizations = await organizationsByIds(
      ctx.tx,
      page.data.map((inv) => inv.organization_id),
    );
    return {
      response: {
        data: page.data.flatMap((inv) => {
          const org = organizations.get(inv.organization_id);
          return org ? [userInvitationJSON(inv, org, imageBase(ctx))] : [];
        }),
        total_count: page.total,
      },
    };
  },
};

/** POST /me/organization_invitations/:id/accept — the piggy-backed client then carries the membership. */
const acceptMyInvitationRoute: FapiRoute = {
  method: 'POST',
  path: '/me/organization_invitations/:id/accept',
  auth: 'session',
  permission: null,
  input: { body: formInput() },
  async handler(ctx) {
    const session = await currentSession(ctx);
    if (!ctx.params.id) throw errors.notFound('organization invitation');
    const { invitation, organization } = await acceptInvitationAsUser(
      ctx.tx,
      session.user_id,
      ctx.params.id,
      ctx.now,
    );
    return { response: userInvitationJSON(invitation, organization, imageBase(ctx)) };
  },
};

/** Organisation invitations (admin side), the user's own invitations, and the ticket link they mail. */
export function invitationRoutes(_config: IdentityConfig): FapiRoute[] {
  return [
    listInvitationsRoute,
    createInvitationRoute,
    createInvitationsBulkRoute,
    revokeInvitationRoute,
    listMyInvitationsRoute,
    acceptMyInvitationRoute,
    // GET /tickets/accept lives with the invitations that issue its tickets (fapi/tickets/).
    acceptTicketRoute,
  ];
}
