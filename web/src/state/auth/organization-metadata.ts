/**
 * An organisation's public metadata (spec §3). The product server writes it (with its defaults on
 * first read); the browser only reads it, so every field is optional here until the server has answered.
 */
export const MODULE_FLAGS = [
  'vCisoModuleEnabled',
  'complianceModuleEnabled',
  'qompanionModuleEnabled',
  'hexadiagModuleEnabled',
  'passportModuleEnabled',
] as const;
export type ModuleFlag = (typeof MODULE_FLAGS)[number];

export const UI_LANGUAGES = ['EN', 'FR'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];

export const SUBSCRIPTION_STATUSES = ['YES', 'NO', 'TRIAL'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export type OrganizationPublicMetadata = Partial<Record<ModuleFlag, boolean>> & {
  organizationId?: string;
  uiLanguage?: UiLanguage;
  /** Ids of the client organisations a virtual security officer manages from this one. */
  vcisoChildOrganizations?: string[];
  parentOrganizationId?: string | null;
  hasActiveSubscription?: SubscriptionStatus;
};

const isOneOf = <T extends string>(values: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (values as readonly string[]).includes(value);

/**
 * Keeps the known fields that have the right type and drops the rest: metadata arrives from Clerk
 * resources and the product API as untyped JSON.
 */
export function parseOrganizationPublicMetadata(raw: unknown): OrganizationPublicMetadata {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  const source = raw as Record<string, unknown>;
  const metadata: OrganizationPublicMetadata = {};
  if (typeof source.organizationId === 'string') metadata.organizationId = source.organizationId;
  for (const flag of MODULE_FLAGS) if (typeof source[flag] === 'boolean') metadata[flag] = source[flag];
  if (isOneOf(UI_LANGUAGES, source.uiLanguage)) metadata.uiLanguage = source.uiLanguage;
  if (isOneOf(SUBSCRIPTION_STATUSES, source.hasActiveSubscription))
    metadata.hasActiveSubscription = source.hasActiveSubscription;
  if (Array.isArray(source.vcisoChildOrganizations))
    metadata.vcisoChildOrganizations = source.vcisoChildOrganizations.filter(
      (id): id is string => typeof id === 'string',
    );
  if (source.parentOrganizationId === null || typeof source.parentOrganizationId === 'string')
    metadata.parentOrganizationId = source.parentOrganizationId;
  return metadata;
}
