import { z } from '@app/contract';
import type { MailLanguage } from '../mail/language.ts';

/**
 * A plan's or feature's name or description as the settings give it: one string, the same in French and
 * English, or `{ fr, en }` (docs/languages.md). Subscription items keep it as bought, so a snapshot written
 * before names had two languages is a plain string.
 */
export type LocalizedText = string | { fr: string; en: string };

/** The settings' form of a LocalizedText: each language's text between `min` and `max` characters. */
export function localizedTextSetting(min: number, max: number) {
  const text = z.string().min(min).max(max);
  return z.union([text, z.object({ fr: text, en: text }).strict()]);
}

/** The text in `language`; a plain string is the same in every language. */
export function textIn(text: LocalizedText, language: MailLanguage): string {
  return typeof text === 'string' ? text : text[language];
}

/**
 * The language of billing's names where no reader is known (webhooks, the audit log, error meta, a Backend
 * API call without an Accept-Language of ours): French, the product's default language (docs/billing.md).
 */
export const BILLING_DEFAULT_LANGUAGE: MailLanguage = 'fr';
