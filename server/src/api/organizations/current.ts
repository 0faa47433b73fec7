import { currentOrganizationSchema } from '@app/contract';
import { readOrganizationWithDefaults } from '../../organizations/organization-with-defaults.ts';
import { answerWith } from '../contract-io.ts';
import { ApiError, isBackendNotFound } from '../errors.ts';
import { activeOrganizationIdOf } from '../require-auth.ts';
import { productRoute } from '../route.ts';

/**
 * GET /api/organizations/current — the session's active organisation `{ id, slug, name, publicMetadata }`,
 * with its default metadata written on first read. Only the verified token's org id is ever used, so
 * a caller can never read another organisation through this route. An organisation's API key reads its
 * own organisation here (docs/api-keys.md).
 */
export const currentOrganizationRoute = productRoute({
  method: 'GET',
  path: '/organizations/current',
  auth: 'session_token_or_api_key',
  permission: 'signed_in',
  async handler({ req }, deps) {
    const orgId = activeOrganizationIdOf(req);
    if (!orgId) throw new ApiError('no_active_organization');
    try {
      return answerWith(
        currentOrganizationSchema,
        await readOrganizationWithDefaults(deps.clerk.organizations, orgId),
      );
    } catch (error) {
      // Deleted while the (up to 60 s) session token still names it.
      if (isBackendNotFound(error)) throw new ApiError('organization_not_found');
      throw error;
    }
  },
});
