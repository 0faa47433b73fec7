import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { followPhoneCountry, type PhoneCountryHolder } from '../src/features/language/phone-country.ts';

/** clerk-js 5.90.0's own handling of the field (core/clerk.ts __internal_setCountry): the first value wins. */
function clerkJsInstance(country?: string | null) {
  const clerk: PhoneCountryHolder & { setCountry(country: string | null): void } = {
    __internal_country: country,
    setCountry(next) {
      if (!this.__internal_country) this.__internal_country = next;
    },
  };
  return clerk;
}

describe("the phone input's starting country follows the interface language", () => {
  test('French: France (+33), whatever the Frontend API geolocated', () => {
    const clerk = clerkJsInstance('us');
    followPhoneCountry(clerk, 'FR');
    assert.equal(clerk.__internal_country, 'fr');
    // A later answer's x-country does not take it back (clerk-js keeps the first value).
    clerk.setCountry('de');
    assert.equal(clerk.__internal_country, 'fr');
  });

  test("English: clerk-js's own choice, given back after French", () => {
    const clerk = clerkJsInstance('gb');
    followPhoneCountry(clerk, 'FR');
    followPhoneCountry(clerk, 'EN');
    assert.equal(clerk.__internal_country, 'gb');
  });

  test('English with no country known yet: left to clerk-js (a later x-country, else the United States)', () => {
    const clerk = clerkJsInstance();
    followPhoneCountry(clerk, 'EN');
    assert.equal(clerk.__internal_country, null);
    clerk.setCountry('ca');
    assert.equal(clerk.__internal_country, 'ca');
  });
});
