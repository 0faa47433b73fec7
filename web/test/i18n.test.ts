import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createI18n, followLanguage } from '../src/lib/i18n/create-i18n.ts';
import { firstDayOfWeek, formatDate, formatNumber, weekdayNames } from '../src/lib/i18n/format.ts';
import {
  createLanguageStore,
  languageFromSearch,
  LANGUAGE_STORAGE_KEY,
  ORGANIZATION_LANGUAGE_STORAGE_KEY,
} from '../src/lib/i18n/language-store.ts';
import { elide, startsWithVowelSound } from '../src/lib/i18n/elision.ts';
import { normalizeLanguage, parseLanguage } from '../src/lib/i18n/languages.ts';
import type { Translations } from '../src/lib/i18n/translations.ts';

const translations = {
  EN: { greeting: 'Hello {{name}}' },
  FR: { greeting: 'Bonjour {{name}}' },
};

describe('translations: a missing key (spec §8)', () => {
  test('logs a warning outside production and renders nothing', async () => {
    const warnings: string[] = [];
    const i18n = await createI18n({
      language: 'FR',
      production: false,
      warn: (m) => warnings.push(m),
      translations,
    });
    assert.equal(i18n.t('greeting', { name: 'Ada' }), 'Bonjour Ada');
    assert.equal(warnings.length, 0);
    assert.equal(i18n.t('nowhere.to.be.found'), '');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /nowhere\.to\.be\.found/);
  });

  test('renders nothing without a warning in production', async () => {
    const warnings: string[] = [];
    const i18n = await createI18n({
      language: 'EN',
      production: true,
      warn: (m) => warnings.push(m),
      translations,
    });
    assert.equal(i18n.t('nowhere'), '');
    assert.deepEqual(warnings, []);
  });

  test('never falls back to English in the French interface', async () => {
    const warnings: string[] = [];
    const i18n = await createI18n({
      language: 'FR',
      production: false,
      warn: (m) => warnings.push(m),
      translations: { EN: { onlyEnglish: 'English only' }, FR: {} },
    });
    assert.equal(i18n.t('onlyEnglish'), '');
    assert.equal(warnings.length, 1);
  });
});

describe('translations: only the active language at start (issue #13)', () => {
  test('another language is loaded on a switch, and i18next switches once it has arrived', async () => {
    const i18n = await createI18n({
      language: 'FR',
      production: true,
      translations: { FR: translations.FR },
    });
    assert.equal(i18n.hasResourceBundle('en', 'translations'), false);
    const store = createLanguageStore(null);
    const asked: string[] = [];
    let deliver: (words: Record<string, unknown>) => void = () => {};
    followLanguage(i18n, store, (language) => {
      asked.push(language);
      return new Promise((resolve) => (deliver = resolve));
    });
    assert.deepEqual(asked, [], 'the starting language is at hand: nothing to load');
    store.choose('EN');
    assert.deepEqual(asked, ['EN']);
    assert.equal(i18n.t('greeting', { name: 'Ada' }), 'Bonjour Ada', 'French until English has arrived');
    deliver(translations.EN);
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.equal(i18n.language, 'en');
    assert.equal(i18n.t('greeting', { name: 'Ada' }), 'Hello Ada');
    store.choose('FR');
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.equal(i18n.t('greeting', { name: 'Ada' }), 'Bonjour Ada');
    assert.deepEqual(asked, ['EN'], 'a language is loaded once');
  });

  test('a language that cannot be loaded leaves the interface in the one it speaks', async () => {
    const i18n = await createI18n({
      language: 'FR',
      production: true,
      translations: { FR: translations.FR },
    });
    const store = createLanguageStore(null);
    const warnings: string[] = [];
    const failed: string[] = [];
    i18n.on('failedLoading', (language: string) => failed.push(language));
    followLanguage(
      i18n,
      store,
      () => Promise.reject(new Error('offline')),
      (message) => warnings.push(message),
    );
    store.choose('EN');
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.equal(i18n.language, 'fr');
    // Whoever waits for English (LanguageReady) hears that it is not coming.
    assert.deepEqual(failed, ['en']);
    assert.equal(i18n.t('greeting', { name: 'Ada' }), 'Bonjour Ada');
    assert.match(warnings[0] ?? '', /EN translations could not be loaded/);
  });

  test('the starting language must be given', async () => {
    await assert.rejects(
      createI18n({ language: 'EN', production: true, translations: { FR: translations.FR } }),
      /EN translations could not be loaded/,
    );
  });
});

describe('language choice', () => {
  const memory = () => {
    const values = new Map<string, string>();
    return {
      getItem: (k: string) => values.get(k) ?? null,
      setItem: (k: string, v: string) => void values.set(k, v),
      values,
    };
  };

  test('FR by default, the organisation language next, an explicit choice first', () => {
    const store = createLanguageStore(memory());
    assert.equal(store.get(), 'FR');
    store.setOrganizationLanguage('EN');
    assert.equal(store.get(), 'EN');
    store.choose('FR');
    assert.equal(store.get(), 'FR');
    store.setOrganizationLanguage('EN');
    assert.equal(store.get(), 'FR');
  });

  test('a choice persists in storage and is read back on the next load', () => {
    const storage = memory();
    createLanguageStore(storage).choose('EN');
    assert.equal(storage.values.get(LANGUAGE_STORAGE_KEY), 'EN');
    assert.equal(createLanguageStore(storage).get(), 'EN');
  });

  test("the organisation's language is the next load's starting guess, and no organisation forgets it", () => {
    const storage = memory();
    createLanguageStore(storage).setOrganizationLanguage('EN');
    assert.equal(storage.values.get(ORGANIZATION_LANGUAGE_STORAGE_KEY), 'EN');
    // Not a choice: the browser chose nothing.
    assert.equal(storage.values.get(LANGUAGE_STORAGE_KEY), undefined);
    const next = createLanguageStore(storage);
    assert.equal(next.get(), 'EN');
    next.setOrganizationLanguage(null);
    assert.equal(next.get(), 'FR');
    assert.equal(createLanguageStore(storage).get(), 'FR');
  });

  test('effectiveFor: what the interface will speak for an organisation language, a choice first', () => {
    const store = createLanguageStore(memory());
    assert.equal(store.effectiveFor('EN'), 'EN');
    assert.equal(store.effectiveFor(null), 'FR');
    assert.equal(store.get(), 'FR', 'asking changes nothing');
    store.choose('FR');
    assert.equal(store.effectiveFor('EN'), 'FR');
  });

  test('a storage that throws or holds garbage falls back to FR', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    const store = createLanguageStore(broken);
    assert.equal(store.get(), 'FR');
    store.choose('EN');
    assert.equal(store.get(), 'EN');
    const garbage = memory();
    garbage.values.set(LANGUAGE_STORAGE_KEY, 'de');
    assert.equal(createLanguageStore(garbage).get(), 'FR');
  });

  test('listeners hear only real changes', () => {
    const store = createLanguageStore(null);
    let calls = 0;
    const unsubscribe = store.subscribe(() => calls++);
    store.setOrganizationLanguage('FR');
    assert.equal(calls, 0);
    store.choose('EN');
    store.choose('EN');
    assert.equal(calls, 1);
    unsubscribe();
    store.choose('FR');
    assert.equal(calls, 1);
  });

  test('?lang= accepts en and fr in any case, nothing else', () => {
    assert.equal(languageFromSearch('?lang=en'), 'EN');
    assert.equal(languageFromSearch('?x=1&lang=FR'), 'FR');
    assert.equal(languageFromSearch('?lang=de'), null);
    assert.equal(languageFromSearch(''), null);
    assert.equal(parseLanguage(' en '), 'EN');
    assert.equal(normalizeLanguage('es'), 'FR');
  });
});

describe('dates and numbers', () => {
  test('use fr-FR and en-US', () => {
    const date = Date.UTC(2026, 10, 22, 12);
    assert.match(formatDate(date, 'FR'), /22 nov\.? 2026/);
    assert.match(formatDate(date, 'EN'), /Nov 22, 2026/);
    assert.equal(formatNumber(1234567.5, 'EN'), '1,234,567.5');
    assert.match(formatNumber(1234567.5, 'FR'), /^1\s234\s567,5$/);
  });

  test('French weeks start on Monday, US English weeks on Sunday', () => {
    assert.equal(firstDayOfWeek('FR'), 1);
    assert.equal(firstDayOfWeek('EN'), 0);
    assert.equal(weekdayNames('FR', 'long')[0], 'lundi');
    assert.equal(weekdayNames('EN', 'long')[0], 'Sunday');
    assert.equal(weekdayNames('FR').length, 7);
  });
});

describe('translation files', () => {
  const load = (lang: string) =>
    JSON.parse(
      readFileSync(new URL(`../public/assets/i18n/${lang}/translations.json`, import.meta.url), 'utf8'),
    ) as object;
  const keys = (value: unknown, prefix = ''): string[] =>
    typeof value === 'object' && value !== null
      ? Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k))
      : [prefix];

  test('English and French have exactly the same keys, none empty', () => {
    const en = load('en');
    const fr = load('fr');
    assert.deepEqual(keys(fr).sort(), keys(en).sort());
    for (const [lang, file] of [
      ['en', en],
      ['fr', fr],
    ] as const) {
      for (const key of keys(file)) {
        const value = key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], file);
        assert.equal(typeof value, 'string', `${lang}: ${key}`);
        assert.notEqual((value as string).trim(), '', `${lang}: ${key} is empty`);
      }
    }
  });

  test('every literal key the code passes to t() exists in both languages', () => {
    const src = fileURLToPath(new URL('../src', import.meta.url));
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(name)) files.push(path);
      }
    };
    walk(src);
    const used = new Set<string>();
    for (const file of files) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\bt\(\s*['"]([A-Za-z0-9_.-]+)['"]/g))
        used.add(match[1]!);
    }
    assert.ok(used.size > 0, 'no t() call found: the scan is broken');
    for (const lang of ['en', 'fr']) {
      const known = new Set(keys(load(lang)));
      const missing = [...used].filter(
        (key) => !known.has(key) && ![...known].some((k) => k.startsWith(`${key}_`)),
      );
      assert.deepEqual(missing, [], `${lang}: keys used in the code but missing from translations.json`);
    }
  });
});

describe('French elision', () => {
  test('de, le, la and que elide before a vowel sound, not before a consonant; à and de contract with Le and Les', () => {
    assert.equal(elide('de', 'Acme'), "d'Acme");
    assert.equal(elide('de', 'Zurich Ops'), 'de Zurich Ops');
    assert.equal(elide('de', 'Élodie Martin'), "d'Élodie Martin");
    assert.equal(elide('de', 'Hélène'), "d'Hélène");
    assert.equal(elide('de', 'Yves'), "d'Yves");
    assert.equal(elide('de', 'Yann'), 'de Yann');
    assert.equal(elide('le', 'Orchestre'), "l'Orchestre");
    assert.equal(elide('la', 'Agence'), "l'Agence");
    assert.equal(elide('que', 'Acme'), "qu'Acme");
    // A name that begins with the article le or les contracts with à and de, as any noun does.
    assert.equal(elide('à', 'Le Cabinet Martin'), 'au Cabinet Martin');
    assert.equal(elide('à', 'Les Experts'), 'aux Experts');
    assert.equal(elide('à', 'La Poste'), 'à La Poste');
    assert.equal(elide('à', "L'Atelier"), "à L'Atelier");
    assert.equal(elide('à', 'Acme'), 'à Acme');
    assert.equal(elide('à', 'Lesieur'), 'à Lesieur');
    assert.equal(elide('de', 'Le Cabinet Martin'), 'du Cabinet Martin');
    assert.equal(elide('de', 'Les Experts'), 'des Experts');
    assert.equal(elide('de', 'Lesieur'), 'de Lesieur');
    for (const name of ['42 Conseil', '« Acme »', 'bob@example.com', ''])
      assert.equal(startsWithVowelSound(name), false, name);
    assert.equal(startsWithVowelSound('bob@example.com'), false);
    assert.equal(startsWithVowelSound('alice@example.com'), true);
  });

  test("the product's French texts say d'Acme, never de Acme", async () => {
    const fr = JSON.parse(
      readFileSync(
        fileURLToPath(new URL('../public/assets/i18n/fr/translations.json', import.meta.url)),
        'utf8',
      ),
    ) as Translations;
    const en = JSON.parse(
      readFileSync(
        fileURLToPath(new URL('../public/assets/i18n/en/translations.json', import.meta.url)),
        'utf8',
      ),
    ) as Translations;
    const i18n = await createI18n({ language: 'FR', production: true, translations: { FR: fr, EN: en } });
    assert.equal(i18n.t('members.roleOf', { name: 'Alice Martin' }), "Rôle d'Alice Martin");
    assert.equal(i18n.t('members.roleOf', { name: 'Bob Durand' }), 'Rôle de Bob Durand');
    assert.match(
      i18n.t('members.notices.roleChanged', { name: 'Ève', role: 'Membre' }),
      /^Nouveau rôle d'Ève\s:/,
    );
    assert.equal(
      i18n.t('vciso.intro', { name: 'Acme Sécurité' }),
      "Les organisations que vous suivez en tant que RSSI virtuel d'Acme Sécurité.",
    );
    assert.equal(i18n.t('vciso.switch.label', { name: 'Le Cabinet Martin' }), 'Passer au Cabinet Martin');
    assert.equal(i18n.t('vciso.parent.switchTo', { name: 'Les Experts' }), 'Passer aux Experts');
    assert.equal(i18n.t('vciso.switch.label', { name: 'Acme' }), 'Passer à Acme');
    await i18n.changeLanguage('en');
    assert.doesNotMatch(i18n.t('members.roleOf', { name: 'Alice' }), /d'|\bde\b/);
    // No French text puts a value right after a full "de", "le", "la" or "que", nor a name after "à":
    // each goes through the format.
    const texts = (value: unknown): string[] =>
      typeof value === 'string' ? [value] : Object.values(value as object).flatMap(texts);
    const unelided = texts(fr).filter((text) =>
      /(?:^|[\s(«])(?:(?:de|le|la|que)\s\{\{|à\s\{\{\s*name\b)/i.test(text),
    );
    assert.deepEqual(unelided, []);
  });
});
