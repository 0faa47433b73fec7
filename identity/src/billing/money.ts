/** Money as clerk-js shows it (`CommerceMoneyAmountJSON`); amounts are integer minor units. */
const SYMBOLS: Record<string, string> = { usd: '$', eur: '€', gbp: '£', chf: 'CHF ', cad: 'CA$' };

export const currencySymbol = (currency: string) => SYMBOLS[currency.toLowerCase()] ?? '';

/** 1999 → "19.99". */
export const formatAmount = (minor: number) => (minor / 100).toFixed(2);

export function moneyJSON(amount: number, currency: string) {
  return {
    amount,
    amount_formatted: formatAmount(amount),
    currency: currency.toUpperCase(),
    currency_symbol: currencySymbol(currency),
  };
}
