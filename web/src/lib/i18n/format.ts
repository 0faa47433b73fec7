import { LOCALES, type Language } from './languages.ts';

/** A date (and optionally its time) in the language's locale: `22 nov. 2026` / `Nov 22, 2026`. */
export function formatDate(value: Date | number, language: Language, withTime = false): string {
  return new Intl.DateTimeFormat(LOCALES[language], {
    dateStyle: 'medium',
    ...(withTime ? { timeStyle: 'short' } : {}),
  }).format(value);
}

export const formatTime = (value: Date | number, language: Language): string =>
  new Intl.DateTimeFormat(LOCALES[language], { timeStyle: 'medium' }).format(value);

export const formatNumber = (value: number, language: Language): string =>
  new Intl.NumberFormat(LOCALES[language]).format(value);

/**
 * The first day of the week, 0 = Sunday … 1 = Monday. Spec §9: French weeks start on Monday (ISO 8601);
 * US English weeks on Sunday. Fixed rather than read from Intl.Locale#weekInfo, which not every browser has.
 */
export const firstDayOfWeek = (language: Language): 0 | 1 => (language === 'FR' ? 1 : 0);

/** The seven weekday names in display order for the language, starting on its first day of the week. */
export function weekdayNames(language: Language, style: 'long' | 'short' = 'short'): string[] {
  const format = new Intl.DateTimeFormat(LOCALES[language], { weekday: style, timeZone: 'UTC' });
  // 2023-01-01 was a Sunday.
  const sunday = Date.UTC(2023, 0, 1);
  const first = firstDayOfWeek(language);
  return Array.from({ length: 7 }, (_, i) => format.format(sunday + ((first + i) % 7) * 86_400_000));
}
