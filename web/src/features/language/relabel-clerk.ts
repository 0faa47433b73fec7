import type { ClerkAttributeWords, ClerkTextWords } from '../../app/clerk-words/hardcoded-fr.ts';
import { browserWritesMonthFirst, frenchDate, frenchPrice, frenchSplitPrice } from './clerk-formats-fr.ts';

/** An element of a Clerk component: clerk-js gives each one a `cl-` class. */
const CLERK_ELEMENT = '[class^="cl-"], [class*=" cl-"]';

/** What was changed, to put the English back. */
interface Change {
  node: Element | Text;
  attribute: string | null;
  english: string;
  translated: string;
}

/**
 * Past this many changes (or twice as many as were still in the page at the last count), those whose
 * node has left the page are forgotten.
 */
const PRUNE_AT = 500;

/**
 * Gives the English strings clerk-js writes in its source (clerk-words/hardcoded-fr.ts) their words in
 * the interface's language, in the page, until the returned function is called; that function puts the
 * English back where the words are still the ones written here (clerk-js re-renders only what changes,
 * so it would not restore them itself).
 *
 * Cheap on purpose: one MutationObserver on the body, which looks only at what changed (the attributes
 * it knows, changed texts, added subtrees, through native selectors of the exact known strings); a
 * candidate is changed only inside a Clerk component (an element with a `cl-` class), and a text only
 * where clerk-js writes it (`within`). The page is read whole once, when it starts.
 */
export function relabelClerk(
  attributeWords: readonly ClerkAttributeWords[],
  textWords: readonly ClerkTextWords[],
  /** Also the prices and dates clerk-js writes in American English (clerk-formats-fr.ts). */
  formats = false,
): () => void {
  const byAttribute = new Map<string, Map<string, string>>();
  for (const { attribute, english, french } of attributeWords) {
    const words = byAttribute.get(attribute) ?? new Map<string, string>();
    byAttribute.set(attribute, words.set(english, french));
  }
  const byText = new Map<string, ClerkTextWords[]>();
  const patterns: (ClerkTextWords & { english: RegExp })[] = [];
  for (const words of textWords) {
    const { english } = words;
    if (typeof english === 'string') byText.set(english, [...(byText.get(english) ?? []), words]);
    else patterns.push({ ...words, english });
  }
  const attributeSelector = attributeWords
    .map(({ attribute, english }) => `[${attribute}="${CSS.escape(english)}"]`)
    .join(', ');
  const textHostSelector = [...new Set(textWords.map((w) => w.within))].join(', ');
  const changes = new Set<Change>();

  let pruneAt = PRUNE_AT;
  const remember = (change: Change) => {
    changes.add(change);
    if (changes.size < pruneAt) return;
    for (const c of changes) if (!c.node.isConnected) changes.delete(c);
    pruneAt = Math.max(PRUNE_AT, changes.size * 2);
  };

  const relabelAttributes = (element: Element) => {
    for (const [attribute, words] of byAttribute) {
      const english = element.getAttribute(attribute);
      const translated = english === null ? undefined : words.get(english);
      if (english === null || translated === undefined || !element.closest(CLERK_ELEMENT)) continue;
      element.setAttribute(attribute, translated);
      remember({ node: element, attribute, english, translated });
    }
  };

  /** What each text was last given: a text is never reformatted from its own French ("06/12/2026"). */
  const written = new WeakMap<Text, string>();
  const replaceText = (text: Text, translated: string) => {
    const english = text.data;
    text.data = translated;
    written.set(text, translated);
    remember({ node: text, attribute: null, english, translated });
  };

  const monthFirst = formats && browserWritesMonthFirst();
  /** The currency symbol of each emptied symbol text (a price written as two texts). */
  const emptiedSymbols = new WeakMap<Text, string>();
  const reformat = (text: Text) => {
    const whole = text.data.trim();
    const translated = frenchPrice(whole) ?? frenchDate(whole, monthFirst);
    if (translated !== null) {
      replaceText(text, text.data.replace(whole, translated));
      return;
    }
    const split = frenchSplitPrice(text, (emptied) => emptiedSymbols.get(emptied));
    if (!split) return;
    if (split.symbol.data !== split.symbolText) {
      emptiedSymbols.set(split.symbol, split.symbol.data);
      replaceText(split.symbol, split.symbolText);
    }
    replaceText(split.amount, split.amountText);
  };

  const relabelText = (text: Text) => {
    const english = text.data;
    const host = text.parentElement;
    if (!host || written.get(text) === english) return;
    const whole = english.trim();
    const words =
      byText.get(whole)?.find((w) => host.matches(w.within)) ??
      patterns.find((w) => w.english.test(whole) && host.matches(w.within));
    if (words) {
      // The spaces around the words stay: "Last used: " is followed by its date. A function, so that a
      // name kept by a pattern is never read as a replacement pattern ("$&").
      const translated = whole.replace(words.english, words.french);
      replaceText(
        text,
        english.replace(whole, () => translated),
      );
    } else if (formats && english.trim() !== '' && host.closest(CLERK_ELEMENT)) {
      reformat(text);
    }
  };

  /** Every text of an added subtree that is inside a Clerk component, for the prices and dates. */
  const reformatTextsOf = (root: Element) => {
    if (!root.closest(CLERK_ELEMENT) && !root.querySelector(CLERK_ELEMENT)) return;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node instanceof Text) relabelText(node);
    }
  };

  const relabelTextsOf = (host: Element) => {
    for (const child of host.childNodes) if (child instanceof Text) relabelText(child);
  };

  /** An added subtree: only its elements that carry a known string, found by the browser's selectors. */
  const relabelSubtree = (root: Element) => {
    if (attributeSelector) {
      if (root.matches(attributeSelector)) relabelAttributes(root);
      for (const element of root.querySelectorAll(attributeSelector)) relabelAttributes(element);
    }
    if (formats) {
      // Walks every text, known words included (relabelText does both).
      reformatTextsOf(root);
    } else if (textHostSelector) {
      if (root.matches(textHostSelector)) relabelTextsOf(root);
      for (const host of root.querySelectorAll(textHostSelector)) relabelTextsOf(host);
    }
  };

  const observer = new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'attributes') {
        if (record.target instanceof Element) relabelAttributes(record.target);
      } else if (record.type === 'characterData') {
        if (record.target instanceof Text) relabelText(record.target);
      } else {
        for (const node of record.addedNodes) {
          if (node instanceof Element) relabelSubtree(node);
          else if (node instanceof Text) relabelText(node);
        }
      }
    }
  });

  relabelSubtree(document.body);
  observer.observe(document.body, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
    attributeFilter: [...byAttribute.keys()],
  });

  return () => {
    observer.disconnect();
    for (const { node, attribute, english, translated } of changes) {
      if (!node.isConnected) continue;
      if (attribute === null && node instanceof Text) {
        if (node.data === translated) node.data = english;
      } else if (attribute !== null && node instanceof Element) {
        if (node.getAttribute(attribute) === translated) node.setAttribute(attribute, english);
      }
    }
    changes.clear();
  };
}
