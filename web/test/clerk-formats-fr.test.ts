import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { frenchAmount, frenchDate, frenchPrice } from '../src/features/language/clerk-formats-fr.ts';

// Intl's French: a no-break space before the symbol, a narrow one between thousands.
const plain = (s: string | null) => s?.replace(/[\u00a0\u202f]/g, ' ') ?? null;

describe("clerk-js's American prices and dates, in French", () => {
  test('prices as clerk-js writes them in one text', () => {
    assert.equal(plain(frenchPrice('€29')), '29 €');
    assert.equal(plain(frenchPrice('€29.00')), '29,00 €');
    assert.equal(plain(frenchPrice('€1,234.50')), '1 234,50 €');
    assert.equal(plain(frenchPrice('- €5.00')), '- 5,00 €');
    assert.equal(plain(frenchPrice('(€5.00)')), '(5,00 €)');
    assert.equal(plain(frenchPrice('€29.00 / mois')), '29,00 € / mois');
    assert.equal(plain(frenchPrice('$10')), '10 $');
    assert.equal(plain(frenchPrice('CHF 12.50')), '12,50 CHF');
  });

  test('anything else is left alone', () => {
    for (const text of ['29 €', 'Pro', '€', '29', 'Offre à €29 par mois', '€ 29', '']) {
      assert.equal(frenchPrice(text), null, text);
    }
    assert.equal(plain(frenchAmount('0.5')), '0,5');
  });

  test('dates of formatDate (always en-US) and of an American browser', () => {
    assert.equal(frenchDate('December 6, 2026', false), '6 décembre 2026');
    assert.equal(frenchDate('Dec 6', false), '6 déc.');
    assert.equal(frenchDate('May 1', false), '1 mai');
    assert.equal(frenchDate('December 2026', false), 'décembre 2026');
    assert.equal(frenchDate('12/6/2026', true), '06/12/2026');
    // A browser that writes the day first wrote it in its own order already.
    assert.equal(frenchDate('06/12/2026', false), null);
  });

  test('names that only look like dates are left alone', () => {
    for (const text of ['Acme 2026', 'Decembre 2026', 'Foo 6', 'Team 2, 2026', '6 décembre 2026', 'Mon 12']) {
      assert.equal(frenchDate(text, true), null, text);
    }
  });
});
