import type { LocalizationResource } from '@clerk/types';
import type { Language } from '../lib/i18n/languages.ts';
import { mergeWords } from './clerk-words/merge-words.ts';

/**
 * The Clerk components' words (spec: frFR / enUS, with the product's own over them: clerk-words/), each
 * language its own chunk: a visitor downloads the active
 * language's only, and the other one if they switch. Apart from the hook (clerk-localization.ts) so
 * main.tsx can start the download before React and the rest of the app have arrived.
 */
const LOADERS: Record<Language, () => Promise<LocalizationResource>> = {
  EN: () =>
    Promise.all([import('@clerk/localizations/en-US'), import('./clerk-words/en.ts')]).then(([m, words]) =>
      mergeWords(m.enUS, words.EN_WORDS),
    ),
  FR: () =>
    Promise.all([import('@clerk/localizations/fr-FR'), import('./clerk-words/fr.ts')]).then(([m, words]) =>
      mergeWords(m.frFR, words.FR_WORDS),
    ),
};

const loaded = new Map<Language, LocalizationResource>();

export async function loadClerkLocalization(language: Language): Promise<LocalizationResource> {
  const known = loaded.get(language);
  if (known) return known;
  const resource = await LOADERS[language]();
  loaded.set(language, resource);
  return resource;
}

/** The language's words if they have arrived already. */
export const loadedClerkLocalization = (language: Language): LocalizationResource | undefined =>
  loaded.get(language);
