import { ProductApiError, type RequestOptions } from '../../../lib/product-api.ts';
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
 * PATCH /api/organizations/current/settings for the session's active organisation; answers the
 * organisation as GET /api/organizations/current does.
 *
 * The shared helper (productApiFetch in lib/product-api.ts) only sends GETs, and lib/ is being
 * reworked elsewhere, so this one write is sent here with the same headers, error shape
 * (ProductApiError with the API's first `{ code, message }`) and answer parsing.
 */
export async function patchOrganizationSettings(
  change: OrganizationSettingsChange,
  { token, signal }: RequestOptions,
): Promise<CurrentOrganization> {
  let response: Response;
  try {
    response = await fetch(PATH, {
      method: 'PATCH',
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        Authorization: `Bearer ${token}`,
      },
      body: JSON.stringify(change),
      cache: 'no-store',
      signal,
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ProductApiError('Could not reach the product API.', null);
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const first = (body as { errors?: { code?: unknown; message?: unknown }[] } | null)?.errors?.[0];
    throw new ProductApiError(
      typeof first?.message === 'string'
        ? first.message
        : `The product API answered with HTTP ${response.status}.`,
      response.status,
      typeof first?.code === 'string' ? first.code : null,
    );
  }
  const organization = parseCurrentOrganization(body);
  if (!organization) {
    throw new ProductApiError(`The product API sent an unexpected answer for ${PATH}.`, null);
  }
  return organization;
}
