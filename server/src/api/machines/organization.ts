import { currentOrganizationSchema, organizationIdSchema } from '@app/contract';
import { readOrganizationWithDefaults } from '../../organizations/organization-with-defaults.ts';
import { answerWith } from '../contract-io.ts';
import { ApiError, isBackendNotFound } from '../errors.ts';
import { productRoute } from '../route.ts';

/**
 * GET /api/machine/organizations/:organizationId — an organisation `{ id, slug, name, publicMetadata }`
 * (its modules, language, hierarchy and subscription flag), for a machine: a back-office service of the
 * operator's (a scanner, a report builder, a provisioning job) that must know, say, whether an organisation
 * has its compliance module on before it serves it. Machines act for the operator across organisations,
 * so only the machines the operator scoped to the product's machine are taken (docs/api-keys.md); people,
 * API keys and OAuth applications are refused. Read only: a machine changes nothing here.
 */
export const machineOrganizationRoute = productRoute({
  method: 'GET',
  path: '/machine/organizations/:organizationId',
  auth: 'm2m_token',
  permission: 'machine',
  // Only ids: the Backend API also takes a slug where an id goes.
  input: { params: { organizationId: organizationIdSchema } },
  async handler({ params }, deps) {
    try {
      return answerWith(
        currentOrganizationSchema,
        await readOrganizationWithDefaults(deps.clerk.organizations, params.organizationId),
      );
    } catch (error) {
      if (isBackendNotFound(error)) throw new ApiError('organization_not_found');
      throw error;
    }
  },
});
