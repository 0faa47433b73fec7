import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { enUS } from '@clerk/localizations';
import type { LocalizationResource } from '@clerk/types';
import { ORG_ROLES } from '@app/contract';
import { loadClerkLocalization } from '../src/app/clerk-localization-loader.ts';

/*
 * Which words clerk-js reads, taken from the clerk-js the product serves (node_modules, the same files
 * server/src/static/clerk-js.ts sends: clerk.browser.js and its *_clerk.browser_<hash>_<version>.js chunks)
 * rather than from a list kept by hand, so a clerk-js upgrade that reads new words fails here.
 *
 * Why string literals of the built code: clerk-js names every word by its dotted path in a string literal,
 * `localizationKeys('apiKeys.action__add')`, which survives minification whole. Not the LocalizationResource
 * type of @clerk/types: it is the set of words one *may* give, including those of components clerk-js no
 * longer reads or the product does not mount. A literal counts as a word when it names a string of enUS,
 * the resource clerk-js 5.90.0 bundles as its own defaults (`defaultResource = enUS as DeepRequired<...>`)
 * and types its keys against: that drops look-alikes such as 'signIn.identifier' (an object, not a word).
 *
 * The few words clerk-js builds at run time are listed below with the template they come from, and the
 * template is checked to be still there.
 */
const require = createRequire(import.meta.url);
const CLERK_JS_DIST = join(dirname(require.resolve('@clerk/clerk-js/package.json')), 'dist');

/** Chunks of components the product does not mount (it mounts SignIn, SignUp, UserProfile, UserButton,
 * OrganizationProfile, OrganizationSwitcher, CreateOrganization, OrganizationList, APIKeys, PricingTable
 * with checkout and subscription details, Waitlist, GoogleOneTap, the OAuth consent screen and the
 * choose-organization task): the keyless prompt only, shown by development instances without keys. */
const NOT_MOUNTED = /^keylessPrompt_/;

const DYNAMIC: { template: string; keys: string[] }[] = [
  {
    // useLocalizeCustomRole: roles[key], else the server's role name (English).
    template: '`roles.${e}`',
    keys: Object.values(ORG_ROLES).map((role) => `roles.${role}`),
  },
  {
    template: '`commerce.subscriptionDetails.${i?"firstPaymentOn":"nextPaymentOn"}`',
    keys: ['commerce.subscriptionDetails.firstPaymentOn', 'commerce.subscriptionDetails.nextPaymentOn'],
  },
  {
    template: '`commerce.subscriptionDetails.${i?"firstPaymentAmount":"nextPaymentAmount"}`',
    keys: [
      'commerce.subscriptionDetails.firstPaymentAmount',
      'commerce.subscriptionDetails.nextPaymentAmount',
    ],
  },
  {
    template: '`commerce.${"month"===e.planPeriod?"month":"year"}`',
    keys: ['commerce.month', 'commerce.year'],
  },
];

const read = (resource: unknown, key: string): unknown =>
  key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], resource);

const builtCode = (): string =>
  readdirSync(CLERK_JS_DIST)
    .filter((file) => file === 'clerk.browser.js' || /_clerk\.browser_[0-9a-f]+_[\d.]+\.js$/.test(file))
    .filter((file) => !NOT_MOUNTED.test(file))
    .map((file) => readFileSync(join(CLERK_JS_DIST, file), 'utf8'))
    .join('\n');

function wordsClerkReads(): string[] {
  const code = builtCode();
  const keys = new Set<string>();
  for (const [, literal] of code.matchAll(/["'`]([a-zA-Z][\w]*(?:\.\w+)*)["'`]/g)) {
    if (typeof read(enUS, literal!) === 'string') keys.add(literal!);
  }
  for (const { template, keys: built } of DYNAMIC) {
    assert.ok(code.includes(template), `clerk-js no longer builds words with ${template}: update DYNAMIC`);
    built.forEach((key) => keys.add(key));
  }
  return [...keys].sort();
}

const unworded = (resource: LocalizationResource, keys: string[]): string[] =>
  keys.filter((key) => {
    const word = read(resource, key);
    return typeof word !== 'string' || word.trim() === '';
  });

describe('the Clerk words of each language', () => {
  const keys = wordsClerkReads();

  test('clerk-js is read: hundreds of words, among them the API keys screen', () => {
    assert.ok(keys.length > 500, `only ${keys.length} words found`);
    assert.ok(keys.includes('apiKeys.action__add'));
  });

  for (const language of ['FR', 'EN'] as const) {
    test(`${language} has a word for every key clerk-js reads`, async () => {
      assert.deepEqual(unworded(await loadClerkLocalization(language), keys), []);
    });
  }

  test('French dates are formatted the French way', async () => {
    const french = JSON.stringify(await loadClerkLocalization('FR'));
    assert.deepEqual(french.match(/\|\s*\w+\('(?!fr-FR')[^']*'/g) ?? [], []);
  });

  test("the product's words lay over frFR / enUS, keeping theirs elsewhere", async () => {
    const french = await loadClerkLocalization('FR');
    assert.equal(read(french, 'apiKeys.action__add'), 'Ajouter une clé');
    assert.equal(read(french, 'signIn.start.actionLink'), "S'inscrire");
  });
});
