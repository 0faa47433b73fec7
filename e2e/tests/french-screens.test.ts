import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { drawer, enableBilling, planCard, team } from '../support/billing.ts';
import { PASSWORD, waitForHash } from '../support/flows.ts';
import { useSuite } from '../support/suite.ts';
import { UI_WAIT_MS } from '../support/timeouts.ts';

/**
 * Every screen the product mounts, read as a French speaker reads it (issue #29): a Chromium whose own
 * language is French (`fr-FR`) and whose interface is preset to FR walks sign-in, sign-up, the user
 * profile, the organisation profile (with its API keys and billing), /api-keys, /pricing with a trial
 * plan and its checkout drawer, and the waitlist. On each, the visible text and the accessible names of
 * the controls hold no English word, every control has a name, and no date is written the US way. Then
 * the same screens in English hold no French word.
 */

/**
 * What clerk-js 5.90.0 writes in English in every language, with no localization key the product could
 * fill (docs/languages.md, "Clerk's screens"): matched against a whole text or control name, nothing
 * else. Nothing else belongs here; a new English word is fixed in web/src/app/clerk-words/fr.ts or the
 * product's translations.json.
 */
const CLERK_HARDCODED_ENGLISH = [
  // The API-key table's column headers.
  'Name',
  'Last used',
  'Key',
  'Actions',
  // Second factors.
  'SMS code',
  'Authenticator application',
  // Passkeys.
  'Last used:',
  // The phone field's country search.
  'Search country or code',
  'No countries found',
];

/** English words French never uses (matched as whole words, any case). */
// prettier-ignore
const ENGLISH_WORDS = [
  'the', 'and', 'your', 'you', 'with', 'this', 'that', 'from', 'have', 'has', 'are', 'is', 'of', 'to',
  'by', 'at', 'not', 'will', 'can', 'here', 'more', 'no', 'yes', 'all', 'new', 'now', 'other', 'or',
  'continue', 'sign', 'signed', 'add', 'name', 'cancel', 'save', 'remove', 'create', 'search', 'email',
  'password', 'back', 'manage', 'members', 'member', 'settings', 'profile', 'security', 'delete',
  'account', 'update', 'edit', 'upload', 'key', 'keys', 'copy', 'revoke', 'show', 'hide', 'expires',
  'created', 'never', 'today', 'yesterday', 'last', 'used', 'leave', 'invite', 'requests', 'role',
  'joined', 'billing', 'free', 'trial', 'start', 'subscribe', 'pay', 'month', 'monthly', 'annually',
  'year', 'due', 'payment', 'method', 'card', 'waitlist', 'join', 'forgot', 'secured', 'development',
  'optional', 'required', 'verify', 'verification', 'devices', 'device', 'connected', 'accounts',
  'phone', 'number', 'primary', 'organization', 'general', 'enter', 'address', 'first', 'already',
  "don't", 'days', 'loading', 'close', 'open', 'details', 'features', 'includes', 'switch', 'get',
  'started', 'welcome', 'help', 'dashboard', 'pricing',
  // Dates the English way.
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october',
  'november', 'december', 'jan', 'feb', 'apr', 'jun', 'jul', 'aug', 'dec', 'monday', 'tuesday',
  'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'wed', 'thu', 'fri', 'sat', 'sun', 'am',
  'pm', 'ago',
];

/** French words English never uses. */
// prettier-ignore
const FRENCH_WORDS = [
  'le', 'la', 'les', 'et', 'votre', 'vos', 'vous', 'une', 'des', 'du', 'pour', 'avec', 'sur', 'dans',
  'est', 'pas', 'continuer', 'connexion', 'connecter', 'inscrire', 'ajouter', 'nom', 'annuler',
  'enregistrer', 'supprimer', 'créer', 'rechercher', 'recherche', 'mot', 'passe', 'retour', 'gérer',
  'membres', 'paramètres', 'profil', 'sécurité', 'compte', 'clé', 'clés', 'adresse', 'courriel',
  'tarifs', 'aide', 'tableau', 'bord', 'essai', 'gratuit', 'mois', 'abonnement', 'créée', 'créé',
  'jamais', "aujourd'hui", 'hier', 'liste', 'attente', 'rejoindre', 'facturation', 'appareils',
  'numéro', 'téléphone', 'janvier', 'janv', 'février', 'févr', 'avril', 'avr', 'juin', 'juillet',
  'juil', 'août', 'septembre', 'octobre', 'novembre', 'décembre', 'déc', 'lundi', 'mardi', 'mercredi',
  'jeudi', 'vendredi', 'samedi', 'dimanche',
];

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

interface Reading {
  /** Visible texts and control names, one per text node or control. */
  texts: string[];
  /** Visible buttons, links and inputs with no accessible name, described. */
  unnamed: string[];
}

/** What the page shows: its visible text nodes and its controls' names, the language toggle aside. */
function readPage(page: Page): Promise<Reading> {
  return page.evaluate(() => {
    const visible = (el: Element) => {
      const box = (el as HTMLElement).getBoundingClientRect?.();
      if (!box || box.width === 0 || box.height === 0) return false;
      const style = getComputedStyle(el);
      return style.visibility !== 'hidden' && style.display !== 'none';
    };
    // The toggle names the other language in that language on purpose ("EN", "English").
    const aside = (el: Element) => !!el.closest('.language-toggle');
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent?.trim();
      if (!text || !parent || aside(parent) || !visible(parent)) continue;
      if (parent.closest('script, style, noscript')) continue;
      texts.push(text);
    }
    const unnamed: string[] = [];
    const controls = document.querySelectorAll(
      'button, a[href], input:not([type=hidden]), select, textarea, [role=button], [role=link], [role=menuitem], [role=tab], [role=checkbox], [role=combobox]',
    );
    for (const el of controls) {
      if (!visible(el) || aside(el)) continue;
      const input = el as HTMLInputElement;
      const labelledBy = (el.getAttribute('aria-labelledby') ?? '')
        .split(/\s+/)
        .map((id) => (id ? document.getElementById(id)?.textContent?.trim() : ''))
        .join(' ')
        .trim();
      const labels = input.labels ? [...input.labels].map((l) => l.textContent?.trim()).join(' ') : '';
      const images = [...el.querySelectorAll('img[alt], svg title')]
        .map((i) => i.getAttribute('alt') ?? i.textContent)
        .join(' ');
      const parts = [
        el.getAttribute('aria-label'),
        el.getAttribute('title'),
        el.getAttribute('placeholder'),
        labelledBy,
        labels,
      ].filter((p): p is string => !!p && !!p.trim());
      texts.push(...parts);
      const ownText = (el as HTMLElement).innerText?.trim() ?? '';
      const isTextField = el.matches('input, textarea, select');
      const name = [...parts, isTextField ? '' : ownText, images, isTextField ? '' : input.value]
        .join(' ')
        .trim();
      if (!name) {
        unnamed.push(
          `<${el.tagName.toLowerCase()} class="${el.getAttribute('class') ?? ''}"${
            el.getAttribute('type') ? ` type="${el.getAttribute('type')}"` : ''
          }>`,
        );
      }
    }
    return { texts, unnamed };
  });
}

/** The words of `texts` found in `words`, and the dates written M/D/YYYY (or with AM/PM). */
function foreignWords(texts: string[], words: string[], allow: string[]): string[] {
  const list = new Set(words);
  const found = new Set<string>();
  for (const raw of texts) {
    if (allow.includes(raw)) continue;
    const text = raw
      .replace(/[\w.+-]+@[\w.-]+\.\w+/g, ' ') // addresses
      .replace(/https?:\/\/\S+/g, ' ');
    // A word as written ("don't", "aujourd'hui") and its parts once elided ("l'adresse" → "adresse").
    for (const token of text.replace(/’/g, "'").split(/[^\p{L}']+/u)) {
      const whole = token.replace(/^'+|'+$/g, '').toLowerCase();
      for (const word of [whole, ...whole.split("'")]) {
        if (word && list.has(word)) found.add(`"${word}" in "${raw.slice(0, 80)}"`);
      }
    }
    for (const m of text.matchAll(/\b(\d{1,2})\/(\d{1,2})\/(\d{2,4})\b/g)) {
      if (m[1]!.length === 1 || m[2]!.length === 1 || Number(m[2]) > 12) {
        found.add(`US date "${m[0]}" in "${raw.slice(0, 80)}"`);
      }
    }
  }
  return [...found];
}

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
      const words = language === 'FR' ? ENGLISH_WORDS : FRENCH_WORDS;
      const allow = language === 'FR' ? CLERK_HARDCODED_ENGLISH : [];
      const problems: string[] = [];
      const { page } = await suite.newPage({
        language,
        locale: language === 'FR' ? 'fr-FR' : 'en-US',
      });

      /** Reads the screen once it has settled and records what a reader of `language` would stumble on. */
      const check = async (screen: string) => {
        await page.waitForLoadState('networkidle').catch(() => {});
        await page.waitForTimeout(700);
        const { texts, unnamed } = await readPage(page);
        for (const w of foreignWords(texts, words, allow)) problems.push(`${screen}: ${w}`);
        for (const u of unnamed) problems.push(`${screen}: control without a name ${u}`);
      };

      // Signed out: sign-up, then sign-in's two steps.
      await page.goto(`${origin}/sign-up`);
      await page.locator('.cl-signUp-root .cl-formButtonPrimary').waitFor({ timeout: UI_WAIT_MS });
      await check('sign-up');
      await page.goto(`${origin}/sign-in`);
      await page.locator('.cl-signIn-root input[name=identifier]').waitFor({ timeout: UI_WAIT_MS });
      await check('sign-in');
      await page.locator('input[name=identifier]').fill(admin.email);
      await page.locator('.cl-signIn-root .cl-formButtonPrimary').click();
      await waitForHash(page, '/factor-one');
      await page.locator('input[name=password]').waitFor({ timeout: UI_WAIT_MS });
      await check('sign-in (password)');
      await page.locator('input[name=password]').fill(PASSWORD);
      await page.locator('.cl-signIn-root .cl-formButtonPrimary').click();
      await page.getByTestId('dashboard-org-name').waitFor({ timeout: UI_WAIT_MS });
      await check('dashboard');

      // /api-keys, with a key so that the table shows its dates.
      await page.goto(`${origin}/api-keys`);
      const keysPage = page.getByTestId('api-keys-page');
      await keysPage.locator('.cl-apiKeys').waitFor({ timeout: UI_WAIT_MS });
      await check('/api-keys (empty)');
      await keysPage.locator('.cl-apiKeysAddButton').click();
      await keysPage.locator('.cl-apiKeysCreateFormNameInput input').fill('nocturne');
      await check('/api-keys (new key form)');
      await keysPage.locator('.cl-apiKeysCreateFormSubmitButton').click();
      await keysPage
        .locator('.cl-apiKeysTable tr')
        .filter({ hasText: 'nocturne' })
        .waitFor({ timeout: UI_WAIT_MS });
      await check('/api-keys (one key)');

      // The user's profile, from the user button, page by page.
      await page.locator('.cl-userButtonTrigger').click();
      await page.locator('.cl-userButtonPopoverActionButton__manageAccount').waitFor({ timeout: UI_WAIT_MS });
      await check('user button menu');
      await page.locator('.cl-userButtonPopoverActionButton__manageAccount').click();
      const profile = page.locator('.cl-userProfile-root');
      await profile.waitFor({ timeout: UI_WAIT_MS });
      for (const section of ['account', 'security', 'apiKeys', 'billing']) {
        const tab = profile.locator(`.cl-navbarButton__${section}`);
        if ((await tab.count()) === 0) {
          if (section !== 'billing') problems.push(`user profile: no ${section} page`);
          continue;
        }
        await tab.click();
        await check(`user profile / ${section}`);
      }
      await page.keyboard.press('Escape');
      await profile.waitFor({ state: 'detached', timeout: UI_WAIT_MS });

      // The organisation's profile, page by page (path routing).
      for (const path of ['', '/organization-general', '/organization-api-keys', '/organization-billing']) {
        await page.goto(`${origin}/organization${path}`);
        await page.locator('.cl-organizationProfile-root').waitFor({ timeout: UI_WAIT_MS });
        await check(`organisation profile${path || ' / members'}`);
      }

      // /pricing, and the checkout drawer of the plan with a trial.
      await page.goto(`${origin}/pricing`);
      const trialCard = planCard(page.getByTestId('pricing-organization'), 'Omega');
      await trialCard.waitFor({ timeout: UI_WAIT_MS });
      await check('/pricing');
      await trialCard.locator('.cl-pricingTableCardFooterButton').click();
      await drawer(page).getByTestId('offline-card-form').waitFor({ timeout: UI_WAIT_MS });
      await check('/pricing (checkout drawer, trial)');
      await page.keyboard.press('Escape');

      // The waitlist, signed out.
      const visitor = (await suite.newPage({ language, locale: language === 'FR' ? 'fr-FR' : 'en-US' })).page;
      await visitor.goto(`${origin}/waitlist`);
      await visitor.locator('.cl-waitlist-root input[name=emailAddress]').waitFor({ timeout: UI_WAIT_MS });
      await visitor.waitForLoadState('networkidle').catch(() => {});
      await visitor.waitForTimeout(700);
      const waitlist = await readPage(visitor);
      for (const w of foreignWords(waitlist.texts, words, allow)) problems.push(`waitlist: ${w}`);
      for (const u of waitlist.unnamed) problems.push(`waitlist: control without a name ${u}`);

      if (problems.length) console.log(`${language} problems:\n${problems.join('\n')}`);
      assert.deepEqual(problems, []);
    });
  }
});
