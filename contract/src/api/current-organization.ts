import { z } from '../zod.ts';
import {
  organizationPublicMetadataSchema,
  uiLanguageSchema,
  type ModuleFlag,
} from '../organization-metadata.ts';

/**
 * GET /api/organizations/current — the session's active organisation, its default metadata applied.
 * PATCH /api/organizations/current/settings answers the same.
 */
export const CURRENT_ORGANIZATION_PATH = '/api/organizations/current';
export const ORGANIZATION_SETTINGS_PATH = '/api/organizations/current/settings';

export const currentOrganizationSchema = z.object({
  id: z.string(),
  slug: z.string().nullable(),
  name: z.string(),
  publicMetadata: organizationPublicMetadataSchema,
});
export type CurrentOrganization = z.infer<typeof currentOrganizationSchema>;

/** The module keys the settings body uses, each mapped to its public-metadata flag (spec §3). */
export const MODULE_SETTING_FLAGS = {
  vCiso: 'vCisoModuleEnabled',
  compliance: 'complianceModuleEnabled',
  qompanion: 'qompanionModuleEnabled',
  hexadiag: 'hexadiagModuleEnabled',
  passport: 'passportModuleEnabled',
} as const satisfies Record<string, ModuleFlag>;
export type ModuleSettingKey = keyof typeof MODULE_SETTING_FLAGS;
export const MODULE_SETTING_KEYS = Object.keys(MODULE_SETTING_FLAGS) as ModuleSettingKey[];

/**
 * The body of PATCH /api/organizations/current/settings: only the keys given change. Strict: unknown
 * keys (such as an organisation id: the organisation is only ever the token's) are refused, not ignored.
 */
export const organizationSettingsChangeSchema = z.strictObject({
  modules: z
    .strictObject(
      Object.fromEntries(MODULE_SETTING_KEYS.map((key) => [key, z.boolean().optional()])) as Record<
        ModuleSettingKey,
        z.ZodOptional<z.ZodBoolean>
      >,
    )
    .optional(),
  uiLanguage: uiLanguageSchema.optional(),
});
export type OrganizationSettingsChange = z.infer<typeof organizationSettingsChangeSchema>;

/** The metadata merge a settings change makes: only the keys it names. */
export function settingsMetadataPatch(change: OrganizationSettingsChange): Partial<Record<string, unknown>> {
  const patch: Record<string, unknown> = {};
  for (const key of MODULE_SETTING_KEYS) {
    const enabled = change.modules?.[key];
    if (enabled !== undefined) patch[MODULE_SETTING_FLAGS[key]] = enabled;
  }
  if (change.uiLanguage) patch.uiLanguage = change.uiLanguage;
  return patch;
}
