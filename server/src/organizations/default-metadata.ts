/**
 * An organisation's public metadata (spec §3), as the contract declares it: the flags, the defaults
 * and how stored values are read. Only the product server writes it, through the Backend API; the
 * browser can read it but never write it.
 */
export {
  DEFAULT_UI_LANGUAGE,
  MODULE_FLAGS,
  defaultMetadataPatch,
  defaultOrganizationMetadata,
  organizationMetadataWithDefaults as withDefaultMetadata,
  type ModuleFlag,
  type OrganizationPublicMetadata,
  type SubscriptionStatus,
  type UiLanguage,
} from '@app/contract';
