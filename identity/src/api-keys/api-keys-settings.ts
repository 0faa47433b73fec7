import { z } from '@app/contract';

/**
 * API keys (Clerk's dashboard → API keys): machine credentials owned by a user or an organisation,
 * managed through `<APIKeys/>` and verified by the Backend API (docs/api-keys.md). Absent: off.
 */
export const apiKeysSettings = z
  .object({
    enabled: z.boolean().default(true),
    /** Users may hold keys of their own (`<UserProfile/>` → API keys). */
    userKeys: z.boolean().default(true),
    /** Organisations may hold keys (`<OrganizationProfile/>` → API keys), by `org:sys_api_keys:*`. */
    organizationKeys: z.boolean().default(true),
  })
  .strict();
export type ApiKeysSettings = z.output<typeof apiKeysSettings>;

/** Whether the instance offers API keys (settings present and on). */
export function apiKeysEnabled(settings: ApiKeysSettings | undefined): settings is ApiKeysSettings {
  return settings?.enabled === true;
}
