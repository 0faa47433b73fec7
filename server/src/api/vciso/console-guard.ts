import type { FastifyRequest } from 'fastify';
import {
  readOrganizationWithDefaults,
  type ProductOrganization,
} from '../../organizations/organization-with-defaults.ts';
import { consoleRefusal } from '../../organizations/hierarchy-rules.ts';
import type { ApiDeps } from '../deps.ts';
import { ApiError, isBackendNotFound } from '../errors.ts';
import { activeOrganizationIdOf, authOf } from '../require-auth.ts';
import { HierarchyError } from './errors.ts';

/** The token's active organisation, with its default metadata; 404 without one or once it is gone. */
export async function readActiveOrganization(
  deps: ApiDeps,
  req: FastifyRequest,
): Promise<ProductOrganization> {
  const orgId = activeOrganizationIdOf(req);
  if (!orgId) throw new ApiError('no_active_organization');
  try {
    return await readOrganizationWithDefaults(deps.clerk.organizations, orgId);
  } catch (error) {
    if (isBackendNotFound(error)) throw new ApiError('organization_not_found');
    throw error;
  }
}

/**
 * A preHandler, after requireAuth, for the console's routes: the caller's role in the token's active
 * organisation must be `org:vciso` (from the verified token, never the request) and the organisation
 * must have the vCISO module; otherwise 403 `forbidden`, before the body is looked at.
 */
export function requireVcisoConsole(deps: ApiDeps) {
  return async (req: FastifyRequest) => {
    const { orgId, orgRole } = authOf(req);
    // The role first: a caller who is not a vCISO learns nothing about the organisation.
    const byRole = consoleRefusal({ role: orgId ? orgRole : null, vCisoModuleEnabled: true });
    if (byRole) throw HierarchyError.from(byRole);
    const organization = await readActiveOrganization(deps, req);
    const byModule = consoleRefusal({
      role: orgRole,
      vCisoModuleEnabled: organization.publicMetadata.vCisoModuleEnabled === true,
    });
    if (byModule) throw HierarchyError.from(byModule);
  };
}
