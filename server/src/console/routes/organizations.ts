import { z } from '@app/contract';
import { childrenOf, parentOf } from '../../organizations/hierarchy-rules.ts';
import { consoleRoute } from '../console-route.ts';
import { organizationIdParam, pageQuery, searchText } from './ids.ts';

/**
 * GET /console/api/organizations?query=&limit=&offset= — `organizations.getOrganizationList({ query,
 * includeMembersCount: true })`: the query matches names, slugs and ids.
 */
export const listOrganizationsRoute = consoleRoute({
  method: 'GET',
  path: '/organizations',
  permission: 'operator',
  input: { query: z.object({ query: searchText, ...pageQuery }) },
  async handler({ operator, query: { query, limit, offset } }, { backend }) {
    return backend.call<{ data: unknown[]; total_count: number }>('GET', '/organizations', {
      operatorId: operator.userId,
      query: {
        query: query || undefined,
        limit,
        offset,
        include_members_count: true,
        order_by: '-created_at',
      },
    });
  },
});

/**
 * GET /console/api/organizations/:organizationId — the organisation (`getOrganization`, with its
 * metadata), its members (`getOrganizationMembershipList`), its pending invitations
 * (`getOrganizationInvitationList({ status: ['pending'] })`), and its parent and client organisations as
 * the product's hierarchy projects them into its public metadata (docs/client-organizations.md).
 */
export const getOrganizationRoute = consoleRoute({
  method: 'GET',
  path: '/organizations/:organizationId',
  permission: 'operator',
  input: { params: { organizationId: organizationIdParam } },
  async handler({ operator, params: { organizationId } }, { backend }) {
    const operatorId = operator.userId;
    const organization = await backend.call<{ public_metadata?: Record<string, unknown> | null }>(
      'GET',
      `/organizations/${organizationId}`,
      { operatorId, query: { include_members_count: true } },
    );
    const [memberships, invitations] = await Promise.all([
      backend.call<{ data: unknown[] }>('GET', `/organizations/${organizationId}/memberships`, {
        operatorId,
        query: { limit: 100 },
      }),
      backend.call<{ data: unknown[] }>('GET', `/organizations/${organizationId}/invitations`, {
        operatorId,
        query: { status: 'pending', limit: 100 },
      }),
    ]);
    return {
      organization,
      memberships: memberships.data,
      invitations: invitations.data,
      parent_id: parentOf(organization.public_metadata),
      children_ids: childrenOf(organization.public_metadata),
    };
  },
});

export const organizationConsoleRoutes = [listOrganizationsRoute, getOrganizationRoute];
