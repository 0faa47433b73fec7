import { pageOf } from '../../organizations/invitations.ts';
import { membershipsJSON, removeMember } from '../../organizations/memberships.ts';
import { listUserMemberships, organizationCounts, organizationsByIds } from '../../store/organizations.ts';
import type { FapiRoute } from '../context.ts';
import { currentSession } from '../me/me-session.ts';
import { requireOrganization } from './access.ts';
import { formInput } from '../form-input.ts';

/**
 * GET /me/organization_memberships — the switcher, <OrganizationList/> and the choose-organization task
 * (`useOrganizationList({userMemberships})`): the user's memberships, each with its organisation.
 */
export const listMyMembershipsRoute: FapiRoute = {
  method: 'GET',
  path: '/me/organization_memberships',
  auth: 'session',
  permission: null,
  input: { query: formInput({ limit: 'page', offset: 'page' }) },
  async handler(ctx) {
    const session = await currentSession(ctx);
    const page = await listUserMemberships(ctx.tx, session.user_id, pageOf(ctx.query));
    const ids = page.data.map((m) => m.organization_id);
    const data = await membershipsJSON(ctx.tx, ctx.deps, page.data, {
      organizations: await organizationsByIds(ctx.tx, ids),
      counts: await organizationCounts(ctx.tx, ids, ctx.now),
    });
    return { response: { data, total_count: page.total } };
  },
};

/**
 * DELETE /me/organization_memberships/:id — `user.leaveOrganization(organizationId)`, which reads a
 * wrapped DeletedObjectJSON. The last admin cannot leave. Sessions that had the organisation active
 * drop it, and the piggy-backed client no longer lists the membership.
 */
export const leaveOrganizationRoute: FapiRoute = {
  method: 'DELETE',
  path: '/me/organization_memberships/:id',
  auth: 'session',
  permission: null,
  input: { body: formInput() },
  async handler(ctx) {
    const { organization, session } = await requireOrganization(ctx, ctx.params.id!);
    const membership = await removeMember(ctx.tx, ctx.deps, organization, session.user_id, ctx.now);
    return { response: { object: 'organization_membership', id: membership.id, deleted: true } };
  },
};

/**
 * GET /me/organization_suggestions — the switcher and <OrganizationList/> always ask (status `pending`
 * and `accepted`). Suggestions come from verified domains, which this instance does not offer.
 */
export const listMySuggestionsRoute: FapiRoute = {
  method: 'GET',
  path: '/me/organization_suggestions',
  auth: 'session',
  permission: null,
  input: { query: formInput({ limit: 'page', offset: 'page' }) },
  async handler(ctx) {
    await currentSession(ctx);
    pageOf(ctx.query); // an empty list, but a bad page is still refused like on every other list
    return { response: { data: [], total_count: 0 } };
  },
};
