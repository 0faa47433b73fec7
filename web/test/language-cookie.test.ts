import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { keepLanguageCookie, UI_LANGUAGE_COOKIE } from '../src/lib/i18n/language-cookie.ts';
import { createLanguageStore } from '../src/lib/i18n/language-store.ts';

describe('the ui_language cookie (the Frontend API writes plan names in it)', () => {
  test("holds the interface's language from the start, and each language after", () => {
    const written: string[] = [];
    const doc = {
      set cookie(value: string) {
        written.push(value);
      },
      get cookie() {
        return written.at(-1) ?? '';
      },
    };
    const languages = createLanguageStore(null);
    keepLanguageCookie(languages, doc);
    languages.choose('EN');
    languages.setOrganizationLanguage('FR');
    assert.deepEqual(
      written.map((c) => c.split(';')[0]),
      [`${UI_LANGUAGE_COOKIE}=FR`, `${UI_LANGUAGE_COOKIE}=EN`],
    );
    assert.match(written[0]!, /; Path=\/; Max-Age=\d+; SameSite=Lax/);
  });
});
