/**
 * An organisation's public metadata (spec §3), as the contract declares it. The product server writes
 * it (with its defaults on first read); the browser only reads it. Clerk's copy may come before the
 * server has written the defaults, so the auth state holds what is known: each field when well formed.
 */
export {
  MODULE_FLAGS,
  SUBSCRIPTION_STATUSES,
  UI_LANGUAGES,
  mergeOrganizationMetadata,
  parseOrganizationPublicMetadata,
  type ModuleFlag,
  type PartialOrganizationPublicMetadata as OrganizationPublicMetadata,
  type SubscriptionStatus,
  type UiLanguage,
} from '@app/contract';
