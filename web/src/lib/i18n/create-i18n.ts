import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { elide, ELISION_FORMATS } from './elision.ts';
import { languagePathCode, LANGUAGES, type Language } from './languages.ts';
import { missingKeyHandler } from './missing-key.ts';
import { TRANSLATIONS_NAMESPACE, type Translations } from './translations.ts';

export interface CreateI18nOptions {
  language: Language;
  production: boolean;
  warn?: (message: string) => void;
  /** The translations at hand, by language: at least the starting language's. */
  translations: Partial<Record<Language, Translations>>;
}

/**
 * An i18next instance for the product, speaking `language`, whose translations must be given: main.tsx
 * fetches the starting language's before the first render, and `followLanguage` adds another one when
 * the interface switches to it. No fallback language: a key missing in French must show up as missing
 * (a warning and nothing rendered), never as English in the French interface.
 */
export async function createI18n(options: CreateI18nOptions): Promise<i18n> {
  if (!options.translations[options.language]) {
    throw new Error(`The ${options.language} translations could not be loaded.`);
  }
  const resources = Object.fromEntries(
    LANGUAGES.flatMap((language) => {
      const words = options.translations[language];
      return words ? [[languagePathCode(language), { [TRANSLATIONS_NAMESPACE]: words }]] : [];
    }),
  );
  const instance = i18next.createInstance();
  instance.use(initReactI18next);
  await instance.init({
    lng: languagePathCode(options.language),
    supportedLngs: LANGUAGES.map(languagePathCode),
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
    resources,
  });
  // "Rôle {{name, de}}": "Rôle d'Acme", never "Rôle de Acme".
  for (const word of ELISION_FORMATS)
    instance.services.formatter?.add(word, (value) => elide(word, String(value)));
  return instance;
}

/**
 * Keeps i18next (and the page's `lang` attribute) on the store's language. A language whose
 * translations are not in i18next yet is loaded first (`load`), and i18next (and `lang`) switch once
 * they have arrived, so no screen renders with keys missing in between; if they cannot be loaded the interface
 * stays in the language it speaks.
 */
export function followLanguage(
  instance: i18n,
  store: { get(): Language; subscribe(listener: () => void): () => void },
  load: (language: Language) => Promise<Translations>,
  warn: (message: string, error: unknown) => void = (message, error) => console.warn(message, error),
): () => void {
  const apply = async () => {
    const language = store.get();
    const code = languagePathCode(language);
    if (!instance.hasResourceBundle(code, TRANSLATIONS_NAMESPACE)) {
      try {
        instance.addResourceBundle(code, TRANSLATIONS_NAMESPACE, await load(language));
      } catch (error) {
        warn(`The ${language} translations could not be loaded.`, error);
        // i18next's own event for it: whoever waits for this language (LanguageReady) stops waiting.
        instance.emit('failedLoading', code, TRANSLATIONS_NAMESPACE, String(error));
        return;
      }
    }
    // Another switch may have come while this language was loading: the latest one wins.
    if (store.get() !== language) return;
    if (typeof document !== 'undefined') document.documentElement.lang = code;
    if (instance.language !== code) await instance.changeLanguage(code);
  };
  void apply();
  return store.subscribe(() => void apply());
}
