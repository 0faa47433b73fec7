import {
  currentOrganizationSchema,
  ORGANIZATION_SETTINGS_PATH,
  type OrganizationSettingsChange,
} from '@app/contract';
import type { HttpClient } from '../../../lib/http/index.ts';
import { parseAnswer } from '../../../lib/product-api.ts';
import type { CurrentOrganization } from '../../organizations/api/get-current-organization.ts';

/** The body of PATCH /api/organizations/current/settings: only the keys given change. */
export type { OrganizationSettingsChange };

/**
 * PATCH /api/organizations/current/settings for the session's active organisation, through the one
 * request client (bearer and localisation interceptors); answers the organisation as GET current does.
 */
export async function patchOrganizationSettings(
  client: HttpClient,
  change: OrganizationSettingsChange,
): Promise<CurrentOrganization> {
  const body = await client.json<unknown>(ORGANIZATION_SETTINGS_PATH, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(change),
    cache: 'no-store',
  });
  return parseAnswer(currentOrganizationSchema, body, ORGANIZATION_SETTINGS_PATH);
}
