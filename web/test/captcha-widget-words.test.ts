import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { widgetWords } from '../src/identity-provider/captcha/proof-of-work-turnstile.ts';

/** The proof-of-work widget clerk-js shows in its captcha modal speaks the page's language (docs/captcha.md). */
describe('proof-of-work widget words', () => {
  test('French for a French page, whatever the region', () => {
    for (const lang of ['fr', 'fr-FR', 'FR-ca']) {
      assert.deepEqual(widgetWords(lang), {
        working: 'Vérification que vous êtes humain…',
        done: 'Vérifié',
        failed: 'La vérification a échoué',
      });
    }
  });

  test('English otherwise, an unset language included', () => {
    for (const lang of ['en', 'en-GB', '']) assert.equal(widgetWords(lang).done, 'Verified');
  });
});
