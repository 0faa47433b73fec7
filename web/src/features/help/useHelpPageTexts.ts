import { useTranslation } from 'react-i18next';
import type { HelpPageName } from './help-pages.ts';

export interface HelpPageTexts {
  title: string;
  summary: string;
}

/** Each help page's title and one-line summary in the interface language (literal keys, checked by tests). */
export function useHelpPageTexts(): Record<HelpPageName, HelpPageTexts> {
  const { t } = useTranslation();
  return {
    'getting-started': {
      title: t('help.pages.gettingStarted.title'),
      summary: t('help.pages.gettingStarted.summary'),
    },
    'organisations-and-roles': {
      title: t('help.pages.organisationsAndRoles.title'),
      summary: t('help.pages.organisationsAndRoles.summary'),
    },
    'virtual-security-officer': {
      title: t('help.pages.virtualSecurityOfficer.title'),
      summary: t('help.pages.virtualSecurityOfficer.summary'),
    },
    compliance: { title: t('help.pages.compliance.title'), summary: t('help.pages.compliance.summary') },
    companion: { title: t('help.pages.companion.title'), summary: t('help.pages.companion.summary') },
    diagram: { title: t('help.pages.diagram.title'), summary: t('help.pages.diagram.summary') },
    passport: { title: t('help.pages.passport.title'), summary: t('help.pages.passport.summary') },
    languages: { title: t('help.pages.languages.title'), summary: t('help.pages.languages.summary') },
    'api-access': { title: t('help.pages.apiAccess.title'), summary: t('help.pages.apiAccess.summary') },
  };
}
