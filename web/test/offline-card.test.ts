import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { luhnValid, validateCard } from '../src/identity-provider/offline-stripe/offline-card-form.ts';

/** The offline gateway's card form checks a card before sending it (identity-provider/offline-stripe/, docs/billing.md). */
describe('offline card form: the local check', () => {
  const now = new Date('2026-06-15T00:00:00Z');
  const card = { number: '4242424242424242', expMonth: '12', expYear: '34', cvc: '123' };

  test("Luhn's checksum", () => {
    assert.equal(luhnValid('4242424242424242'), true);
    assert.equal(luhnValid('4000000000000002'), true);
    assert.equal(luhnValid('4242424242424241'), false);
    assert.equal(luhnValid(''), false);
  });

  test('a complete, valid card passes (a declined test card too: the gateway declines it)', () => {
    assert.equal(validateCard(card, now), null);
    assert.equal(validateCard({ ...card, number: '4000000000000002' }, now), null);
  });

  test('each problem is named with Stripe’s code and the field to fix', () => {
    assert.deepEqual(validateCard({ ...card, number: '4242' }, now), {
      code: 'incomplete_number',
      field: 'number',
    });
    assert.deepEqual(validateCard({ ...card, number: '4242424242424241' }, now), {
      code: 'invalid_number',
      field: 'number',
    });
    assert.deepEqual(validateCard({ ...card, expYear: '' }, now), {
      code: 'incomplete_expiry',
      field: 'expiry',
    });
    assert.deepEqual(validateCard({ ...card, expMonth: '13' }, now), {
      code: 'invalid_expiry_month',
      field: 'expiry',
    });
    assert.deepEqual(validateCard({ ...card, expMonth: '05', expYear: '26' }, now), {
      code: 'invalid_expiry_year_past',
      field: 'expiry',
    });
    assert.equal(
      validateCard({ ...card, expMonth: '06', expYear: '26' }, now),
      null,
      'this month is still valid',
    );
    assert.deepEqual(validateCard({ ...card, cvc: '12' }, now), { code: 'incomplete_cvc', field: 'cvc' });
  });
});
