import type { Page } from 'playwright-core';

/**
 * Reading a screen as a speaker of one language reads it (issue #29): its visible texts and its controls'
 * names, and the words, dates and prices in them that a reader of the other language would stumble on.
 * Shared by french-screens.test.ts (every Clerk screen) and console.test.ts (the operator console).
 */

/** English words French never uses (matched as whole words, any case). */
// prettier-ignore
export const ENGLISH_WORDS = [
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
export const FRENCH_WORDS = [
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

export interface Reading {
  /** Visible texts and control names, one per text node or control. */
  texts: string[];
  /** Visible buttons, links and inputs with no accessible name, described. */
  unnamed: string[];
}

/** What the page shows: its visible text nodes and its controls' names, the language toggle aside. */
export async function readPage(page: Page): Promise<Reading> {
  // The test runner's transform names inner functions through a `__name` helper the page lacks.
  await page.evaluate('globalThis.__name ??= (f) => f');
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
    // Texts written side by side in one element read as one ("€" and "29" as "€29").
    for (const el of document.body.querySelectorAll('*')) {
      const own = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
      if (own.length < 2 || aside(el) || !visible(el)) continue;
      texts.push(
        own
          .map((n) => n.textContent)
          .join('')
          .trim(),
      );
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

/** English month names before a day ("December 6, 2026", "Dec 6") or a year ("December 2026"). */
const ENGLISH_DATE =
  /\b(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,4}\b/g;
/** A price with its symbol first ("€29", "- €5.00"), as French does not write it. */
const SYMBOL_FIRST_PRICE = /(?:^|[\s(])(?:€|\$|£|CHF )\s?\d/g;

/**
 * The words of `texts` found in `words`, and (with `usDates`, for French) the dates written M/D/YYYY,
 * English dates and prices written symbol first.
 */
export function foreignWords(texts: string[], words: string[], allow: string[], usDates: boolean): string[] {
  const list = new Set(words);
  const found = new Set<string>();
  for (const raw of texts) {
    if (allow.includes(raw)) continue;
    const text = raw
      .replace(/[\w.+-]+@[\w.-]+\.\w+/g, ' ') // addresses
      .replace(/https?:\/\/\S+/g, ' ')
      // Ids (`user_vn8is0By…`, `org_…`): their random letters hold English words now and then ("is", "of").
      .replace(/\b[a-z]+_[A-Za-z0-9]{16,}\b/g, ' ');
    // A word as written ("don't", "aujourd'hui") and its parts once elided ("l'adresse" → "adresse").
    for (const token of text.replace(/’/g, "'").split(/[^\p{L}']+/u)) {
      const whole = token.replace(/^'+|'+$/g, '').toLowerCase();
      for (const word of [whole, ...whole.split("'")]) {
        if (word && list.has(word)) found.add(`"${word}" in "${raw.slice(0, 80)}"`);
      }
    }
    if (!usDates) continue;
    for (const m of raw.matchAll(ENGLISH_DATE)) found.add(`English date "${m[0]}" in "${raw.slice(0, 80)}"`);
    for (const m of raw.matchAll(SYMBOL_FIRST_PRICE)) {
      found.add(`price written "${m[0].trim()}…" in "${raw.slice(0, 80)}"`);
    }
    for (const m of text.matchAll(/\b(\d{1,2})\/(\d{1,2})\/(\d{2,4})\b/g)) {
      if (m[1]!.length === 1 || m[2]!.length === 1 || Number(m[2]) > 12) {
        found.add(`US date "${m[0]}" in "${raw.slice(0, 80)}"`);
      }
    }
  }
  return [...found];
}
