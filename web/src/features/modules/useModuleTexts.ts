import { useTranslation } from 'react-i18next';
import type { ModuleKey } from './modules.ts';

export interface ModuleTexts {
  /** The module's name, as the navigation and the settings show it. */
  name: string;
  /** One sentence on what it is for, under the overview's title. */
  summary: string;
}

/** Every module's name and summary in the interface language (literal keys, checked by tests). */
export function useModuleTexts(): Record<ModuleKey, ModuleTexts> {
  const { t } = useTranslation();
  return {
    vCiso: { name: t('modules.vCiso.name'), summary: t('modules.vCiso.summary') },
    compliance: { name: t('modules.compliance.name'), summary: t('modules.compliance.summary') },
    qompanion: { name: t('modules.qompanion.name'), summary: t('modules.qompanion.summary') },
    hexadiag: { name: t('modules.hexadiag.name'), summary: t('modules.hexadiag.summary') },
    passport: { name: t('modules.passport.name'), summary: t('modules.passport.summary') },
  };
}
