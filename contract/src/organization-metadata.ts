import { z } from './zod.ts';

/**
 * An organisation's public metadata (spec §3): which modules are switched on, its language, its
 * subscription and its place in the virtual-security-officer hierarchy. Only the product server
 * writes it, through the Backend API; browsers read it (from Clerk's resources and the product API).
 *
 * It arrives as untyped JSON that anyone holding the secret key may have written, so reading it never
 * fails: a known field that is missing or malformed reads as its default, unknown keys are kept.
 */
export const MODULE_FLAGS = [
  'vCisoModuleEnabled',
  'complianceModuleEnabled',
  'qompanionModuleEnabled',
  'hexadiagModuleEnabled',
  'passportModuleEnabled',
] as const;
export const moduleFlagSchema = z.enum(MODULE_FLAGS);
export type ModuleFlag = z.infer<typeof moduleFlagSchema>;

export const UI_LANGUAGES = ['EN', 'FR'] as const;
export const uiLanguageSchema = z.enum(UI_LANGUAGES);
export type UiLanguage = z.infer<typeof uiLanguageSchema>;
export const DEFAULT_UI_LANGUAGE: UiLanguage = 'FR';

export const SUBSCRIPTION_STATUSES = ['YES', 'NO', 'TRIAL'] as const;
export const subscriptionStatusSchema = z.enum(SUBSCRIPTION_STATUSES);
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;
/**
 * Derived by the product server from the organisation's billing subscription (docs/billing.md), never set
 * by hand; missing or anything unexpected reads as no subscription.
 */
export const DEFAULT_SUBSCRIPTION_STATUS: SubscriptionStatus = 'NO';

/** Only a non-empty string names a parent. */
const parentIdSchema = z.string().min(1).nullable();
/** A list of children keeps its strings only. */
const childIdsSchema = z.array(z.unknown()).transform((ids) => ids.filter((id) => typeof id === 'string'));

const moduleFlagShape = Object.fromEntries(MODULE_FLAGS.map((flag) => [flag, z.boolean()])) as Record<
  ModuleFlag,
  z.ZodBoolean
>;

/**
 * The complete metadata, as the product API answers it (defaults applied). Loose: keys the product
 * does not know are carried through, since the metadata is shared with whoever else writes it.
 */
export const organizationPublicMetadataSchema = z.looseObject({
  /** The organisation's own id: its presence marks metadata whose defaults have been written. */
  organizationId: z.string(),
  ...moduleFlagShape,
  uiLanguage: uiLanguageSchema,
  hasActiveSubscription: subscriptionStatusSchema,
  /** Ids of the client organisations a virtual security officer manages from this one. */
  vcisoChildOrganizations: z.array(z.string()),
  parentOrganizationId: parentIdSchema,
});
export type OrganizationPublicMetadata = z.infer<typeof organizationPublicMetadataSchema>;

/** What is known of the metadata before the product server has answered: each field when well formed. */
export type PartialOrganizationPublicMetadata = Partial<OrganizationPublicMetadata>;

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
    hasActiveSubscription: DEFAULT_SUBSCRIPTION_STATUS,
    vcisoChildOrganizations: [],
    parentOrganizationId: null,
  };
}

const fieldSchemas = {
  organizationId: z.string(),
  ...moduleFlagShape,
  uiLanguage: uiLanguageSchema,
  hasActiveSubscription: subscriptionStatusSchema,
  vcisoChildOrganizations: childIdsSchema,
  parentOrganizationId: parentIdSchema,
} as const;
const KNOWN_FIELDS = Object.keys(fieldSchemas) as (keyof typeof fieldSchemas)[];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The known fields of `raw` that are well formed (unknown keys and malformed values left out): what
 * the browser can trust of Clerk's copy before the product server has written the defaults.
 */
export function parseOrganizationPublicMetadata(raw: unknown): PartialOrganizationPublicMetadata {
  if (!isRecord(raw)) return {};
  const metadata: Record<string, unknown> = {};
  for (const key of KNOWN_FIELDS) {
    if (!Object.hasOwn(raw, key)) continue;
    const parsed = fieldSchemas[key].safeParse(raw[key]);
    if (parsed.success) metadata[key] = parsed.data;
  }
  return metadata as PartialOrganizationPublicMetadata;
}

/**
 * The metadata as the product shows it: the defaults under what is stored, each malformed known field
 * read as its default, unknown keys kept. Needed even after the defaults are written, because a merge
 * drops null values (`parentOrganizationId: null` is not stored).
 */
export function organizationMetadataWithDefaults(
  organizationId: string,
  stored: unknown,
): OrganizationPublicMetadata {
  const source = isRecord(stored) ? stored : {};
  return {
    ...source,
    ...defaultOrganizationMetadata(organizationId),
    ...parseOrganizationPublicMetadata(source),
  };
}

/**
 * `update` merged over `current`, key by key (what the auth state's "update organization metadata"
 * event does, spec §4): the one place two copies of the metadata meet.
 */
export function mergeOrganizationMetadata<T extends PartialOrganizationPublicMetadata>(
  current: T,
  update: PartialOrganizationPublicMetadata | null | undefined,
): T {
  return { ...current, ...parseOrganizationPublicMetadata(update) };
}

/**
 * Fields only the product server's projection writes (from its own database): a default written on first
 * read could land after the projection and overwrite it, so their defaults are only ever read.
 */
const PROJECTED_FIELDS: ReadonlySet<string> = new Set(['hasActiveSubscription']);

/**
 * What to merge into `stored` so the organisation has its defaults, or null when it already has them
 * (its metadata names its organizationId). Keys already present are left out, so a value written
 * before the first read (e.g. a module switched on through the Backend API) is never overwritten.
 */
export function defaultMetadataPatch(
  organizationId: string,
  stored: unknown,
): Partial<OrganizationPublicMetadata> | null {
  const current = isRecord(stored) ? stored : {};
  if (typeof current.organizationId === 'string') return null;
  const patch: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(defaultOrganizationMetadata(organizationId)))
    if (!(key in current) && !PROJECTED_FIELDS.has(key)) patch[key] = value;
  // organizationId is absent (or not a string) here, so it is always part of the patch.
  patch.organizationId = organizationId;
  return patch as Partial<OrganizationPublicMetadata>;
}

/** Only an explicit `true` switches a module on. */
export function moduleFlagsOf(metadata: unknown): Record<ModuleFlag, boolean> {
  const source = isRecord(metadata) ? metadata : {};
  return Object.fromEntries(MODULE_FLAGS.map((flag) => [flag, source[flag] === true])) as Record<
    ModuleFlag,
    boolean
  >;
}

/** The subscription status, or NO for anything unexpected. */
export function subscriptionStatusOf(metadata: unknown): SubscriptionStatus {
  const parsed = subscriptionStatusSchema.safeParse(
    isRecord(metadata) ? metadata.hasActiveSubscription : null,
  );
  return parsed.success ? parsed.data : DEFAULT_SUBSCRIPTION_STATUS;
}
