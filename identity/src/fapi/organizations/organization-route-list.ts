import type { IdentityConfig } from '../../config.ts';
import type { FapiRoute } from '../context.ts';
import { deleteLogoRoute, putLogoRoute } from './logo-routes.ts';
import {
  addMembershipRoute,
  listMembershipsRoute,
  removeMembershipRoute,
  updateMembershipRoute,
} from './membership-routes.ts';
import {
  leaveOrganizationRoute,
  listMyMembershipsRoute,
  listMySuggestionsRoute,
} from './my-membership-routes.ts';
import {
  createOrganizationRoute,
  deleteOrganizationRoute,
  getOrganizationRoute,
  updateOrganizationRoute,
} from './organization-routes.ts';
import { listRolesRoute } from './roles-route.ts';

/**
 * Organisations, their roles and memberships, and the user's own memberships. Every route under
 * `/organizations/:id` passes `requireOrganization` (membership, then permission) before anything else.
 */
export function organizationRoutes(_config: IdentityConfig): FapiRoute[] {
  return [
    createOrganizationRoute,
    getOrganizationRoute,
    updateOrganizationRoute,
    deleteOrganizationRoute,
    putLogoRoute,
    deleteLogoRoute,
    listRolesRoute,
    listMembershipsRoute,
    addMembershipRoute,
    updateMembershipRoute,
    removeMembershipRoute,
    listMyMembershipsRoute,
    leaveOrganizationRoute,
    listMySuggestionsRoute,
  ];
}
