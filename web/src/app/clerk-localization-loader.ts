import type { LocalizationResource } from '@clerk/types';
import type { Language } from '../lib/i18n/languages.ts';

/**
 * The Clerk components' words (spec: frFR / enUS), each its own chunk: a visitor downloads the active
 * language's only, and the other one if they switch. Apart from the hook (clerk-localization.ts) so
 * main.tsx can start the download before React and the rest of the app have arrived.
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

/** The language's words if they have arrived already. */
export const loadedClerkLocalization = (language: Language): LocalizationResource | undefined =>
  loaded.get(language);
