import { withHeaders, type GetLanguage, type HttpLogger, type RequestInterceptor } from './types.ts';

export const LOCALIZATION_HEADER = 'x-localization';
export const LANGUAGES = ['FR', 'EN'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Spec §9: languages FR and EN, default FR. */
export const DEFAULT_LANGUAGE: Language = 'FR';

/** Uppercases a language code; anything that is not FR or EN becomes the default, FR. */
export function normalizeLanguage(value: string | null | undefined): Language {
  const upper = typeof value === 'string' ? value.trim().toUpperCase() : '';
  return (LANGUAGES as readonly string[]).includes(upper) ? (upper as Language) : DEFAULT_LANGUAGE;
}

/**
 * Adds `x-localization: FR|EN` to every request (spec §7). If working out or adding the header throws,
 * the error is logged as 'Error in localization interceptor' and the request goes on unchanged (§8).
 */
export function localizationInterceptor(options: {
  getLanguage: GetLanguage;
  logger: HttpLogger;
}): RequestInterceptor {
  return async (request) => {
    try {
      const language = normalizeLanguage(options.getLanguage());
      return withHeaders(request, (headers) => headers.set(LOCALIZATION_HEADER, language));
    } catch (error) {
      options.logger('Error in localization interceptor', error);
      return request;
    }
  };
}
