import { DEFAULT_LANGUAGE, parseLanguage, type Language } from './languages.ts';

export const LANGUAGE_STORAGE_KEY = 'qoala.language';

export interface LanguageState {
  /** What this browser chose (the toggle or `?lang=`), kept across reloads; wins over the organisation's. */
  chosen: Language | null;
  /** The active organisation's `uiLanguage`: the starting language for its members. */
  organization: Language | null;
}

/** The language the interface speaks: the browser's choice, else the organisation's, else FR. */
export const effectiveLanguage = (state: LanguageState): Language =>
  state.chosen ?? state.organization ?? DEFAULT_LANGUAGE;

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>;

export interface LanguageStore {
  get(): Language;
  subscribe(listener: () => void): () => void;
  /** An explicit choice: remembered in storage. */
  choose(language: Language): void;
  setOrganizationLanguage(language: Language | null): void;
}

/**
 * The language lives outside React because ClerkProvider (its `localization`) sits above the providers
 * that know the organisation, and i18next must switch before components render with the new language.
 */
export function createLanguageStore(storage: KeyValueStorage | null): LanguageStore {
  let state: LanguageState = { chosen: readChoice(storage), organization: null };
  let current = effectiveLanguage(state);
  const listeners = new Set<() => void>();

  const update = (next: LanguageState) => {
    state = next;
    const language = effectiveLanguage(state);
    if (language === current) return;
    current = language;
    for (const listener of listeners) listener();
  };

  return {
    get: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    choose(language) {
      try {
        storage?.setItem(LANGUAGE_STORAGE_KEY, language);
      } catch {
        // Private browsing or a full quota: the choice still holds for this page.
      }
      update({ ...state, chosen: language });
    },
    setOrganizationLanguage(language) {
      if (language !== state.organization) update({ ...state, organization: language });
    },
  };
}

function readChoice(storage: KeyValueStorage | null): Language | null {
  try {
    return parseLanguage(storage?.getItem(LANGUAGE_STORAGE_KEY));
  } catch {
    return null;
  }
}

/** localStorage when the browser lets us use it (it throws in some privacy modes). */
export function browserStorage(): KeyValueStorage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** `?lang=en` / `?lang=fr` on a URL's query string chooses the language (links shared in a language). */
export const languageFromSearch = (search: string): Language | null =>
  parseLanguage(new URLSearchParams(search).get('lang'));
