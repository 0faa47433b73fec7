import i18next, { type i18n, type Resource } from 'i18next';
import HttpBackend from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';
import { languagePathCode, LANGUAGES, type Language } from './languages.ts';
import { missingKeyHandler } from './missing-key.ts';

/** Spec §7: GET /assets/i18n/{lang}/translations.json, language in lowercase. */
export const TRANSLATIONS_LOAD_PATH = '/assets/i18n/{{lng}}/{{ns}}.json';
export const TRANSLATIONS_NAMESPACE = 'translations';

export interface CreateI18nOptions {
  language: Language;
  production: boolean;
  warn?: (message: string) => void;
  /** In-memory translations (tests); without them both languages are fetched over HTTP. */
  resources?: Resource;
}

/**
 * An i18next instance for the product. Both languages are loaded before the first render, so the toggle
 * switches at once with no loading state. No fallback language: a key missing in French must show up as
 * missing (a warning and nothing rendered), never as English in the French interface.
 */
export async function createI18n(options: CreateI18nOptions): Promise<i18n> {
  const instance = i18next.createInstance();
  if (!options.resources) instance.use(HttpBackend);
  instance.use(initReactI18next);
  await instance.init({
    lng: languagePathCode(options.language),
    supportedLngs: LANGUAGES.map(languagePathCode),
    preload: LANGUAGES.map(languagePathCode),
    load: 'currentOnly',
    fallbackLng: false,
    // An empty translation counts as missing (i18next 27's default, stated for i18next 26).
    returnEmptyString: false,
    ns: [TRANSLATIONS_NAMESPACE],
    defaultNS: TRANSLATIONS_NAMESPACE,
    // React escapes what it renders; escaping here as well would show entities.
    interpolation: { escapeValue: false },
    parseMissingKeyHandler: missingKeyHandler({
      production: options.production,
      warn: options.warn ?? ((message) => console.warn(message)),
    }),
    react: { useSuspense: false },
    ...(options.resources
      ? { resources: options.resources }
      : { backend: { loadPath: TRANSLATIONS_LOAD_PATH } }),
  });
  // i18next logs a failed load and carries on; without its words the interface would be blank.
  for (const language of LANGUAGES) {
    if (!instance.hasResourceBundle(languagePathCode(language), TRANSLATIONS_NAMESPACE)) {
      throw new Error(`The ${language} translations could not be loaded.`);
    }
  }
  return instance;
}

/** Keeps i18next (and the page's `lang` attribute) on the store's language. */
export function followLanguage(
  instance: i18n,
  store: { get(): Language; subscribe(listener: () => void): () => void },
): () => void {
  const apply = () => {
    const code = languagePathCode(store.get());
    if (typeof document !== 'undefined') document.documentElement.lang = code;
    if (instance.language !== code) void instance.changeLanguage(code);
  };
  apply();
  return store.subscribe(apply);
}
