import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSuite } from '../support/suite.ts';
import { waitForPath } from '../support/flows.ts';
import { HELP_PAGES } from '../../web/src/features/help/help-pages.ts';

describe('help centre', () => {
  const suite = useSuite();

  test('the index links every page, and a link opens it inside the app', async () => {
    const { page } = await suite.newPage();
    await page.goto(`${suite.server.origin}/help`);
    await page.getByTestId('help-index').waitFor();
    for (const name of HELP_PAGES) {
      assert.equal(
        await page.getByTestId(`help-link-${name}`).getAttribute('href'),
        `/help/${name}`,
        `index links ${name}`,
      );
    }
    // No reload: a marker on window survives only client-side navigation.
    await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
    await page.getByTestId('help-link-getting-started').click();
    await waitForPath(page, '/help/getting-started');
    await page.getByRole('heading', { level: 1, name: 'Getting started' }).waitFor();
    // A link between help pages, written in the markdown, also stays in the app.
    await page.getByTestId('markdown').getByRole('link', { name: 'Organisations and roles' }).click();
    await waitForPath(page, '/help/organisations-and-roles');
    await page.getByRole('heading', { level: 1, name: 'Organisations and roles' }).waitFor();
    assert.equal(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload), true);
  });

  test('a page renders markdown: a real table and code block, with a copy confirmation that lasts 3 s', async () => {
    const { context, page } = await suite.newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.origin });
    await page.clock.install();
    await page.goto(`${suite.server.origin}/help/api-access`);
    const markdown = page.getByTestId('markdown');
    await markdown.getByRole('heading', { level: 1, name: 'API access' }).waitFor();
    assert.ok((await markdown.locator('table').count()) >= 1, 'a GFM table is a <table>');
    assert.ok((await markdown.locator('table th').count()) >= 3);
    const curl = markdown.locator('pre', { hasText: 'curl -s https://qoala.example.com/api/me' });
    assert.equal(await curl.count(), 1, 'the curl call is a <pre> block');
    assert.equal(await curl.locator('code').count(), 1);

    const block = page
      .getByTestId('code-block')
      .filter({ hasText: 'curl -s https://qoala.example.com/api/me' });
    const copied = block.getByTestId('code-copied');
    assert.equal(await copied.count(), 0);
    // The page's clock stands still from here and moves only when told: the 3 s are counted on it, so a
    // slow machine cannot stretch or shrink them.
    await page.clock.pauseAt(new Date(Date.now() + 1_000));
    await block.getByTestId('code-copy').click();
    await copied.waitFor({ state: 'visible' });
    assert.equal(await copied.textContent(), 'Copied');
    const clipboard = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(
      clipboard,
      /^TOKEN="paste the session token here"\ncurl -s https:\/\/qoala\.example\.com\/api\/me/,
    );
    assert.doesNotMatch(clipboard, /\n$/);

    // Still there just before 3 s, gone at 3 s.
    await page.clock.runFor(2_999);
    assert.equal(await copied.isVisible(), true, 'still visible at 2.999 s');
    await page.clock.runFor(1);
    await copied.waitFor({ state: 'hidden' });
  });

  test('pages follow the interface language, French first for a newcomer', async () => {
    const { page } = await suite.newPage({ language: null });
    const mdRequests: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('.md')) mdRequests.push(new URL(r.url()).pathname);
    });
    await page.goto(`${suite.server.origin}/help/languages`);
    const title = page.getByTestId('markdown').getByRole('heading', { level: 1 });
    await title.filter({ hasText: 'Langues' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'fr');
    assert.match((await page.getByTestId('markdown').textContent()) ?? '', /Qoala parle français et anglais/);
    assert.equal(await page.getByTestId('help-index-link').textContent(), "Centre d'aide");

    // Switching the language fetches the English page and shows it, with no reload.
    await page.getByTestId('language-EN').click();
    await title.filter({ hasText: 'Languages' }).waitFor();
    assert.match((await page.getByTestId('markdown').textContent()) ?? '', /Qoala speaks French and English/);
    assert.equal(await page.getByTestId('help-index-link').textContent(), 'Help centre');
    assert.deepEqual(mdRequests, ['/assets/i18n/fr/languages.md', '/assets/i18n/en/languages.md']);
  });

  test('a missing page is a friendly not-found page; a name that is not a slug is never fetched', async () => {
    const { page } = await suite.newPage();
    const mdRequests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/assets/i18n/') && !r.url().endsWith('/translations.json'))
        mdRequests.push(new URL(r.url()).pathname);
    });

    await page.goto(`${suite.server.origin}/help/no-such-page`);
    await page.getByTestId('help-not-found').waitFor();
    await page.getByRole('heading', { name: 'This help page does not exist' }).waitFor();
    assert.deepEqual(mdRequests, ['/assets/i18n/en/no-such-page.md']);

    // (A name ending in .md never reaches the app: the server answers such paths itself.)
    for (const name of ['..%2Ftranslations', 'Getting-Started', 'api_access']) {
      await page.goto(`${suite.server.origin}/help/${name}`);
      await page.getByTestId('help-not-found').waitFor();
    }
    assert.deepEqual(mdRequests, ['/assets/i18n/en/no-such-page.md'], 'refused names are not fetched');

    await page.getByTestId('help-not-found-index-link').click();
    await waitForPath(page, '/help');
    await page.getByTestId('help-index').waitFor();
  });
});
