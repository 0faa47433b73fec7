import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Page, Request } from 'playwright-core';
import { useSuite } from '../support/suite.ts';
import {
  clickUntilRequest,
  enterCode,
  uniqueEmail,
  waitForHash,
  waitForPath,
  PASSWORD,
} from '../support/flows.ts';
import { openDiagnostics } from '../support/diagnostics.ts';
import { waitForCode } from '../support/outbox.ts';

type Translations = { [key: string]: string | Translations };
const translations = (lang: 'en' | 'fr') =>
  JSON.parse(
    readFileSync(new URL(`../../web/public/assets/i18n/${lang}/translations.json`, import.meta.url), 'utf8'),
  ) as Translations;
const EN = translations('en');
const FR = translations('fr');

/** Every string of a section with its dotted key. */
function entries(section: Translations, prefix = ''): [string, string][] {
  return Object.entries(section).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value]] : entries(value, `${prefix}${key}.`),
  );
}

/**
 * The English phrases of a section that French never uses: each value's literal parts (around
 * `{{placeholders}}` and `<tags>`) of some length that no French value contains (so `/api/me` or a
 * word both languages share is not one).
 */
function englishOnlyPhrases(section: string): string[] {
  const french = entries(FR).map(([, value]) => value);
  return entries(EN[section] as Translations)
    .flatMap(([, value]) => value.split(/\{\{[^}]*\}\}|<\/?\w+>/))
    .map((part) => part.trim())
    .filter((part) => part.length >= 6 && !french.some((value) => value.includes(part)));
}

const productApiHeaders = (page: Page) => {
  const seen: { path: string; localization: string | undefined }[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/'))
      seen.push({ path: url.pathname, localization: request.headers()['x-localization'] });
  });
  return seen;
};

const markNoReload = (page: Page) =>
  page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
const stillNoReload = (page: Page) =>
  page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload === true);
const pageLang = (page: Page) => page.evaluate(() => document.documentElement.lang);
const clerkButton = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

describe('interface language: French by default, English on demand', () => {
  const suite = useSuite();
  let page: Page;

  before(async () => {
    // A newcomer's browser: it has chosen nothing, so the product speaks its default, French.
    page = (await suite.newPage({ language: null })).page;
  });

  test('a newcomer sees the landing page and the Clerk sign-in in French', async () => {
    await page.goto(`${suite.server.origin}/`);
    await page.getByTestId('landing').waitFor();
    assert.equal(await pageLang(page), 'fr');
    assert.equal(
      await page.getByRole('heading', { level: 1 }).textContent(),
      (FR.landing as Translations).heading,
    );
    assert.equal(await page.getByTestId('sign-in-link').textContent(), 'Se connecter');

    await page.getByTestId('sign-in-link').click();
    await page.locator('.cl-signIn-root input[name=identifier]').waitFor();
    await clerkButton(page, 'Continuer').waitFor();
    assert.equal(await page.getByTestId('language-FR').getAttribute('aria-pressed'), 'true');
  });

  test('the header toggle switches to English at once, Clerk included; a reload keeps it', async () => {
    await markNoReload(page);
    await page.getByTestId('language-EN').click();
    await clerkButton(page, 'Continue').waitFor();
    assert.equal(await pageLang(page), 'en');
    assert.equal(await stillNoReload(page), true);
    assert.equal(await page.title(), `Sign in · Qoala`);

    await page.reload();
    await clerkButton(page, 'Continue').waitFor();
    assert.equal(await pageLang(page), 'en');
    assert.equal(await page.getByTestId('language-EN').getAttribute('aria-pressed'), 'true');
  });

  test('a ?lang=fr link switches back to French, and the choice outlives the parameter', async () => {
    await page.goto(`${suite.server.origin}/?lang=fr`);
    await page.getByTestId('landing').waitFor();
    assert.equal(await pageLang(page), 'fr');
    assert.equal(await page.getByTestId('sign-up-link').textContent(), "S'inscrire");

    await page.goto(`${suite.server.origin}/sign-up`);
    await page.locator('.cl-signUp-root input[name=emailAddress]').waitFor();
    await clerkButton(page, 'Continuer').waitFor();
    assert.equal(await pageLang(page), 'fr');
  });

  test('signed up in French: the dashboard and the product API requests speak French, then English', async () => {
    const requests = productApiHeaders(page);
    const email = uniqueEmail('language');
    const since = new Date();
    await page.locator('input[name=emailAddress]').fill(email);
    await page.locator('input[name=password]').fill(PASSWORD);
    await clickUntilRequest(page, clerkButton(page, 'Continuer'), /\/v1\/client\/sign_ups$/);
    await waitForHash(page, '/verify-email-address');
    await enterCode(page, await waitForCode(suite.server.origin, email, since));

    await page.getByTestId('create-organization-page').waitFor();
    await page.locator('.cl-createOrganization-root input[name=name]').fill('Équipe Langues');
    await clerkButton(page, 'Créer l’organisation').click();
    const skip = clerkButton(page, 'Passer');
    await Promise.race([
      skip.waitFor({ timeout: 15_000 }).then(() => skip.click()),
      waitForPath(page, '/dashboard'),
    ]);
    await waitForPath(page, '/dashboard');
    await page.getByTestId('dashboard-org-name').filter({ hasText: 'Équipe Langues' }).waitFor();

    assert.equal(await pageLang(page), 'fr');
    assert.equal(await page.getByTestId('dashboard-role').textContent(), 'Administrateur');
    assert.equal(
      await page.getByTestId('module-compliance').locator('.module__label').textContent(),
      'Conformité',
    );
    const visible = await page.locator('body').innerText();
    for (const section of ['dashboard', 'layout', 'common', 'organizations', 'nav', 'language']) {
      const leaked = englishOnlyPhrases(section).filter((phrase) => visible.includes(phrase));
      assert.deepEqual(leaked, [], `English from "${section}" on the French dashboard`);
    }

    const apiCalls = requests.filter((r) => r.path === '/api/organizations/current');
    assert.ok(apiCalls.length > 0, 'the dashboard called the product API');
    assert.deepEqual(
      apiCalls.filter((r) => r.localization !== 'FR'),
      [],
      'every product API request in French carries x-localization: FR',
    );

    await markNoReload(page);
    await page.getByTestId('language-EN').click();
    // Exact: 'Admin' is also the start of the French 'Administrateur', which would end the wait at once.
    await page
      .getByTestId('dashboard-role')
      .filter({ hasText: /^Admin$/ })
      .waitFor();
    assert.equal(await pageLang(page), 'en');
    const before = requests.length;
    await openDiagnostics(page);
    const afterToggle = requests.slice(before).filter((r) => r.path === '/api/me');
    assert.ok(afterToggle.length > 0, 'the diagnostics page called the product API');
    assert.deepEqual(
      afterToggle.map((r) => r.localization),
      afterToggle.map(() => 'EN'),
    );
    assert.equal(await stillNoReload(page), true);
  });
});
