import { formatDate } from '../../lib/i18n/format.ts';
import { LOCALES, type Language } from '../../lib/i18n/languages.ts';
import type { ConsoleMoney, ConsoleUser } from './api/types.ts';

/** A Backend API time (Unix milliseconds) as a date and time in the language's own form (`6 déc. 2026, 14:05`). */
export const formatInstant = (value: number | null | undefined, language: Language): string =>
  value ? formatDate(value, language, true) : '—';

/** A user's name, else their primary address, else their username, else their id. */
export function displayName(user: ConsoleUser): string {
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
  return name || primaryEmail(user) || user.username || user.id;
}

export function primaryEmail(user: ConsoleUser): string | null {
  const primary = user.email_addresses.find((a) => a.id === user.primary_email_address_id);
  return (primary ?? user.email_addresses[0])?.email_address ?? null;
}

/** Billing's money (minor units of its currency) in the language's form: `29,00 $US` / `$29.00`. */
export function formatMoney(money: ConsoleMoney | null | undefined, language: Language): string {
  if (!money) return '—';
  try {
    const format = new Intl.NumberFormat(LOCALES[language], { style: 'currency', currency: money.currency });
    return format.format(money.amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
  } catch {
    // A currency code Intl does not know: billing's own formatting.
    return `${money.currency_symbol}${money.amount_formatted}`;
  }
}
