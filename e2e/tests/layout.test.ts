import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import {
  backendClient,
  createOrganizationFor,
  createUser,
  setOrganizationSettings,
} from '../support/backend.ts';
import { signInUntilSettled } from '../support/flows.ts';
import { useSuite } from '../support/suite.ts';

/** What a reader sees of the header: each navigation link's row, the language switch's box, the page's width. */
async function headerGeometry(page: Page) {
  return page.evaluate(() => {
    const links = [...document.querySelectorAll('.main-nav__link')].map((l) => ({
      name: l.textContent ?? '',
      top: Math.round(l.getBoundingClientRect().top),
    }));
    const toggle = document.querySelector('.language-toggle')!.getBoundingClientRect();
    const nav = document.querySelector('.main-nav')!;
    return {
      links,
      toggle: { left: toggle.left, right: toggle.right, width: toggle.width },
      viewport: window.innerWidth,
      pageScrollWidth: document.documentElement.scrollWidth,
      navOverflows: nav.scrollWidth > nav.clientWidth,
      headings: document.querySelectorAll('h1').length,
    };
  });
}

describe('the header holds in both languages, on a laptop and on a phone', () => {
  const suite = useSuite();

  test('every section on one row, the language switch whole, no page wider than the screen', async () => {
    const clerk = backendClient(suite.server);
    // A vCISO with every module on: the longest navigation there is (thirteen links, longer in French).
    const admin = await createUser(suite.server, 'layout-admin');
    const organization = await createOrganizationFor(clerk, admin, 'Acme Sécurité des Systèmes');
    await setOrganizationSettings(clerk, organization.id, {
      modules: ['vCiso', 'compliance', 'qompanion', 'hexadiag', 'passport'],
      uiLanguage: 'FR',
    });
    const { page } = await suite.newPage();
    await signInUntilSettled(page, suite.server.origin, admin.email);
    for (const language of ['FR', 'EN'] as const) {
      await page.getByTestId(`language-${language}`).click();
      await page.waitForFunction((l) => document.documentElement.lang === l.toLowerCase(), language);
      for (const [width, height] of [
        [1280, 800],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width, height });
        await page.getByTestId('nav-module-passport').waitFor();
        const g = await headerGeometry(page);
        const where = `${language} at ${width} px`;
        assert.ok(g.links.length >= 10, `${where}: ${g.links.length} links`);
        assert.equal(
          new Set(g.links.map((l) => l.top)).size,
          1,
          `${where}: links on several rows ${JSON.stringify(g.links)}`,
        );
        assert.ok(
          g.toggle.width > 0 && g.toggle.left >= 0 && g.toggle.right <= g.viewport,
          `${where}: switch cut off`,
        );
        assert.ok(g.pageScrollWidth <= g.viewport, `${where}: page ${g.pageScrollWidth} px wide`);
        assert.equal(g.headings, 1, `${where}: one heading per page`);
        if (width === 1280 && language === 'EN')
          assert.equal(
            g.navOverflows,
            false,
            `on a laptop every English section is in sight ${JSON.stringify(g)}`,
          );
      }
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
