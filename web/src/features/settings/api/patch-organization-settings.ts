import type { HttpClient } from '../../../lib/http/index.ts';
import { ProductApiError } from '../../../lib/product-api.ts';
import type { UiLanguage } from '../../../state/auth/organization-metadata.ts';
import type { ModuleKey } from '../../modules/modules.ts';
import {
  parseCurrentOrganization,
  type CurrentOrganization,
} from '../../organizations/api/get-current-organization.ts';

/** The body of PATCH /api/organizations/current/settings: only the keys given change. */
export interface OrganizationSettingsChange {
  modules?: Partial<Record<ModuleKey, boolean>>;
  uiLanguage?: UiLanguage;
}

const PATH = '/api/organizations/current/settings';

/**
 * PATCH /api/organizations/current/settings for the session's active organisation, through the one
 * request client (bearer and localisation interceptors); answers the organisation as GET current does.
 */
export async function patchOrganizationSettings(
  client: HttpClient,
  change: OrganizationSettingsChange,
): Promise<CurrentOrganization> {
  const body = await client.json<unknown>(PATH, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(change),
    cache: 'no-store',
  });
  const organization = parseCurrentOrganization(body);
  if (!organization) {
    throw new ProductApiError(`The product API sent an unexpected answer for ${PATH}.`, null);
  }
  return organization;
}
