import {
  currentOrganizationSchema,
  ORGANIZATION_SETTINGS_PATH,
  type OrganizationSettingsChange,
} from '@app/contract';
import type { HttpClient } from '../../../lib/http/index.ts';
import { productApiSend } from '../../../lib/product-api.ts';
import type { CurrentOrganization } from '../../organizations/api/get-current-organization.ts';

/** The body of PATCH /api/organizations/current/settings: only the keys given change. */
export type { OrganizationSettingsChange };

/**
 * PATCH /api/organizations/current/settings for the session's active organisation, through the one
 * request client (bearer and localisation interceptors); answers the organisation as GET current does.
 */
export function patchOrganizationSettings(
  client: HttpClient,
  change: OrganizationSettingsChange,
): Promise<CurrentOrganization> {
  return productApiSend(client, 'PATCH', ORGANIZATION_SETTINGS_PATH, change, currentOrganizationSchema);
}
