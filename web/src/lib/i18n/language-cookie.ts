import type { LanguageStore } from './language-store.ts';

/**
 * The cookie that tells the Frontend API (same origin, through `/__clerk`) the language the interface
 * speaks, so that what it writes itself — billing's plan and feature names — is in that language
 * (identity/src/fapi/reader-language.ts). Not a choice: the interface's language, whatever decided it.
 */
export const UI_LANGUAGE_COOKIE = 'ui_language';

const ONE_YEAR_S = 365 * 24 * 60 * 60;

/** Writes the cookie now and again whenever the interface's language changes; returns the unsubscribe. */
export function keepLanguageCookie(
  languages: LanguageStore,
  doc: Pick<Document, 'cookie'> = document,
): () => void {
  const secure = typeof location !== 'undefined' && location.protocol === 'https:' ? '; Secure' : '';
  const write = () => {
    doc.cookie = `${UI_LANGUAGE_COOKIE}=${languages.get()}; Path=/; Max-Age=${ONE_YEAR_S}; SameSite=Lax${secure}`;
  };
  write();
  return languages.subscribe(write);
}
