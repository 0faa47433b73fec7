import { useTranslation } from 'react-i18next';
import type { ModuleKey } from './modules.ts';

export interface ModuleTexts {
  /** The module's name, as the settings and its page show it. */
  name: string;
  /** Its name in the navigation, shorter where the full one would crowd the row. */
  navName: string;
  /** One sentence on what it is for, under the overview's title. */
  summary: string;
}

/** Every module's name and summary in the interface language (literal keys, checked by tests). */
export function useModuleTexts(): Record<ModuleKey, ModuleTexts> {
  const { t } = useTranslation();
  return {
    vCiso: {
      name: t('modules.vCiso.name'),
      navName: t('modules.vCiso.navName'),
      summary: t('modules.vCiso.summary'),
    },
    compliance: {
      name: t('modules.compliance.name'),
      navName: t('modules.compliance.name'),
      summary: t('modules.compliance.summary'),
    },
    qompanion: {
      name: t('modules.qompanion.name'),
      navName: t('modules.qompanion.name'),
      summary: t('modules.qompanion.summary'),
    },
    hexadiag: {
      name: t('modules.hexadiag.name'),
      navName: t('modules.hexadiag.name'),
      summary: t('modules.hexadiag.summary'),
    },
    passport: {
      name: t('modules.passport.name'),
      navName: t('modules.passport.name'),
      summary: t('modules.passport.summary'),
    },
  };
}
