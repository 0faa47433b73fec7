import { LANGUAGE_STORAGE_KEY, languageFromSearch } from '../lib/i18n/language-store.ts';
import { DEFAULT_LANGUAGE, parseLanguage, type Language } from '../lib/i18n/languages.ts';

export interface StartupLanguageSources {
  /** The page's query string (`?lang=`). */
  search: string;
  /** The language store's saved choice, as kept in storage. */
  stored: string | null;
  /** `navigator.languages`, most preferred first. */
  preferred: readonly string[];
}

/**
 * The language of the screen shown when the app cannot start: the browser's explicit choice (`?lang=`,
 * then the saved one) as everywhere else; failing that the browser's own preference, which costs nothing
 * here and is the best guess we have without the organisation's; else the product's default.
 */
export function startupLanguage({ search, stored, preferred }: StartupLanguageSources): Language {
  const fromPreference = preferred
    .map((tag) => parseLanguage(tag.split('-')[0]))
    .find((language): language is Language => language !== null);
  return languageFromSearch(search) ?? parseLanguage(stored) ?? fromPreference ?? DEFAULT_LANGUAGE;
}

/** The same sources, read from this browser; any that cannot be read counts as absent. */
export function browserStartupLanguage(): Language {
  let stored: string | null = null;
  try {
    stored = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    // Storage can be denied (privacy modes); the other sources still count.
  }
  return startupLanguage({
    search: window.location.search,
    stored,
    preferred: navigator.languages?.length ? navigator.languages : [navigator.language],
  });
}
