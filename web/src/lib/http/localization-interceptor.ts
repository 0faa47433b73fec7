import { normalizeLanguage } from '../i18n/languages.ts';
import { withHeaders, type GetLanguage, type HttpLogger, type RequestInterceptor } from './types.ts';

export const LOCALIZATION_HEADER = 'x-localization';

/** Where interceptor failures go unless the caller says otherwise. */
export const consoleLogger: HttpLogger = (message, error) => console.error(message, error);

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
