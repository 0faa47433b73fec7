import type { Page } from 'playwright-core';

/**
 * The texts of the page's visible level-one headings, as assistive technology counts them: `h1`s
 * (unless an `aria-level` says otherwise) and `role=heading` elements of `aria-level` 1. Issue #29 asks
 * for exactly one per page.
 */
export function levelOneHeadings(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('h1, [role=heading][aria-level="1"]')]
      .filter((h) => {
        const level = h.getAttribute('aria-level');
        if (level !== null && level !== '1') return false;
        const box = h.getBoundingClientRect();
        const style = getComputedStyle(h);
        return box.width > 0 && box.height > 0 && style.visibility !== 'hidden';
      })
      .map((h) => (h.textContent ?? '').trim().slice(0, 60)),
  );
}
