import { afterEach, beforeEach, describe, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fetchHelpPage, helpFileUrl } from '../src/features/help/api/get-help-page.ts';
import { HELP_PAGES, helpPagePath, isHelpPageName, isPlainSlug } from '../src/features/help/help-pages.ts';
import {
  COPY_CONFIRMATION_MS,
  copyText,
  createTransientStatus,
  type CopyOutcome,
} from '../src/features/help/markdown/copy-confirmation.ts';

describe('copy confirmation (spec §9: 3 seconds)', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
  afterEach(() => mock.timers.reset());

  const recorder = () => {
    const seen: (CopyOutcome | null)[] = [];
    return { seen, status: createTransientStatus<CopyOutcome>(COPY_CONFIRMATION_MS, (s) => seen.push(s)) };
  };

  test('is a named 3000 ms constant', () => {
    assert.equal(COPY_CONFIRMATION_MS, 3_000);
  });

  test('shows at once and clears exactly 3 s later', () => {
    const { seen, status } = recorder();
    status.show('copied');
    assert.deepEqual(seen, ['copied']);
    mock.timers.tick(2_999);
    assert.deepEqual(seen, ['copied']);
    mock.timers.tick(1);
    assert.deepEqual(seen, ['copied', null]);
    mock.timers.tick(10_000);
    assert.deepEqual(seen, ['copied', null]);
  });

  test('a second click restarts the 3 s', () => {
    const { seen, status } = recorder();
    status.show('copied');
    mock.timers.tick(2_000);
    status.show('copied');
    mock.timers.tick(2_999);
    assert.deepEqual(seen, ['copied', 'copied']);
    mock.timers.tick(1);
    assert.deepEqual(seen, ['copied', 'copied', null]);
  });

  test('a failure replaces the confirmation and lasts as long', () => {
    const { seen, status } = recorder();
    status.show('copied');
    mock.timers.tick(1_000);
    status.show('failed');
    mock.timers.tick(3_000);
    assert.deepEqual(seen, ['copied', 'failed', null]);
  });

  test('disposing (unmount) cancels the timer; nothing is reported afterwards', () => {
    const { seen, status } = recorder();
    status.show('copied');
    status.dispose();
    mock.timers.tick(5_000);
    status.show('copied');
    assert.deepEqual(seen, ['copied']);
  });
});

describe('copyText', () => {
  test('reports copied with the exact text', async () => {
    const written: string[] = [];
    const outcome = await copyText('curl /api/me', { writeText: async (t) => void written.push(t) });
    assert.equal(outcome, 'copied');
    assert.deepEqual(written, ['curl /api/me']);
  });

  test('reports failed when the clipboard refuses or is missing, without throwing', async () => {
    const refusing = {
      writeText: () => Promise.reject(new DOMException('Document is not focused.', 'NotAllowedError')),
    };
    assert.equal(await copyText('x', refusing), 'failed');
    assert.equal(await copyText('x', undefined), 'failed');
  });
});

describe('help pages', () => {
  const fakeFetch = (response: () => Response | Promise<Response>) => {
    const calls: string[] = [];
    const languages: (string | null)[] = [];
    const fetch = async (url: string, init?: RequestInit) => {
      calls.push(url);
      languages.push(new Headers(init?.headers).get('x-localization'));
      return response();
    };
    return { calls, languages, fetch };
  };
  const markdown = (body: string, type = 'text/markdown; charset=utf-8') =>
    new Response(body, { status: 200, headers: { 'content-type': type } });

  test('names are plain slugs; anything else is refused', () => {
    for (const name of HELP_PAGES) assert.ok(isPlainSlug(name), name);
    for (const bad of [
      '',
      '../secret',
      'a/b',
      'a.md',
      '%2e%2e',
      'Getting-Started',
      '-a',
      'a--b',
      'a b',
      'a'.repeat(65),
    ])
      assert.equal(isPlainSlug(bad), false, bad);
    assert.ok(isHelpPageName('api-access'));
    assert.equal(isHelpPageName('nope'), false);
    assert.equal(helpPagePath('api-access'), '/help/api-access');
  });

  test('are fetched from /assets/i18n/{lang}/{name}.md with the language in lowercase', async () => {
    assert.equal(helpFileUrl('FR', 'languages'), '/assets/i18n/fr/languages.md');
    const { calls, languages, fetch } = fakeFetch(() => markdown('# Title'));
    assert.deepEqual(await fetchHelpPage('EN', 'api-access', { fetch }), {
      status: 'found',
      markdown: '# Title',
    });
    await fetchHelpPage('FR', 'api-access', { fetch });
    assert.deepEqual(calls, ['/assets/i18n/en/api-access.md', '/assets/i18n/fr/api-access.md']);
    // Spec §7: like every product request, in the interface language.
    assert.deepEqual(languages, ['EN', 'FR']);
  });

  test('a name that is not a plain slug is refused without fetching', async () => {
    const { calls, fetch } = fakeFetch(() => markdown('secret'));
    for (const name of ['../translations', '..%2Ftranslations', 'x/../../etc', 'API-ACCESS'])
      assert.deepEqual(await fetchHelpPage('EN', name, { fetch }), { status: 'missing' });
    assert.deepEqual(calls, []);
  });

  test('a 404, or an HTML page standing in for the file, is a missing page', async () => {
    assert.deepEqual(
      await fetchHelpPage('EN', 'nowhere', {
        fetch: fakeFetch(() => new Response('{}', { status: 404 })).fetch,
      }),
      { status: 'missing' },
    );
    assert.deepEqual(
      await fetchHelpPage('EN', 'nowhere', {
        fetch: fakeFetch(() => markdown('<!doctype html>', 'text/html; charset=utf-8')).fetch,
      }),
      { status: 'missing' },
    );
  });

  test('server and network failures come back as errors, not exceptions', async () => {
    assert.deepEqual(
      await fetchHelpPage('EN', 'x', { fetch: fakeFetch(() => new Response('', { status: 503 })).fetch }),
      { status: 'error', message: 'HTTP 503' },
    );
    const offline = await fetchHelpPage('EN', 'x', {
      fetch: fakeFetch(() => Promise.reject(new TypeError('Failed to fetch'))).fetch,
    });
    assert.deepEqual(offline, { status: 'error', message: 'Failed to fetch' });
  });

  test('an aborted request rejects, so a stale answer is never shown', async () => {
    const controller = new AbortController();
    controller.abort();
    const fetch = async () => {
      throw new DOMException('aborted', 'AbortError');
    };
    await assert.rejects(fetchHelpPage('EN', 'x', { fetch, signal: controller.signal }));
  });
});

describe('help content', () => {
  const file = (lang: string, name: string) =>
    new URL(`../public/assets/i18n/${lang}/${name}.md`, import.meta.url);

  test('every page exists in English and French, with a title and real prose', () => {
    for (const lang of ['en', 'fr']) {
      for (const name of HELP_PAGES) {
        assert.ok(existsSync(file(lang, name)), `${lang}/${name}.md is missing`);
        const text = readFileSync(file(lang, name), 'utf8');
        assert.match(text, /^# \S/, `${lang}/${name}.md starts with its title`);
        assert.ok(text.split(/\s+/).length > 150, `${lang}/${name}.md is too short to help`);
        assert.doesNotMatch(text, /lorem ipsum|TODO/i);
      }
    }
  });

  test('links between help pages point at pages that exist', () => {
    for (const lang of ['en', 'fr']) {
      for (const name of HELP_PAGES) {
        const text = readFileSync(file(lang, name), 'utf8');
        for (const [, target] of text.matchAll(/\]\(\/help\/([^)#\s]+)/g))
          assert.ok(isHelpPageName(target!), `${lang}/${name}.md links to unknown page ${target}`);
      }
    }
  });

  test('the API access page shows a table and a curl call to /api/me with a bearer token', () => {
    for (const lang of ['en', 'fr']) {
      const text = readFileSync(file(lang, 'api-access'), 'utf8');
      assert.match(text, /^\| .+ \|$/m);
      assert.match(text, /```sh\n[^`]*curl[^`]*\/api\/me[^`]*Authorization: Bearer/);
    }
  });
});
