import type { Language } from '../../lib/i18n/languages.ts';

/**
 * The field of the clerk-js instance its phone input starts on (clerk-js 5.90.0: PhoneInput reads
 * `clerk.__internal_country`, lowercase ISO, and falls back to `us`). clerk-js fills it once, from the
 * first Frontend API answer with an `x-country` header (hosted Clerk's geolocation); none of its options
 * (localization, appearance, component props) sets it, so the product writes the field itself.
 */
export interface PhoneCountryHolder {
  __internal_country?: string | null;
}

/**
 * The phone input's starting country per interface language: France (+33) in French. In English, the
 * interface's locale is en-US, which is also clerk-js's own default, so clerk-js keeps its choice.
 */
export const PHONE_COUNTRY: Record<Language, string | null> = { FR: 'fr', EN: null };

// What clerk-js had chosen before the product first wrote the field, given back in English.
const chosenByClerk = new WeakMap<PhoneCountryHolder, string | null>();

/**
 * Points the phone input's starting country at `language`'s. Applies to phone inputs mounted from now
 * on (clerk-js reads the field when one mounts); a number already typed keeps its own country.
 */
export function followPhoneCountry(clerk: PhoneCountryHolder, language: Language): void {
  if (!chosenByClerk.has(clerk)) chosenByClerk.set(clerk, clerk.__internal_country ?? null);
  // null lets a later answer's x-country fill it, as clerk-js would have.
  clerk.__internal_country = PHONE_COUNTRY[language] ?? chosenByClerk.get(clerk) ?? null;
}
