import { useTranslation } from 'react-i18next';
import { errorMessageKey } from '../../lib/error-message.ts';

/** A console failure in the interface language (the server's own words are English only). */
export function useConsoleErrorText() {
  const { t } = useTranslation();
  return (error: unknown): string => {
    const known = errorMessageKey(error);
    return known ? t(known.key, known.values) : t('console.errors.generic');
  };
}
