import {
  currentOrganizationSchema,
  organizationSettingsChangeSchema,
  settingsMetadataPatch,
} from '@app/contract';
import { withDefaultMetadata } from '../../organizations/default-metadata.ts';
import { readOrganizationWithDefaults } from '../../organizations/organization-with-defaults.ts';
import { answerWith } from '../contract-io.ts';
import { ApiError, isBackendNotFound } from '../errors.ts';
import { ADMIN_RIGHTS_ROLES } from '../require-org-role.ts';
import { authOf } from '../require-auth.ts';
import { productRoute } from '../route.ts';

/**
 * PATCH /api/organizations/current/settings — switches modules on or off and sets the interface
 * language of the token's active organisation, for its admins and virtual security officers. The
 * organisation is only ever the verified token's; the body cannot name one (the contract's schema is
 * strict: unknown keys, wrong types or a body that is not an object are `422 invalid_request`).
 * Answers like GET current.
 */
export const organizationSettingsRoute = productRoute({
  method: 'PATCH',
  path: '/organizations/current/settings',
  auth: 'session_token',
  permission: { roles: ADMIN_RIGHTS_ROLES },
  input: { body: organizationSettingsChangeSchema },
  async handler({ req, body: change }, deps) {
    const orgId = authOf(req).orgId!;
    try {
      // Also writes the defaults on first use, so the answer always has every field.
      const current = await readOrganizationWithDefaults(deps.clerk.organizations, orgId);
      const patch = settingsMetadataPatch(change);
      if (Object.keys(patch).length === 0) return answerWith(currentOrganizationSchema, current);
      const updated = await deps.clerk.organizations.updateOrganizationMetadata(orgId, {
        publicMetadata: patch,
      });
      return answerWith(currentOrganizationSchema, {
        id: updated.id,
        slug: updated.slug || null,
        name: updated.name,
        publicMetadata: withDefaultMetadata(updated.id, updated.publicMetadata),
      });
    } catch (error) {
      if (isBackendNotFound(error)) throw new ApiError('organization_not_found');
      throw error;
    }
  },
});
