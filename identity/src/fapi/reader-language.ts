import { languageFromAcceptLanguage, parseMailLanguage, type MailLanguage } from '../mail/language.ts';
import { chosenMailLanguage, type LanguageHolder } from '../mail/recipient-language.ts';
import type { FapiRequestInfo } from './context.ts';

/**
 * The cookie the product's web sets on its origin (the Frontend API's too, through `/__clerk`) to the
 * language its interface speaks, `FR` or `EN` (web/src/lib/i18n/language-cookie.ts).
 */
export const UI_LANGUAGE_COOKIE = 'ui_language';

/**
 * The language a Frontend API answer is written in for whoever reads it (billing's plan and feature
 * names): the interface's (`ui_language` cookie), else the signed-in user's choice (`uiLanguage` in their
 * metadata; `reader` is only asked when there is no cookie), else the browser's Accept-Language, else
 * French. clerk-js 5.90.0 sends no locale of its own.
 */
export async function readerLanguage(
  req: Pick<FapiRequestInfo, 'cookies' | 'acceptLanguage'>,
  reader: () => Promise<LanguageHolder | null>,
): Promise<MailLanguage> {
  return (
    parseMailLanguage(req.cookies[UI_LANGUAGE_COOKIE]) ??
    chosenMailLanguage(await reader()) ??
    languageFromAcceptLanguage(req.acceptLanguage) ??
    'fr'
  );
}
