import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import {
  backendClient,
  createOrganizationFor,
  createUser,
  setOrganizationSettings,
} from '../support/backend.ts';
import { HELP_PAGES } from '../../web/src/features/help/help-pages.ts';
import { modulePath, MODULES } from '../../web/src/features/modules/modules.ts';
import { signInUntilSettled } from '../support/flows.ts';
import { levelOneHeadings } from '../support/headings.ts';
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
    };
  });
}

/**
 * The product's own text fields, lists and text areas (not a Clerk component's) that do not wear the
 * product's look: its rounded border and its height (styles.css), rather than the browser's defaults.
 */
async function unstyledControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const radius = getComputedStyle(document.documentElement).getPropertyValue('--radius').trim();
    const probe = document.createElement('div');
    probe.style.borderRadius = radius;
    probe.style.minHeight = '2.5rem';
    document.body.append(probe);
    const want = {
      radius: getComputedStyle(probe).borderTopLeftRadius,
      height: getComputedStyle(probe).minHeight,
    };
    probe.remove();
    const controls = document.querySelectorAll<HTMLElement>(
      'input:not([type=checkbox], [type=radio], [type=hidden], [type=file]), select, textarea',
    );
    return [...controls]
      .filter((c) => !c.closest('[class*="cl-"]') && c.getClientRects().length > 0)
      .filter((c) => {
        const style = getComputedStyle(c);
        return style.borderTopLeftRadius !== want.radius || style.minHeight !== want.height;
      })
      .map(
        (c) => `${c.tagName.toLowerCase()}${c.id ? `#${c.id}` : ''}[${c.getAttribute('data-testid') ?? ''}]`,
      );
  });
}

describe('the header holds in both languages, on a laptop and on a phone; every page one heading, its controls styled', () => {
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
        if (width === 1280 && language === 'EN')
          assert.equal(
            g.navOverflows,
            false,
            `on a laptop every English section is in sight ${JSON.stringify(g)}`,
          );
      }
      await page.setViewportSize({ width: 1280, height: 800 });
    }

    // One level-one heading on every page the router has (web/src/app/router.tsx), signed in; the
    // signed-out ones (sign-in, sign-up, the waitlist) are counted by french-screens.test.ts.
    const paths = [
      '/',
      '/dashboard',
      '/create-organization',
      '/organizations',
      '/organization',
      '/organization/organization-general',
      '/members',
      '/settings',
      '/clients',
      '/diagnostics',
      '/api-keys',
      ...MODULES.map(modulePath),
      '/pricing',
      '/help',
      `/help/${HELP_PAGES[0]}`,
      '/help/no-such-page',
      '/tasks/choose-organization',
      '/no-such-page',
    ];
    const wrong: string[] = [];
    const unstyled: string[] = [];
    for (const path of paths) {
      await page.goto(`${suite.server.origin}${path}`);
      await page.waitForLoadState('networkidle').catch(() => {});
      await page
        .waitForFunction(() => document.querySelector('main h1, .cl-rootBox h1'), null, { timeout: 5000 })
        .catch(() => {});
      await page.waitForTimeout(300);
      const headings = await levelOneHeadings(page);
      if (headings.length !== 1)
        wrong.push(`${path} (now ${new URL(page.url()).pathname}): ${JSON.stringify(headings)}`);
      for (const control of await unstyledControls(page)) unstyled.push(`${path}: ${control}`);
    }
    assert.deepEqual(wrong, [], 'pages without exactly one level-one heading');
    assert.deepEqual(unstyled, [], "the product's own form controls look like the rest");
  });
});
