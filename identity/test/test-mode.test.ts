import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isTestEmail, isTestPhoneNumber } from '../src/instance/test-mode.ts';

test('test-mode email addresses contain +clerk_test', () => {
  assert.equal(isTestEmail('jane+clerk_test@example.com'), true);
  assert.equal(isTestEmail('Jane+Clerk_Test+x@Example.com'), true);
  assert.equal(isTestEmail('jane@example.com'), false);
  assert.equal(isTestEmail('jane+clerk@example.com'), false);
});

test('test-mode phone numbers are +1 (XXX) 555-0100 to 555-0199', () => {
  assert.equal(isTestPhoneNumber('+1 (201) 555-0100'), true);
  assert.equal(isTestPhoneNumber('+12015550199'), true);
  assert.equal(isTestPhoneNumber('+1 201 555 0123'), true);
  assert.equal(isTestPhoneNumber('+1 (201) 555-0200'), false);
  assert.equal(isTestPhoneNumber('+1 (201) 555-0099'), false);
  assert.equal(isTestPhoneNumber('+44 201 555 0100'), false);
});
