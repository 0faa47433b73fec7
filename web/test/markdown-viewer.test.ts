import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as React from 'react';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { MarkdownViewer } from '../src/features/help/markdown/MarkdownViewer.tsx';
import { linkTarget } from '../src/features/help/markdown/link-target.ts';
import { createI18n } from '../src/lib/i18n/create-i18n.ts';

// tsx compiles the components' JSX with the classic runtime (there is no tsconfig.json at the repository
// root for it to read web's `jsx: react-jsx` from), which calls a global `React`.
Object.assign(globalThis, { React });

const translations = (lang: string) =>
  JSON.parse(
    readFileSync(new URL(`../public/assets/i18n/${lang}/translations.json`, import.meta.url), 'utf8'),
  ) as Record<string, unknown>;

const i18n = await createI18n({
  language: 'EN',
  production: true,
  translations: { EN: translations('en'), FR: translations('fr') },
});

const render = (markdown: string, withoutTitle = false): string =>
  renderToStaticMarkup(
    createElement(
      I18nextProvider,
      { i18n },
      createElement(MemoryRouter, null, createElement(MarkdownViewer, { markdown, withoutTitle })),
    ),
  );

describe('markdown viewer: GitHub-flavoured markdown', () => {
  test('renders a table as a real table', () => {
    const html = render('| Role | Key |\n| --- | --- |\n| Admin | `org:admin` |\n');
    assert.match(html, /<table>/);
    assert.match(html, /<th>Role<\/th>/);
    assert.match(html, /<td><code>org:admin<\/code><\/td>/);
  });

  test('renders a fenced code block in <pre><code> with a copy button', () => {
    const html = render('```sh\ncurl -s https://example.com/api/me -H "Authorization: Bearer $T"\n```\n');
    assert.match(html, /<pre><code class="language-sh">curl -s https:\/\/example.com\/api\/me/);
    // React escapes the quotes in text: the code is shown as written, never interpreted.
    assert.match(html, /-H &quot;Authorization: Bearer \$T&quot;/);
    assert.match(html, /<button[^>]*data-testid="code-copy"[^>]*>Copy<\/button>/);
    // The confirmation only appears after a click.
    assert.doesNotMatch(html, /code-copied/);
  });

  test('renders task lists and strikethrough', () => {
    const html = render('- [x] done\n- [ ] to do\n\n~~old~~\n');
    assert.match(html, /<input type="checkbox" disabled="" checked=""\/>/);
    assert.match(html, /<input type="checkbox" disabled=""\/>/);
    assert.match(html, /<del>old<\/del>/);
  });

  test('can leave out the page title when the surrounding page shows its own', () => {
    assert.match(render('# Compliance\n\nText.'), /<h1>Compliance<\/h1>/);
    const html = render('# Compliance\n\nText.\n\n## Controls', true);
    assert.doesNotMatch(html, /<h1/);
    assert.match(html, /<h2>Controls<\/h2>/);
  });
});

describe('markdown viewer: safety', () => {
  test('never injects raw HTML, block or inline', () => {
    const html = render(
      [
        '<script>alert(1)</script>',
        '',
        '<img src="x" onerror="alert(2)">',
        '',
        'Text with <b onclick="alert(3)">inline</b> HTML and <iframe src="https://evil.example"></iframe>.',
        '',
        '<div style="position:fixed">overlay</div>',
      ].join('\n'),
    );
    // No element or attribute comes from the markdown's HTML…
    assert.doesNotMatch(html, /<(script|img|iframe|b|div style)\b/);
    assert.doesNotMatch(html, /\son[a-z]+=/i);
    // …and it is left out rather than shown as escaped code.
    assert.ok(!html.includes('&lt;script'), html);
    assert.ok(!html.includes('alert('), html);
    assert.match(html, /Text with\s+inline\s+HTML/);
  });

  test('drops javascript:, vbscript: and data: URLs from links and images', () => {
    const html = render(
      [
        '[a](javascript:alert(1))',
        '[b](JavaScript:alert(1))',
        '[c](  javascript:alert(1))',
        '[d](vbscript:msgbox(1))',
        '[e](data:text/html;base64,PHNjcmlwdD4=)',
        '<javascript:alert(1)>',
        '![img](javascript:alert(1))',
      ].join('\n\n'),
    );
    assert.doesNotMatch(html, /href=/);
    assert.doesNotMatch(html, /src=/);
    assert.doesNotMatch(html, /<a\b/);
    // The words stay readable, as text rather than links.
    assert.match(html, /<span>a<\/span>/);
    assert.match(html, /<span>javascript:alert\(1\)<\/span>/);
    assert.match(html, /<img alt="img"\/>/);
  });

  test('links to help pages and app pages stay in the app; external ones open apart', () => {
    const html = render(
      '[roles](/help/organisations-and-roles) [lang](languages.md#top) [settings](/settings) [ext](https://example.com/x) [mail](mailto:a@example.com)',
    );
    // Router links (react-router adds data-discover), in the same tab.
    assert.match(html, /<a href="\/help\/organisations-and-roles"[^>]*>roles<\/a>/);
    assert.match(html, /<a href="\/help\/languages#top"[^>]*>lang<\/a>/);
    assert.match(html, /<a href="\/settings"[^>]*>settings<\/a>/);
    assert.equal(html.match(/target="_blank"/g)?.length, 2);
    assert.match(
      html,
      /<a href="https:\/\/example.com\/x" target="_blank" rel="noopener noreferrer">ext<\/a>/,
    );
    assert.match(html, /<a href="mailto:a@example.com" target="_blank" rel="noopener noreferrer">mail<\/a>/);
  });
});

describe('linkTarget', () => {
  test('classifies every kind of address', () => {
    assert.deepEqual(linkTarget('/help/api-access'), { kind: 'app', to: '/help/api-access' });
    assert.deepEqual(linkTarget('./api-access.md'), { kind: 'app', to: '/help/api-access' });
    assert.deepEqual(linkTarget('api-access.md#curl'), { kind: 'app', to: '/help/api-access#curl' });
    assert.deepEqual(linkTarget('//evil.example/x'), { kind: 'external', href: '//evil.example/x' });
    assert.deepEqual(linkTarget('HTTPS://example.com'), { kind: 'external', href: 'HTTPS://example.com' });
    assert.deepEqual(linkTarget('#section'), { kind: 'plain', href: '#section' });
    assert.deepEqual(linkTarget('../Other.md'), { kind: 'plain', href: '../Other.md' });
    assert.deepEqual(linkTarget(''), { kind: 'none' });
    assert.deepEqual(linkTarget(undefined), { kind: 'none' });
  });
});
