import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as React from 'react';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { lazyPage } from '../src/app/lazy-page.tsx';

// tsx compiles the components' JSX with the classic runtime, which calls a global `React`.
Object.assign(globalThis, { React });

const Hello = ({ who }: { who: string }) => createElement('h1', { 'data-testid': 'page' }, `Hello ${who}`);

describe('lazy pages (issue #13: no suspension for a page whose code is here)', () => {
  test('a page whose code has arrived renders at once, in the first render, with its props', async () => {
    const Page = lazyPage(async () => Hello);
    await Page.preload();
    const html = renderToStaticMarkup(createElement(Page, { who: 'Ada' }));
    assert.equal(html, '<h1 data-testid="page">Hello Ada</h1>');
  });

  test('a page whose code is on its way shows the loading line in its place', () => {
    let arrive: (page: typeof Hello) => void = () => {};
    const Page = lazyPage(() => new Promise<typeof Hello>((resolve) => (arrive = resolve)));
    void Page.preload();
    assert.match(renderToStaticMarkup(createElement(Page, { who: 'Ada' })), /data-testid="page-loading"/);
    arrive(Hello);
  });

  test('one download for every preload and render; a failed one is asked again', async () => {
    let calls = 0;
    const Page = lazyPage(async () => {
      calls += 1;
      if (calls === 1) throw new Error('chunk failed');
      return Hello;
    });
    await assert.rejects(Page.preload(), /chunk failed/);
    const [a, b] = await Promise.all([Page.preload(), Page.preload()]);
    assert.equal(a, Hello);
    assert.equal(b, Hello);
    assert.equal(calls, 2);
    assert.match(renderToStaticMarkup(createElement(Page, { who: 'Grace' })), /Hello Grace/);
  });
});
