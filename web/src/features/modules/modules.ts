import type { ModuleFlag, OrganizationPublicMetadata } from '../../state/auth/organization-metadata.ts';

export type ModuleKey = 'vCiso' | 'compliance' | 'qompanion' | 'hexadiag' | 'passport';

export interface ModuleDefinition {
  key: ModuleKey;
  /** The organisation public-metadata flag that switches it on. */
  flag: ModuleFlag;
  label: string;
}

/** The five modules, each switched on per organisation (spec §1, §3). */
export const MODULES: readonly ModuleDefinition[] = [
  { key: 'vCiso', flag: 'vCisoModuleEnabled', label: 'Virtual security officer' },
  { key: 'compliance', flag: 'complianceModuleEnabled', label: 'Compliance' },
  { key: 'qompanion', flag: 'qompanionModuleEnabled', label: 'Companion' },
  { key: 'hexadiag', flag: 'hexadiagModuleEnabled', label: 'Diagram' },
  { key: 'passport', flag: 'passportModuleEnabled', label: 'Passport' },
];

export interface ModuleStatus extends ModuleDefinition {
  enabled: boolean;
}

/** Only an explicit `true` switches a module on; missing or malformed flags mean off. */
export function moduleStatuses(metadata: OrganizationPublicMetadata): ModuleStatus[] {
  return MODULES.map((module) => ({ ...module, enabled: metadata[module.flag] === true }));
}
