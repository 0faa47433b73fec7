import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { drawer, enableBilling, planCard, team } from '../support/billing.ts';
import { PASSWORD, waitForHash } from '../support/flows.ts';
import { useSuite } from '../support/suite.ts';
import { levelOneHeadings } from '../support/headings.ts';
import { UI_WAIT_MS } from '../support/timeouts.ts';
import { CLERK_ATTRIBUTE_FR, CLERK_TEXT_FR } from '../../web/src/app/clerk-words/hardcoded-fr.ts';
import { ENGLISH_WORDS, FRENCH_WORDS, foreignWords, readPage } from '../support/foreign-words.ts';

/**
 * Every screen the product mounts, read as a French speaker reads it (issue #29): a Chromium whose own
 * language is French (`fr-FR`) and whose interface is preset to FR walks sign-in, sign-up, the user
 * profile, the organisation profile (with its API keys and billing), /api-keys, /pricing with a trial
 * plan and its checkout drawer, and the waitlist. On each, the visible text and the accessible names of
 * the controls hold no English word, every control has a name, and no date is written the US way. Then
 * the same screens in English hold no French word.
 */

/**
 * What clerk-js 5.90.0 writes in English in every language and the product cannot reach (docs/languages.md,
 * "Clerk's screens"): matched against a whole text or control name, nothing else. What clerk-js writes
 * in its source is relabelled in French by web/src/features/language/relabel-clerk.ts, and checked
 * below through CLERK_ATTRIBUTE_FR and CLERK_TEXT_FR; a new English word is fixed there, in
 * web/src/app/clerk-words/fr.ts or in the product's translations.json, not here.
 */
const CLERK_HARDCODED_ENGLISH: string[] = [];

/** The strings clerk-js writes in its source, with the French the product gives them. */
const RELABELLED = [...CLERK_ATTRIBUTE_FR, ...CLERK_TEXT_FR];

/**
 * The whole texts of `texts` that are strings relabelled in the other language: in French one of
 * clerk-js's English strings back, in English one of the product's French words left behind.
 */
function relabelledLeft(texts: string[], language: 'FR' | 'EN'): string[] {
  // The patterns (texts clerk-js builds around a name) are checked in French only: their French keeps `$1`.
  const left = RELABELLED.flatMap((w) =>
    language === 'FR' ? [w.english] : typeof w.english === 'string' ? [w.french] : [],
  );
  const isLeft = (t: string) => left.some((w) => (typeof w === 'string' ? w === t : w.test(t)));
  return [...new Set(texts.filter(isLeft))].map((t) => `clerk-js's "${t}" not relabelled`);
}

const BILLING = {
  enabled: true,
  currency: 'eur',
  gateway: { kind: 'offline' },
  features: {},
  // Names that are words of neither language, so that only the interface's words are judged.
  plans: {
    base_org: { name: 'Base', payerType: 'org', monthlyFee: 0, isDefault: true },
    pro: { name: 'Pro', payerType: 'org', monthlyFee: 2900 },
    omega: { name: 'Omega', payerType: 'org', monthlyFee: 4900, freeTrialDays: 14 },
    base_user: { name: 'Solo', payerType: 'user', monthlyFee: 0, isDefault: true },
  },
};

describe('every screen in French, then in English', () => {
  const suite = useSuite();
  let admin: { email: string };

  before(async () => {
    await enableBilling(suite.server, BILLING);
    ({ admin } = await team(suite.server, 'fr-screens'));
  });

  for (const language of ['FR', 'EN'] as const) {
    test(`${language}: no ${language === 'FR' ? 'English' : 'French'} word, no unnamed control, no foreign date`, async () => {
      const origin = suite.server.origin;
      const problems: string[] = [];
      const locale = language === 'FR' ? 'fr-FR' : 'en-US';
      const { page } = await suite.newPage({ language, locale });

      /** Reads the screen once it has settled and records what a reader of `language` would stumble on. */
      const check = async (screen: string, on: Page = page, shown: 'FR' | 'EN' = language) => {
        await on.waitForLoadState('networkidle').catch(() => {});
        await on.waitForTimeout(700);
        const { texts, unnamed } = await readPage(on);
        const [foreign, allowed] =
          shown === 'FR' ? [ENGLISH_WORDS, CLERK_HARDCODED_ENGLISH] : [FRENCH_WORDS, []];
        for (const w of foreignWords(texts, foreign, allowed, shown === 'FR'))
          problems.push(`${screen}: ${w}`);
        for (const w of relabelledLeft(texts, shown)) problems.push(`${screen}: ${w}`);
        for (const u of unnamed) problems.push(`${screen}: control without a name ${u}`);
      };

      /** A whole page (not a menu or a drawer over it): one level-one heading, besides the words. */
      const checkPage = async (screen: string, on: Page = page) => {
        await check(screen, on);
        const headings = await levelOneHeadings(on);
        if (headings.length !== 1) problems.push(`${screen}: level-one headings ${JSON.stringify(headings)}`);
      };

      /** Records a screen that shows no text written the way `language` writes `what` (`patterns`). */
      const expectWritten = async (screen: string, what: string, patterns: Record<'FR' | 'EN', RegExp>) => {
        const { texts } = await readPage(page);
        if (!texts.some((t) => patterns[language].test(t)))
          problems.push(`${screen}: no ${what} written the ${language} way`);
      };

      /**
       * One screen (or a few in a row) reached through the UI; a step that cannot reach its screen is
       * recorded and the walk goes on, so that one run reports every screen.
       */
      const step = async (name: string, walk: () => Promise<void>) => {
        try {
          await walk();
        } catch (error) {
          problems.push(`${name}: not reached: ${String((error as Error).message).split('\n')[0]}`);
        }
      };

      await step('sign-up and sign-in', async () => {
        await page.goto(`${origin}/sign-up`);
        await page.locator('.cl-signUp-root .cl-formButtonPrimary').waitFor({ timeout: UI_WAIT_MS });
        await checkPage('sign-up');
        await page.goto(`${origin}/sign-in`);
        await page.locator('.cl-signIn-root input[name=identifier]').waitFor({ timeout: UI_WAIT_MS });
        await checkPage('sign-in');
        await page.locator('input[name=identifier]').fill(admin.email);
        await page.locator('.cl-signIn-root .cl-formButtonPrimary').click();
        await waitForHash(page, '/factor-one');
        await page.locator('input[name=password]').waitFor({ timeout: UI_WAIT_MS });
        await check('sign-in (password)');
        await page.locator('input[name=password]').fill(PASSWORD);
        await page.locator('.cl-signIn-root .cl-formButtonPrimary').click();
        await page.getByTestId('dashboard-org-name').waitFor({ timeout: UI_WAIT_MS });
        await checkPage('dashboard');
      });

      await step('organisation switcher', async () => {
        await page.locator('.cl-organizationSwitcherTrigger').click();
        await page.locator('.cl-organizationSwitcherPopoverCard').waitFor({ timeout: UI_WAIT_MS });
        await check('organisation switcher');
        await page.keyboard.press('Escape');
      });

      // /api-keys, with a key so that the table shows its dates.
      await step('/api-keys', async () => {
        const keyName = language === 'FR' ? 'nocturne' : 'vesper';
        await page.goto(`${origin}/api-keys`);
        const keysPage = page.getByTestId('api-keys-page');
        await keysPage.locator('.cl-apiKeys').waitFor({ timeout: UI_WAIT_MS });
        await checkPage('/api-keys');
        await keysPage.locator('.cl-apiKeysAddButton').click();
        await keysPage.locator('.cl-apiKeysCreateFormNameInput input').fill(keyName);
        await check('/api-keys (new key form)');
        await keysPage.locator('.cl-apiKeysCreateFormSubmitButton').click();
        await keysPage
          .locator('.cl-apiKeysTable tr')
          .filter({ hasText: keyName })
          .waitFor({ timeout: UI_WAIT_MS });
        await check('/api-keys (with a key)');
        // Today's date on the key's line, as the reader writes it ("7 déc.", "Dec 7").
        const today = (tag: string) =>
          new Intl.DateTimeFormat(tag, { day: 'numeric', month: 'short' }).format(new Date());
        await expectWritten('/api-keys (with a key)', `date "${today(locale)}"`, {
          FR: new RegExp(`(^|\\s)${today('fr-FR').replace('.', '\\.')}`),
          EN: new RegExp(`\\b${today('en-US')}\\b`),
        });
      });

      // The user's profile, from the user button, page by page.
      await step('user profile', async () => {
        await page.goto(`${origin}/dashboard`);
        await page.locator('.cl-userButtonTrigger').click();
        const manage = page.locator('.cl-userButtonPopoverActionButton__manageAccount');
        await manage.waitFor({ timeout: UI_WAIT_MS });
        await check('user button menu');
        await manage.click();
        const profile = page.locator('.cl-userProfile-root');
        await profile.waitFor({ timeout: UI_WAIT_MS });
        for (const section of ['account', 'security', 'apiKeys', 'billing']) {
          const tab = profile.locator(`.cl-navbarButton__${section}`);
          if ((await tab.count()) === 0) {
            problems.push(`user profile: no ${section} page`);
            continue;
          }
          await tab.click();
          await check(`user profile / ${section}`);
        }
        // The second factors one can add (the allowlist's "SMS code" and "Authenticator application").
        await profile.locator('.cl-navbarButton__security').click();
        const addFactor = profile.locator('.cl-profileSectionPrimaryButton__mfa');
        if ((await addFactor.count()) > 0) {
          await addFactor.click();
          await check('user profile / security (add a second factor)');
        }
      });

      // The organisation's profile, page by page (path routing).
      for (const path of ['', '/organization-general', '/organization-api-keys', '/organization-billing']) {
        await step(`organisation profile${path}`, async () => {
          await page.goto(`${origin}/organization${path}`);
          await page.locator('.cl-organizationProfile-root').waitFor({ timeout: UI_WAIT_MS });
          await checkPage(`organisation profile${path || ' / members'}`);
        });
      }

      // The invitation form (the way organizations.test.ts opens it).
      await step('invite members', async () => {
        await page.goto(`${origin}/organization/organization-members`);
        await page.getByRole('button', { name: /^(Invite|Inviter)$/ }).click();
        await page.getByTestId('tag-input').waitFor({ timeout: UI_WAIT_MS });
        await check('organisation profile / invite members');
      });

      // /pricing, and the checkout drawer of the plan with a trial.
      await step('/pricing', async () => {
        await page.goto(`${origin}/pricing`);
        const trialCard = planCard(page.getByTestId('pricing-organization'), 'Omega');
        await trialCard.waitFor({ timeout: UI_WAIT_MS });
        await checkPage('/pricing');
        await expectWritten('/pricing', 'price', { FR: /(^|\s)29(,00)?\s€/, EN: /€29(\.00)?\b/ });
        await trialCard.locator('.cl-pricingTableCardFooterButton').click();
        await drawer(page).getByTestId('offline-card-form').waitFor({ timeout: UI_WAIT_MS });
        await check('/pricing (checkout drawer, trial)');
      });

      // The waitlist, signed out (clerk-js shows <Waitlist/> whatever the sign-up mode).
      await step('waitlist', async () => {
        const { page: visitor } = await suite.newPage({ language, locale });
        await visitor.goto(`${origin}/waitlist`);
        await visitor.locator('.cl-waitlist-root input[name=emailAddress]').waitFor({ timeout: UI_WAIT_MS });
        await checkPage('waitlist', visitor);
      });

      // French, then English and back, on one page: the relabelled words follow the toggle both ways.
      if (language === 'FR') {
        await step('the toggle, on /api-keys', async () => {
          await page.goto(`${origin}/api-keys`);
          const headers = page.locator('.cl-apiKeysTable th');
          await headers.first().waitFor({ timeout: UI_WAIT_MS });
          await check('/api-keys (before the toggle)');
          for (const [to, name] of [
            ['EN', 'Name'],
            ['FR', 'Nom'],
          ] as const) {
            await page.getByTestId(`language-${to}`).click();
            await page.waitForFunction((l) => document.documentElement.lang === l, to.toLowerCase());
            await headers.filter({ hasText: name }).waitFor({ timeout: UI_WAIT_MS });
            await check(`/api-keys (toggled to ${to})`, page, to);
          }
        });
      }

      if (problems.length) console.log(`${language} problems:\n${problems.join('\n')}`);
      assert.deepEqual(problems, []);
    });
  }
});
