import type { LocalizationResource } from '@clerk/types';
import { useEffect, useState } from 'react';
import type { Language } from '../lib/i18n/languages.ts';
import { loadClerkLocalization, loadedClerkLocalization } from './clerk-localization-loader.ts';

export { loadClerkLocalization };

/**
 * The active language's Clerk words. main.tsx loads the startup language's before the first render, so
 * Clerk never shows English to a French visitor; after a switch, the previous words stay until the new
 * ones have arrived rather than Clerk's defaults flashing in between.
 */
export function useClerkLocalization(language: Language): LocalizationResource | undefined {
  const [shown, setShown] = useState(() => loadedClerkLocalization(language));
  useEffect(() => {
    let current = true;
    loadClerkLocalization(language).then(
      (resource) => current && setShown(resource),
      (error: unknown) => console.warn(`The Clerk ${language} texts could not be loaded.`, error),
    );
    return () => {
      current = false;
    };
  }, [language]);
  return loadedClerkLocalization(language) ?? shown;
}
