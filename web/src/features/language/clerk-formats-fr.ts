/**
 * French formats for the money and dates clerk-js 5.90.0 writes in American English whatever its
 * localization: a price is `${currencySymbol}${amountFormatted}` ("€29.00", or "€" and "29" as two
 * texts side by side, as `<PricingTable/>` writes them), and the billing screens' dates come from
 * `ui/utils/formatDate.ts`, whose locale is always "en-US" ("December 6, 2026", "Dec 6",
 * "December 2026"); the organisation's member lists use `toLocaleDateString()`, which follows the
 * browser ("12/6/2026" in an American one). relabel-clerk.ts applies these to texts inside Clerk's
 * components while the interface is French (29,00 €, 6 décembre 2026, 6 déc., 06/12/2026).
 *
 * Only a text that is wholly one of these forms is changed, so a name a user typed is left alone unless
 * it is exactly a price or a date.
 */

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const MONTH_INDEX = new Map<string, number>([
  ...MONTHS.map((m, i) => [m, i] as const),
  ...MONTHS.map((m, i) => [m.slice(0, 3), i] as const),
]);

/** The symbols the provider sends (identity/src/billing/money.ts), longest first. */
const CURRENCY = String.raw`CA\$|CHF |€|\$|£`;
const AMOUNT = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;
/** A whole text holding one price: "€29.00", "- €29.00", "(€29.00)", "€29.00 / mois". */
const PRICE = new RegExp(`^(\\(?)(- )?(${CURRENCY})(${AMOUNT})(\\)|\\s/\\s.+)?$`);
const SYMBOL_ONLY = new RegExp(`^(${CURRENCY})$`);
const AMOUNT_ONLY = new RegExp(`^(${AMOUNT})$`);

const NBSP = '\u00a0';

/** "1,234.50" → "1 234,50" (French grouping and decimal comma, as many decimals as written). */
export function frenchAmount(amount: string): string {
  const decimals = amount.split('.')[1]?.length ?? 0;
  return new Intl.NumberFormat('fr-FR', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(Number(amount.replace(/,/g, '')));
}

const withSymbol = (amount: string, symbol: string) => `${frenchAmount(amount)}${NBSP}${symbol.trim()}`;

/** A price clerk-js wrote in one text, in French; null when the text is not one. */
export function frenchPrice(text: string): string | null {
  const m = PRICE.exec(text);
  if (!m) return null;
  const [, open = '', sign = '', symbol = '', amount = '', rest = ''] = m;
  return `${open}${sign}${withSymbol(amount, symbol)}${rest}`;
}

/**
 * The two texts of a price written as siblings ("€" then "29"): the symbol's text becomes empty and
 * the amount's carries both, in French order. `symbolOf` names the symbol that once preceded an amount
 * (after the symbol's text was emptied, clerk-js may rewrite the amount alone: a plan period switched).
 */
export function frenchSplitPrice(
  text: Text,
  symbolOf: (emptied: Text) => string | undefined,
): { symbol: Text; amount: Text; symbolText: string; amountText: string } | null {
  const next = text.nextSibling;
  if (SYMBOL_ONLY.test(text.data) && next instanceof Text && AMOUNT_ONLY.test(next.data)) {
    return { symbol: text, amount: next, symbolText: '', amountText: withSymbol(next.data, text.data) };
  }
  const previous = text.previousSibling;
  const symbol = previous instanceof Text && previous.data === '' ? symbolOf(previous) : undefined;
  if (symbol !== undefined && AMOUNT_ONLY.test(text.data)) {
    return {
      symbol: previous as Text,
      amount: text,
      symbolText: '',
      amountText: withSymbol(text.data, symbol),
    };
  }
  return null;
}

const LONG_DATE = /^([A-Z][a-z]+) (\d{1,2}), (\d{4})$/;
const SHORT_DATE = /^([A-Z][a-z]{2}) (\d{1,2})$/;
const MONTH_YEAR = /^([A-Z][a-z]+) (\d{4})$/;
const NUMERIC_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** Whether this browser's own dates put the month first (toLocaleDateString() in an American browser). */
export function browserWritesMonthFirst(): boolean {
  const parts = new Intl.DateTimeFormat().formatToParts(new Date(2000, 11, 31)).map((p) => p.type);
  return parts.indexOf('month') < parts.indexOf('day');
}

const french = (date: Date, options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat('fr-FR', options).format(date);

/**
 * A date clerk-js wrote in American English, in French; null when the text is not one.
 * `monthFirst`: numeric dates are the browser's own (see browserWritesMonthFirst).
 */
export function frenchDate(text: string, monthFirst: boolean): string | null {
  let m = LONG_DATE.exec(text);
  if (m && MONTHS.includes(m[1]!)) {
    return french(new Date(Number(m[3]), MONTH_INDEX.get(m[1]!)!, Number(m[2])), {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    });
  }
  m = SHORT_DATE.exec(text);
  if (m && MONTH_INDEX.has(m[1]!)) {
    return french(new Date(2000, MONTH_INDEX.get(m[1]!)!, Number(m[2])), { day: 'numeric', month: 'short' });
  }
  m = MONTH_YEAR.exec(text);
  if (m && MONTHS.includes(m[1]!)) {
    return french(new Date(Number(m[2]), MONTH_INDEX.get(m[1]!)!, 1), { month: 'long', year: 'numeric' });
  }
  m = NUMERIC_DATE.exec(text);
  if (m && monthFirst) {
    return french(new Date(Number(m[3]), Number(m[1]) - 1, Number(m[2])), {
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
    });
  }
  return null;
}
