import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Request } from 'playwright-core';
import { useSuite } from '../support/suite.ts';
import { signUp, uniqueEmail } from '../support/flows.ts';

/** Spec §7: every request the product makes carries x-localization, FR or EN: the interface language. */
describe('x-localization on every product request', () => {
  const suite = useSuite();

  test('the app config, translations.json, the help pages and /api, in the interface language', async () => {
    // English to sign up (the helpers name Clerk's English buttons), then French through ?lang=fr.
    const { page } = await suite.newPage({ language: 'EN' });
    const origin = suite.server.origin;
    const seen: Request[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin !== origin) return;
      if (/^\/(api\/|app-config\.json$|assets\/i18n\/)/.test(url.pathname)) seen.push(request);
    });
    await signUp(page, origin, uniqueEmail('xloc'));
    const english = seen.length;
    const help = page.waitForResponse((r) => r.url().endsWith('/assets/i18n/fr/getting-started.md'));
    await page.goto(`${origin}/help/getting-started?lang=fr`);
    await help;

    const paths = seen.map((r) => new URL(r.url()).pathname);
    for (const expected of [
      '/app-config.json',
      '/assets/i18n/en/translations.json',
      '/assets/i18n/fr/translations.json',
      '/assets/i18n/fr/getting-started.md',
    ])
      assert.ok(paths.includes(expected), `${expected} in ${paths.join(', ')}`);
    assert.ok(
      paths.slice(0, english).some((p) => p.startsWith('/api/')),
      paths.join(', '),
    );
    // Before the ?lang=fr link the interface spoke English; from that page on (config included, as
    // main.tsx reads ?lang= first), French.
    for (const [i, request] of seen.entries()) {
      const path = new URL(request.url()).pathname;
      assert.equal(await request.headerValue('x-localization'), i < english ? 'EN' : 'FR', `${i}: ${path}`);
    }
  });
});
