/**
 * The languages mail and SMS are written in. The product speaks French and English, French by default
 * (spec §9); adding a language means adding it here and giving it its words in mail/words.ts and
 * sms/templates.ts (the `Record<MailLanguage, …>` types refuse a language left without them).
 */
export const MAIL_LANGUAGES = ['fr', 'en'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];

/** The locale dates are written in, per language (the product's: fr-FR and en-US). */
export const MAIL_LOCALES: Record<MailLanguage, string> = { fr: 'fr-FR', en: 'en-US' };

/**
 * A language as the product or a browser names it: `FR`/`EN` (the organisation's `uiLanguage`), `fr`,
 * `en-GB`, `fr-CA`… Only the primary subtag counts; anything else is not one of ours.
 */
export function parseMailLanguage(value: unknown): MailLanguage | null {
  if (typeof value !== 'string') return null;
  const primary = value.trim().split(/[-_]/)[0]!.toLowerCase();
  return (MAIL_LANGUAGES as readonly string[]).includes(primary) ? (primary as MailLanguage) : null;
}

/**
 * The first of our languages in an Accept-Language header, by the browser's preference (`q`, then
 * order); `*` and refused (`q=0`) entries name none. Null when the header names none of ours.
 */
export function languageFromAcceptLanguage(header: string | null | undefined): MailLanguage | null {
  if (!header) return null;
  const ranked = header
    .slice(0, 1000)
    .split(',')
    .map((entry, index) => {
      const [tag = '', ...params] = entry.split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(p)?.[1]).find(Boolean);
      const weight = q === undefined ? 1 : Number(q);
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((e) => e.tag && e.tag !== '*' && e.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const entry of ranked) {
    const language = parseMailLanguage(entry.tag);
    if (language) return language;
  }
  return null;
}

/**
 * `IDENTITY_MAIL_DEFAULT_LANGUAGE` (`fr` or `en`, default `fr`): the language of mail and SMS whose
 * recipient's language is not known (no organisation language, no browser language of ours).
 */
export function defaultMailLanguageFromEnv(env: NodeJS.ProcessEnv): MailLanguage {
  const raw = env.IDENTITY_MAIL_DEFAULT_LANGUAGE;
  if (raw === undefined || raw === '') return 'fr';
  const language = parseMailLanguage(raw);
  if (!language || raw.includes('-')) {
    throw new Error(`IDENTITY_MAIL_DEFAULT_LANGUAGE must be one of ${MAIL_LANGUAGES.join(', ')}.`);
  }
  return language;
}

/** A date as the recipient reads it: `13 décembre 2026`, `December 13, 2026` (UTC, as the expiry is kept). */
export function mailDate(date: Date, language: MailLanguage): string {
  return new Intl.DateTimeFormat(MAIL_LOCALES[language], { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}
