import { currentOrganizationSchema } from '@app/contract';
import type { FastifyInstance } from 'fastify';
import { readOrganizationWithDefaults } from '../../organizations/organization-with-defaults.ts';
import { answerWith } from '../contract-io.ts';
import type { ApiDeps } from '../deps.ts';
import { ApiError, isBackendNotFound } from '../errors.ts';
import { activeOrganizationIdOf, requireAuth } from '../require-auth.ts';

/**
 * GET /api/organizations/current — the session's active organisation `{ id, slug, name, publicMetadata }`,
 * with its default metadata written on first read. Only the verified token's org id is ever used, so
 * a caller can never read another organisation through this route. An organisation's API key reads its
 * own organisation here (docs/api-keys.md).
 */
export function registerCurrentOrganizationRoute(api: FastifyInstance, deps: ApiDeps) {
  api.get(
    '/organizations/current',
    { preHandler: requireAuth(deps), config: { acceptsApiKey: true } },
    async (req) => {
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
  );
}
