import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { i18n } from 'i18next';
import { startupLanguage } from '../src/app/startup-language.ts';
import { MODULES } from '../src/features/modules/modules.ts';
import {
  CLERK_ERROR_KEYS,
  errorMessage,
  errorMessageKey,
  PRODUCT_API_ERROR_KEYS,
  TranslatableError,
} from '../src/lib/error-message.ts';
import { HttpError } from '../src/lib/http/http-error.ts';
import { createI18n } from '../src/lib/i18n/create-i18n.ts';
import { ORG_ROLES, ROLE_LABEL_KEYS, roleLabel, roleLabelKey } from '../src/state/auth/roles.ts';

type Tree = { [key: string]: string | Tree };
const load = (lang: 'en' | 'fr') =>
  JSON.parse(
    readFileSync(new URL(`../public/assets/i18n/${lang}/translations.json`, import.meta.url), 'utf8'),
  ) as Tree;
const lookup = (tree: Tree, key: string): unknown =>
  key.split('.').reduce<unknown>((node, part) => (node as Tree | undefined)?.[part], tree);

async function translator(language: 'FR' | 'EN'): Promise<{ i18n: i18n; warnings: string[] }> {
  const warnings: string[] = [];
  const i18n = await createI18n({
    language,
    production: false,
    warn: (m) => warnings.push(m),
    translations: { EN: load('en'), FR: load('fr') },
  });
  return { i18n, warnings };
}

/** Keys the code builds or passes around rather than writing inside t(), which i18n.test.ts cannot see. */
const indirectKeys = [
  ...Object.values(ROLE_LABEL_KEYS),
  ...Object.values(PRODUCT_API_ERROR_KEYS),
  ...Object.values(CLERK_ERROR_KEYS),
  'errors.api.unreachable',
  'errors.api.unexpectedAnswer',
  'errors.api.failedWithStatus',
  ...MODULES.map((m) => `modules.${m.key}.name`),
];

describe('translation keys used indirectly', () => {
  test('exist in both languages', () => {
    for (const lang of ['en', 'fr'] as const) {
      const tree = load(lang);
      const missing = indirectKeys.filter((key) => typeof lookup(tree, key) !== 'string');
      assert.deepEqual(missing, [], lang);
    }
  });

  test('fallback keys passed to errorMessage() and <Trans i18nKey> exist in both languages', () => {
    const files = [
      'features/dashboard/DashboardPage.tsx',
      'features/diagnostics/ProductApiCard.tsx',
      'features/organizations/CreateOrganizationPage.tsx',
      'features/organizations/current-organization-query.ts',
      'features/organizations/useCurrentOrganization.ts',
      'features/organizations/members/MembersPage.tsx',
      'features/settings/SettingsPage.tsx',
    ];
    const keys = new Set<string>();
    for (const file of files) {
      const source = readFileSync(fileURLToPath(new URL(`../src/${file}`, import.meta.url)), 'utf8');
      for (const m of source.matchAll(/errorMessage\([^)]*?'([\w.]+)'\)/g)) keys.add(m[1]!);
      for (const m of source.matchAll(/i18nKey="([\w.]+)"/g)) keys.add(m[1]!);
      for (const m of source.matchAll(/TranslatableError\('([\w.]+)'\)/g)) keys.add(m[1]!);
      for (const m of source.matchAll(/^\s*'((?:members|settings|organizations|dashboard)\.[\w.]+)',$/gm))
        keys.add(m[1]!);
    }
    assert.ok(keys.size >= 10, `the scan found only ${[...keys].join(', ')}`);
    for (const lang of ['en', 'fr'] as const) {
      const tree = load(lang);
      assert.deepEqual(
        [...keys].filter((key) => typeof lookup(tree, key) !== 'string'),
        [],
        lang,
      );
    }
  });
});

describe('role labels', () => {
  test('the three roles have a translation key; a custom role has none', () => {
    assert.equal(roleLabelKey(ORG_ROLES.admin), 'organizations.roles.admin');
    assert.equal(roleLabelKey(ORG_ROLES.member), 'organizations.roles.member');
    assert.equal(roleLabelKey(ORG_ROLES.vciso), 'organizations.roles.vciso');
    assert.equal(roleLabelKey('org:auditor'), null);
    assert.equal(roleLabelKey('toString'), null);
  });

  test('read in the interface language', async () => {
    const fr = (await translator('FR')).i18n.t;
    const en = (await translator('EN')).i18n.t;
    assert.equal(roleLabel('org:admin', en), 'Admin');
    assert.equal(roleLabel('org:member', en), 'Member');
    assert.equal(roleLabel('org:vciso', en), 'Virtual security officer');
    assert.equal(roleLabel('org:admin', fr), 'Administrateur');
    assert.equal(roleLabel('org:member', fr), 'Membre');
    assert.equal(roleLabel('org:vciso', fr), 'RSSI virtuel');
  });

  test('a custom role shows the provider name, else its key without the prefix', async () => {
    const { i18n, warnings } = await translator('FR');
    assert.equal(roleLabel('org:auditor', i18n.t, 'Auditeur'), 'Auditeur');
    assert.equal(roleLabel('org:auditor', i18n.t), 'auditor');
    // A known role ignores the provider's (English) name.
    assert.equal(roleLabel('org:admin', i18n.t, 'Admin'), 'Administrateur');
    assert.deepEqual(warnings, []);
  });
});

describe('error messages', () => {
  // The shape clerk-js throws (ClerkAPIResponseError), which isClerkAPIResponseError recognises.
  const clerkError = (code: string) =>
    Object.assign(new Error('Request failed'), {
      clerkError: true,
      status: 422,
      errors: [{ code, message: 'English message', longMessage: 'An English long message.' }],
    });

  test('a product API code is worded in the interface language, never with the server text', async () => {
    const { i18n } = await translator('FR');
    const forbidden = new HttpError('Your role … does not allow this.', 403, 'forbidden');
    assert.equal(
      errorMessage(forbidden, i18n.t, 'settings.notSaved'),
      lookup(load('fr'), 'errors.api.forbidden'),
    );
    const unknown = new HttpError('Teapot', 418, 'teapot');
    assert.equal(
      errorMessage(unknown, i18n.t, 'settings.notSaved'),
      "L'API du produit a répondu par une erreur (HTTP 418).",
    );
  });

  test('no answer: unreachable when the network failed, unexpected when the answer was unreadable', () => {
    const unreachable = new HttpError('Could not reach the product API.', null);
    unreachable.cause = new TypeError('Failed to fetch');
    assert.equal(errorMessageKey(unreachable)?.key, 'errors.api.unreachable');
    assert.equal(errorMessageKey(new HttpError('not JSON', null))?.key, 'errors.api.unexpectedAnswer');
  });

  test('a known Clerk code is ours; an unknown one falls back to the caller’s message', async () => {
    const { i18n } = await translator('FR');
    assert.equal(
      errorMessage(
        clerkError('organization_minimum_permissions_needed'),
        i18n.t,
        'members.errors.roleNotChanged',
      ),
      lookup(load('fr'), 'errors.clerk.minimumPermissions'),
    );
    assert.equal(
      errorMessage(clerkError('something_new'), i18n.t, 'members.errors.roleNotChanged'),
      "Le rôle n'a pas pu être modifié.",
    );
  });

  test('a Clerk code named like what every object inherits is unknown, not a crash', async () => {
    const { i18n } = await translator('FR');
    for (const code of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      assert.equal(errorMessageKey(clerkError(code)), null, code);
      assert.equal(
        errorMessage(clerkError(code), i18n.t, 'members.errors.roleNotChanged'),
        "Le rôle n'a pas pu être modifié.",
        code,
      );
    }
  });

  test('our own failures carry their key; anything else gets the fallback', async () => {
    const { i18n } = await translator('EN');
    assert.equal(
      errorMessage(
        new TranslatableError('organizations.changedWhileLoading'),
        i18n.t,
        'organizations.loadFailed',
      ),
      'The active organisation changed while it was loading. Try again.',
    );
    assert.equal(
      errorMessage(new Error('Some English from a library'), i18n.t, 'organizations.loadFailed'),
      'The organisation could not be loaded.',
    );
  });
});

describe('the startup error screen’s language', () => {
  test('?lang= first, then the saved choice, then the browser’s preference, else French', () => {
    assert.equal(startupLanguage({ search: '?lang=en', stored: 'FR', preferred: ['fr-FR'] }), 'EN');
    assert.equal(startupLanguage({ search: '', stored: 'EN', preferred: ['fr-FR'] }), 'EN');
    assert.equal(startupLanguage({ search: '', stored: null, preferred: ['de-DE', 'en-GB', 'fr'] }), 'EN');
    assert.equal(startupLanguage({ search: '', stored: 'garbage', preferred: ['fr-CA'] }), 'FR');
    assert.equal(startupLanguage({ search: '', stored: null, preferred: ['de', 'es'] }), 'FR');
    assert.equal(startupLanguage({ search: '', stored: null, preferred: [] }), 'FR');
  });
});
