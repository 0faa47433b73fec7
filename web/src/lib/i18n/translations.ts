import { localizedFetch } from '../http/localized-fetch.ts';
import type { FetchLike } from '../http/types.ts';
import { languagePathCode, type Language } from './languages.ts';

/** The one i18next namespace: spec §7's GET /assets/i18n/{lang}/translations.json. */
export const TRANSLATIONS_NAMESPACE = 'translations';

export type Translations = Record<string, unknown>;

export const translationsUrl = (language: Language): string =>
  `/assets/i18n/${languagePathCode(language)}/${TRANSLATIONS_NAMESPACE}.json`;

const requests = new Map<Language, Promise<Translations>>();

/**
 * A language's translations, fetched once. Kept apart from i18next so main.tsx can ask for the
 * starting language's words at once, before i18next and the rest of the app have arrived; the other
 * language is fetched when the interface switches to it. A failed request is forgotten, so a later
 * switch asks again.
 */
export function loadTranslations(language: Language): Promise<Translations> {
  let request = requests.get(language);
  if (!request) {
    request = fetchTranslations(language);
    request.catch(() => requests.delete(language));
    requests.set(language, request);
  }
  return request;
}

/**
 * GET /assets/i18n/{lang}/translations.json, announcing the language it asks for (the one the interface
 * speaks, or is switching to) in x-localization. `send` is the transport under that header (tests).
 */
export async function fetchTranslations(language: Language, send?: FetchLike): Promise<Translations> {
  const url = translationsUrl(language);
  const response = await localizedFetch(language, { fetch: send })(url, {
    headers: { Accept: 'application/json' },
  });
  if (!response.ok)
    throw new Error(`The ${language} translations could not be loaded (${url}: ${response.status}).`);
  const body: unknown = await response.json();
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new Error(`The ${language} translations could not be loaded (${url} is not a JSON object).`);
  return body as Translations;
}
