import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadClerkLocalization } from '../src/app/clerk-localization.ts';

describe("Clerk's texts per language", () => {
  test('each language loads its own texts', async () => {
    const [english, french] = await Promise.all([loadClerkLocalization('EN'), loadClerkLocalization('FR')]);
    assert.equal(english.locale, 'en-US');
    assert.equal(french.locale, 'fr-FR');
  });

  test('a language loaded once is served from memory afterwards', async () => {
    const first = await loadClerkLocalization('FR');
    assert.equal(await loadClerkLocalization('FR'), first);
  });
});
