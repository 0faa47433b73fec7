import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isAllowedRedirect } from '../src/http/redirects.ts';
import { identityConfigFromEnv } from '../src/config.ts';

const config = identityConfigFromEnv({
  PUBLIC_URL: 'http://localhost:3000',
  ALLOWED_ORIGINS: 'https://example.com',
});

test('redirects to the product origin and allowed origins (and their subdomains) pass', () => {
  assert.equal(isAllowedRedirect('http://localhost:3000/dashboard', config), true);
  assert.equal(isAllowedRedirect('/sign-in#/factor-one', config), true);
  assert.equal(isAllowedRedirect('https://example.com/x', config), true);
  assert.equal(isAllowedRedirect('https://app.example.com/x', config), true);
});

test('other origins, look-alike hosts and non-http schemes are refused', () => {
  assert.equal(isAllowedRedirect('https://evil.test/', config), false);
  assert.equal(isAllowedRedirect('https://example.com.evil.test/', config), false);
  assert.equal(isAllowedRedirect('https://notexample.com/', config), false);
  assert.equal(isAllowedRedirect('http://localhost:4000/', config), false);
  assert.equal(isAllowedRedirect('http://example.com/', config), false);
  assert.equal(isAllowedRedirect('javascript:alert(1)', config), false);
  assert.equal(isAllowedRedirect('//evil.test/path', config), false);
});
