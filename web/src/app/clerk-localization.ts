import type { LocalizationResource } from '@clerk/types';
import { useEffect, useState } from 'react';
import type { Language } from '../lib/i18n/languages.ts';

/**
 * The Clerk components' words (spec: frFR / enUS), each its own chunk: a visitor downloads the active
 * language's only, and the other one if they switch.
 */
const LOADERS: Record<Language, () => Promise<LocalizationResource>> = {
  EN: () => import('@clerk/localizations/en-US').then((m) => m.enUS),
  FR: () => import('@clerk/localizations/fr-FR').then((m) => m.frFR),
};

const loaded = new Map<Language, LocalizationResource>();

export async function loadClerkLocalization(language: Language): Promise<LocalizationResource> {
  const known = loaded.get(language);
  if (known) return known;
  const resource = await LOADERS[language]();
  loaded.set(language, resource);
  return resource;
}

/**
 * The active language's Clerk words. main.tsx loads the startup language's before the first render, so
 * Clerk never shows English to a French visitor; after a switch, the previous words stay until the new
 * ones have arrived rather than Clerk's defaults flashing in between.
 */
export function useClerkLocalization(language: Language): LocalizationResource | undefined {
  const [shown, setShown] = useState(() => loaded.get(language));
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
  return loaded.get(language) ?? shown;
}
