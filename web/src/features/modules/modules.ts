import type { ModuleFlag, OrganizationPublicMetadata } from '../../state/auth/organization-metadata.ts';
import type { ModuleSettingKey } from '@app/contract';
import type { HelpPageName } from '../help/help-pages.ts';

/** A module's key in the settings body (the contract's MODULE_SETTING_FLAGS). */
export type ModuleKey = ModuleSettingKey;

export interface ModuleDefinition {
  key: ModuleKey;
  /** The organisation public-metadata flag that switches it on. */
  flag: ModuleFlag;
  /** The readable last segment of its route, `/modules/<slug>`. */
  slug: string;
  /** The help page its overview is built from (`/assets/i18n/{lang}/<helpPage>.md`). */
  helpPage: HelpPageName;
}

/** The five modules, each switched on per organisation (spec §1, §3), in navigation order. */
export const MODULES: readonly ModuleDefinition[] = [
  {
    key: 'vCiso',
    flag: 'vCisoModuleEnabled',
    slug: 'virtual-security-officer',
    helpPage: 'virtual-security-officer',
  },
  {
    key: 'compliance',
    flag: 'complianceModuleEnabled',
    slug: 'compliance',
    helpPage: 'compliance',
  },
  {
    key: 'qompanion',
    flag: 'qompanionModuleEnabled',
    slug: 'companion',
    helpPage: 'companion',
  },
  {
    key: 'hexadiag',
    flag: 'hexadiagModuleEnabled',
    slug: 'diagram',
    helpPage: 'diagram',
  },
  {
    key: 'passport',
    flag: 'passportModuleEnabled',
    slug: 'passport',
    helpPage: 'passport',
  },
];

export interface ModuleStatus extends ModuleDefinition {
  enabled: boolean;
}

/** Only an explicit `true` switches a module on; missing or malformed flags mean off. */
export function moduleStatuses(metadata: OrganizationPublicMetadata): ModuleStatus[] {
  return MODULES.map((module) => ({ ...module, enabled: metadata[module.flag] === true }));
}

/** The modules the navigation shows: the enabled ones, in the fixed order of MODULES. */
export function enabledModules(metadata: OrganizationPublicMetadata | undefined): ModuleDefinition[] {
  return metadata ? MODULES.filter((module) => metadata[module.flag] === true) : [];
}

/** The module whose route segment is `slug` (exact, case-sensitive), or undefined for an unknown one. */
export const moduleBySlug = (slug: string | undefined): ModuleDefinition | undefined =>
  MODULES.find((module) => module.slug === slug);

export const modulePath = (module: Pick<ModuleDefinition, 'slug'>): string => `/modules/${module.slug}`;
