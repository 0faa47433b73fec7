import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isAllowedRedirect } from '../src/http/redirects.ts';
import { identityConfigFromEnv } from '../src/config.ts';
import { OFF_ORIGIN_REDIRECTS, SAME_ORIGIN_DISGUISES } from './support/redirect-attacks.ts';

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

test('every open-redirect attempt of the attack table is refused', () => {
  for (const [label, url] of OFF_ORIGIN_REDIRECTS) {
    assert.equal(isAllowedRedirect(url, config), false, `${label}: ${JSON.stringify(url)}`);
  }
});

test('percent-encoded schemes and hosts are paths on the product origin, which is where they lead', () => {
  for (const url of SAME_ORIGIN_DISGUISES) {
    assert.equal(isAllowedRedirect(url, config), true, JSON.stringify(url));
    assert.equal(new URL(url, config.publicUrl).origin, 'http://localhost:3000', JSON.stringify(url));
  }
});
