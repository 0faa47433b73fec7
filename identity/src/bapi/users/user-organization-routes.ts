import { requireUser } from './require-user.ts';
import { pageOf, statusFilterOf } from '../../organizations/invitations.ts';
import { membershipsJSON } from '../../organizations/memberships.ts';
import { invitationJSON } from '../../serializers/organization.ts';
import { listUserInvitations } from '../../store/invitations.ts';
import { listUserMemberships, organizationsByIds } from '../../store/organizations.ts';
import { queryInput } from '../json-input.ts';
import type { BapiRoute } from '../route.ts';

/**
 * Backend API: a user's organisations (`users.getOrganizationMembershipList`) and the organisation
 * invitations sent to their verified addresses (`users.getOrganizationInvitationList`, every status
 * unless `status` says), each a paginated `{ data, total_count }`.
 */
export const userOrganizationRoutes: BapiRoute[] = [
  {
    method: 'GET',
    path: '/v1/users/:id/organization_memberships',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { query: queryInput({ limit: 'page', offset: 'page' }) },
    async handler(req, deps) {
      const page = pageOf(req.query);
      await requireUser(deps.db, req.params.id!);
      const { data, total } = await listUserMemberships(deps.db, req.params.id!, page);
      return {
        data: await membershipsJSON(deps.db, deps, data, { includePrivate: true }),
        total_count: total,
      };
    },
  },
  {
    method: 'GET',
    path: '/v1/users/:id/organization_invitations',
    auth: 'secret_key',
    permission: 'instance_secret_key',
    input: { query: queryInput({ limit: 'page', offset: 'page', status: 'enum' }) },
    async handler(req, deps) {
      const page = pageOf(req.query);
      const statuses = statusFilterOf(req.query.status, null);
      await requireUser(deps.db, req.params.id!);
      const now = deps.clock();
      const { data, total } = await listUserInvitations(deps.db, req.params.id!, statuses, page, now);
      const organizations = await organizationsByIds(
        deps.db,
        data.map((inv) => inv.organization_id),
      );
      return {
        data: data.flatMap((inv) => {
          const org = organizations.get(inv.organization_id);
          return org ? [invitationJSON(inv, org, { imageBase: deps.fapiBase, includePrivate: true })] : [];
        }),
        total_count: total,
      };
    },
  },
];
