import type { Language } from '../i18n/languages.ts';
import { consoleLogger, localizationInterceptor } from './localization-interceptor.ts';
import { collectHeaders, type FetchLike, type HttpLogger } from './types.ts';

/**
 * A fetch for the product's own files (translations.json, the help's `.md`, the app config): no session
 * token, but the same x-localization interceptor as the request client (createHttpClient), so every
 * request the product makes announces the interface language and a failure to add it is handled in one
 * place (spec §7, §8). Apart from the client so the entry script, which loads the config and the words,
 * does not carry the client's error parsing (the contract and its schemas).
 */
export function localizedFetch(
  language: Language | (() => Language),
  options: { fetch?: FetchLike; logger?: HttpLogger } = {},
): FetchLike {
  const intercept = localizationInterceptor({
    getLanguage: typeof language === 'function' ? language : () => language,
    logger: options.logger ?? consoleLogger,
  });
  const send: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  return async (input, init) => {
    const request = await intercept({
      input,
      url: null,
      init: { ...init, headers: collectHeaders(input, init) },
    });
    return send(request.input, request.init);
  };
}
