import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { CLERK_JS_URL } from '../src/static/clerk-js.ts';
import { startEmbeddedServer, type EmbeddedServer } from './support/embedded-server.ts';

const PRECOMPRESS = fileURLToPath(new URL('../../web/scripts/precompress.mjs', import.meta.url));
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Text that compresses well and is well over the 1 KB below which nothing is compressed. */
const script = (name: string) =>
  Array.from({ length: 400 }, (_, i) => `export const ${name}${i} = "value number ${i}";`).join('\n');
const INDEX = `<!doctype html><html><head><title>Qoala</title><script type="module" src="/assets/index-AbCd1234.js"></script>
<link rel="stylesheet" href="/assets/index-Xy_z-987.css"></head><body><div id="root"></div>${'<!-- padding -->'.repeat(80)}</body></html>`;
const FILES: Record<string, string> = {
  'index.html': INDEX,
  'assets/index-AbCd1234.js': script('app'),
  'assets/index-Xy_z-987.css': Array.from({ length: 200 }, (_, i) => `.c${i} { color: red; }`).join('\n'),
  'assets/i18n/en/translations.json': JSON.stringify(
    Object.fromEntries(
      script('k')
        .split('\n')
        .map((l, i) => [i, l]),
    ),
  ),
  'assets/tiny-AAAAAAAA.js': 'export {};',
  // Precompressed below, then rewritten: its variants are then older than it and must not be served.
  'assets/late-BBBBBBBB.js': script('late'),
};

/**
 * The built SPA and clerk-js as the browser fetches them: each file compressed once (the SPA's at build by
 * web/scripts/precompress.mjs, run here on a small build), the encoding the request accepts, the caching
 * each kind of file allows, and the security headers on every answer.
 */
describe('static files: precompressed, negotiated, cached', () => {
  let server: EmbeddedServer;
  let dist: string;
  before(async () => {
    dist = mkdtempSync(join(tmpdir(), 'web-dist-'));
    for (const [name, text] of Object.entries(FILES)) {
      mkdirSync(join(dist, name, '..'), { recursive: true });
      writeFileSync(join(dist, name), text);
    }
    execFileSync(process.execPath, [PRECOMPRESS, dist]);
    // Built again without precompressing: the old variants stay on disk, older than the file.
    const late = join(dist, 'assets/late-BBBBBBBB.js');
    writeFileSync(late, script('later'));
    const future = new Date(Date.now() + 60_000);
    utimesSync(late, future, future);
    server = await startEmbeddedServer({ env: { WEB_DIST: dist } });
  });
  after(async () => {
    await server.stop();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    server.app.fastify.inject({ method: 'GET', url, headers });

  function decoded(res: Awaited<ReturnType<typeof get>>): string {
    const raw = res.rawPayload;
    const encoding = res.headers['content-encoding'];
    if (encoding === 'br') return brotliDecompressSync(raw).toString();
    if (encoding === 'gzip') return gunzipSync(raw).toString();
    assert.equal(encoding, undefined);
    return raw.toString();
  }

  it('answers each encoding the request accepts, with a correct Content-Length and Vary', async () => {
    const url = '/assets/index-AbCd1234.js';
    for (const [accept, expected] of [
      ['gzip, deflate, br', 'br'],
      ['br;q=0.5, gzip', 'gzip'],
      ['gzip', 'gzip'],
      ['deflate', undefined],
      ['identity', undefined],
      ['br;q=0, gzip;q=0', undefined],
      ['', undefined],
    ] as const) {
      const res = await get(url, accept ? { 'accept-encoding': accept } : {});
      assert.equal(res.statusCode, 200, accept);
      assert.equal(res.headers['content-encoding'], expected, accept);
      assert.equal(res.headers['vary'], 'accept-encoding', accept);
      assert.equal(Number(res.headers['content-length']), res.rawPayload.length, accept);
      assert.match(String(res.headers['content-type']), /^text\/javascript/, accept);
      assert.equal(decoded(res), FILES['assets/index-AbCd1234.js'], accept);
    }
  });

  it('serves the build’s own .br and .gz bytes, not a new compression', async () => {
    const { readFileSync } = await import('node:fs');
    const br = await get('/assets/index-AbCd1234.js', { 'accept-encoding': 'br' });
    assert.deepEqual(br.rawPayload, readFileSync(join(dist, 'assets/index-AbCd1234.js.br')));
    const gz = await get('/assets/index-AbCd1234.js', { 'accept-encoding': 'gzip' });
    assert.deepEqual(gz.rawPayload, readFileSync(join(dist, 'assets/index-AbCd1234.js.gz')));
    // The variants themselves are no URLs of the app.
    assert.equal((await get('/assets/index-AbCd1234.js.br')).statusCode, 404);
  });

  it('a missing or stale precompressed file falls back to compressing the current file (once)', async () => {
    const url = '/assets/late-BBBBBBBB.js';
    for (const accept of ['br', 'gzip']) {
      const res = await get(url, { 'accept-encoding': accept });
      assert.equal(res.headers['content-encoding'], accept);
      assert.equal(decoded(res), script('later'), `${accept}: the rewritten file, not the stale variant`);
    }
    // Too small to gain anything: sent as it is.
    const tiny = await get('/assets/tiny-AAAAAAAA.js', { 'accept-encoding': 'br, gzip' });
    assert.equal(tiny.headers['content-encoding'], undefined);
    assert.equal(tiny.body, 'export {};');
  });

  it('fingerprinted files are cached for good; the document and unhashed files revalidate', async () => {
    for (const url of ['/assets/index-AbCd1234.js', '/assets/index-Xy_z-987.css', '/assets/tiny-AAAAAAAA.js'])
      assert.equal((await get(url)).headers['cache-control'], IMMUTABLE, url);
    for (const url of [
      '/assets/i18n/en/translations.json',
      '/index.html',
      '/',
      '/dashboard',
      '/sign-in/factor-one',
    ]) {
      const res = await get(url, { accept: 'text/html', 'accept-encoding': 'br' });
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['cache-control'], 'no-cache', url);
      assert.ok(res.headers['etag'], url);
    }
    const spa = await get('/dashboard', { 'accept-encoding': 'gzip' });
    assert.match(String(spa.headers['content-type']), /^text\/html/);
    assert.equal(decoded(spa), INDEX);
  });

  it('an ETag the browser holds answers 304 without a body, per encoding', async () => {
    for (const url of ['/dashboard', '/assets/i18n/en/translations.json', '/assets/index-AbCd1234.js']) {
      const first = await get(url, { 'accept-encoding': 'br' });
      const etag = String(first.headers['etag']);
      const again = await get(url, { 'accept-encoding': 'br', 'if-none-match': etag });
      assert.equal(again.statusCode, 304, url);
      assert.equal(again.rawPayload.length, 0, url);
      assert.equal(again.headers['etag'], etag, url);
      assert.equal(again.headers['vary'], 'accept-encoding', url);
      // Another encoding is another representation: its tag differs, so the full answer comes back.
      const gzip = await get(url, { 'accept-encoding': 'gzip', 'if-none-match': etag });
      assert.equal(gzip.statusCode, 200, url);
      assert.notEqual(gzip.headers['etag'], etag, url);
      assert.equal(
        (await get(url, { 'accept-encoding': 'br', 'if-none-match': `W/${etag}` })).statusCode,
        304,
      );
      assert.equal((await get(url, { 'accept-encoding': 'br', 'if-none-match': '"other"' })).statusCode, 200);
    }
  });

  it('keeps the security headers on every kind of answer, 304s included', async () => {
    const answers = [
      await get('/dashboard', { accept: 'text/html' }),
      await get('/assets/index-AbCd1234.js', { 'accept-encoding': 'br' }),
      await get(CLERK_JS_URL, { 'accept-encoding': 'gzip' }),
    ];
    answers.push(await get('/dashboard', { 'if-none-match': String(answers[0]!.headers['etag']) }));
    for (const res of answers) {
      const csp = String(res.headers['content-security-policy']);
      assert.ok(csp.split(';').includes("script-src 'self'"), csp);
      assert.ok(csp.split(';').includes("frame-ancestors 'none'"), csp);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['x-frame-options'], 'DENY');
    }
  });

  it('clerk-js is served compressed, cached for good, and only its own bundle files', async () => {
    const br = await get(CLERK_JS_URL, { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(br.statusCode, 200);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(br.headers['cache-control'], IMMUTABLE);
    assert.equal(br.headers['vary'], 'accept-encoding');
    assert.equal(Number(br.headers['content-length']), br.rawPayload.length);
    const plain = await get(CLERK_JS_URL);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(plain.rawPayload.length > 2 * br.rawPayload.length, 'compressed to well under half');
    assert.equal(decoded(br), plain.body);
    assert.equal(decoded(await get(CLERK_JS_URL, { 'accept-encoding': 'gzip' })), plain.body);
    assert.equal(
      (await get(CLERK_JS_URL, { 'accept-encoding': 'br', 'if-none-match': String(br.headers['etag']) }))
        .statusCode,
      304,
    );
    for (const url of [
      CLERK_JS_URL.replace('clerk.browser.js', 'types/index.d.ts'),
      CLERK_JS_URL.replace('clerk.browser.js', '..%2Fpackage.json'),
      CLERK_JS_URL.replace('clerk.browser.js', 'nope.js'),
    ])
      assert.equal((await get(url)).statusCode, 404, url);
  });
});
