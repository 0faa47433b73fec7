/**
 * An organisation's public metadata (spec §3): which modules are switched on, its language, its
 * subscription and its place in the virtual-security-officer hierarchy. Only the product server
 * writes it, through the Backend API; the browser can read it but never write it.
 */
export const MODULE_FLAGS = [
  'vCisoModuleEnabled',
  'complianceModuleEnabled',
  'qompanionModuleEnabled',
  'hexadiagModuleEnabled',
  'passportModuleEnabled',
] as const;
export type ModuleFlag = (typeof MODULE_FLAGS)[number];

export type UiLanguage = 'EN' | 'FR';
export type SubscriptionStatus = 'YES' | 'NO' | 'TRIAL';

// A type alias, not an interface, so that it is assignable to the Backend API's index-signature type.
export type OrganizationPublicMetadata = Record<ModuleFlag, boolean> & {
  /** The organisation's own id: its presence marks metadata whose defaults have been written. */
  organizationId: string;
  uiLanguage: UiLanguage;
  /** Ids of the client organisations a virtual security officer manages from this one. */
  vcisoChildOrganizations: string[];
  parentOrganizationId: string | null;
  hasActiveSubscription: SubscriptionStatus;
};

export const DEFAULT_UI_LANGUAGE: UiLanguage = 'FR';

/** The metadata a new organisation starts with: every module off, French, no subscription, no family. */
export function defaultOrganizationMetadata(organizationId: string): OrganizationPublicMetadata {
  return {
    organizationId,
    vCisoModuleEnabled: false,
    complianceModuleEnabled: false,
    qompanionModuleEnabled: false,
    hexadiagModuleEnabled: false,
    passportModuleEnabled: false,
    uiLanguage: DEFAULT_UI_LANGUAGE,
    hasActiveSubscription: 'NO',
    vcisoChildOrganizations: [],
    parentOrganizationId: null,
  };
}

/**
 * What to merge into `stored` so the organisation has its defaults, or null when it already has them
 * (its metadata names its organizationId). Keys already present are left out, so a value written
 * before the first read (e.g. a module switched on through the Backend API) is never overwritten.
 */
export function defaultMetadataPatch(
  organizationId: string,
  stored: Record<string, unknown> | null,
): Partial<OrganizationPublicMetadata> | null {
  const current = stored ?? {};
  if (typeof current.organizationId === 'string') return null;
  const defaults = defaultOrganizationMetadata(organizationId);
  const patch: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(defaults)) if (!(key in current)) patch[key] = value;
  // organizationId is absent (or not a string) here, so it is always part of the patch.
  patch.organizationId = organizationId;
  return patch as Partial<OrganizationPublicMetadata>;
}

/**
 * The metadata as the product shows it: the defaults under what is stored. Needed even after the
 * defaults are written, because a merge drops null values (`parentOrganizationId: null` is not stored).
 */
export function withDefaultMetadata(
  organizationId: string,
  stored: Record<string, unknown> | null,
): OrganizationPublicMetadata & Record<string, unknown> {
  return { ...defaultOrganizationMetadata(organizationId), ...(stored ?? {}) };
}
