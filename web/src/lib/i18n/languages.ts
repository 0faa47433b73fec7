/** Spec §9: the interface speaks FR or EN, FR by default. Codes are uppercase on the wire (x-localization, uiLanguage). */
export const LANGUAGES = ['FR', 'EN'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'FR';

/** The language named by `value` (any case, surrounding spaces ignored), or null when it names none. */
export function parseLanguage(value: string | null | undefined): Language | null {
  const upper = typeof value === 'string' ? value.trim().toUpperCase() : '';
  return (LANGUAGES as readonly string[]).includes(upper) ? (upper as Language) : null;
}

/** Like parseLanguage, but anything that is not FR or EN becomes the default, FR. */
export const normalizeLanguage = (value: string | null | undefined): Language =>
  parseLanguage(value) ?? DEFAULT_LANGUAGE;

/** The lowercase code used in asset paths (`/assets/i18n/fr/…`) and by i18next. */
export const languagePathCode = (language: Language): 'fr' | 'en' => (language === 'FR' ? 'fr' : 'en');

/** Spec §9: locales fr-FR and en-US. */
export const LOCALES: Record<Language, string> = { FR: 'fr-FR', EN: 'en-US' };
