import { DEFAULT_LANGUAGE, parseLanguage, type Language } from './languages.ts';

export const LANGUAGE_STORAGE_KEY = 'qoala.language';
/**
 * The last organisation language this browser was shown: not a choice, a starting guess, so that a reload
 * starts in the language the organisation will ask for instead of switching once it is known.
 */
export const ORGANIZATION_LANGUAGE_STORAGE_KEY = 'qoala.organization-language';

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
  /** The active organisation's language (null: none, or none set); remembered as the next start's guess. */
  setOrganizationLanguage(language: Language | null): void;
  /** The language the interface will speak once the organisation's is `organization`. */
  effectiveFor(organization: Language | null): Language;
  /** Whether this browser chose its language (the toggle or `?lang=`). */
  hasChoice(): boolean;
}

/**
 * The language lives outside React because ClerkProvider (its `localization`) sits above the providers
 * that know the organisation, and i18next must switch before components render with the new language.
 */
export function createLanguageStore(storage: KeyValueStorage | null): LanguageStore {
  let state: LanguageState = {
    chosen: readLanguage(storage, LANGUAGE_STORAGE_KEY),
    organization: readLanguage(storage, ORGANIZATION_LANGUAGE_STORAGE_KEY),
  };
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
      if (language === state.organization) return;
      try {
        storage?.setItem(ORGANIZATION_LANGUAGE_STORAGE_KEY, language ?? '');
      } catch {
        // As for choose: the guess is only lost for the next start.
      }
      update({ ...state, organization: language });
    },
    effectiveFor: (organization) => effectiveLanguage({ ...state, organization }),
    hasChoice: () => state.chosen !== null,
  };
}

function readLanguage(storage: KeyValueStorage | null, key: string): Language | null {
  try {
    return parseLanguage(storage?.getItem(key));
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
