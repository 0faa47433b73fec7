import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { EnvironmentCache, environmentJSON } from '../src/instance/environment.ts';
import { forEachBackend } from './support/backends.ts';
import { Harness } from './support/harness.ts';

forEachBackend('the environment, built once and cached until invalidated', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());

  it('GET /v1/environment sends exactly what the builder makes, through either route', async () => {
    const expected = JSON.stringify(environmentJSON(h.config, h.identity.settings.settings));
    const direct = await h.browser().get('/environment');
    assert.equal(direct.status, 200);
    assert.match(String(direct.headers['content-type']), /^application\/json/);
    assert.equal(JSON.stringify(direct.body), expected);
    // The router's spellings (trailing slash, the development touch) send the same object.
    const browser = h.browser();
    const slash = await browser.raw('GET', '/__clerk/v1/environment/');
    assert.equal(JSON.stringify(slash.body), expected);
    const patch = await browser.patch('/environment');
    assert.equal(JSON.stringify(patch.body), expected);
  });

  it('needs no client and sets no cookie, whatever the browser presents', async () => {
    const browser = h.browser();
    browser.jar.set('__client', 'not-a-known-token');
    const res = await browser.get('/environment');
    assert.equal(res.status, 200);
    assert.equal(res.setCookies.size, 0);
  });

  it('revalidates: no-cache with an ETag, 304 while it holds', async () => {
    const first = await h.browser().get('/environment');
    const etag = String(first.headers['etag']);
    assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
    assert.equal(first.headers['cache-control'], 'no-cache');
    const browser = h.browser();
    const again = await h.app.inject({
      method: 'GET',
      url: '/__clerk/v1/environment',
      headers: { 'if-none-match': etag },
    });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    assert.equal((await browser.get('/environment')).headers['etag'], etag, 'the same text, the same tag');
  });

  it('is not built again per request, and is after invalidate()', async () => {
    const config = h.config as { applicationName: string };
    const name = config.applicationName;
    const before = await h.browser().get('/environment');
    try {
      // The builder reads the configuration each time it runs: a change shows only once invalidated.
      config.applicationName = 'Renamed instance';
      const cached = await h.browser().get('/environment');
      assert.equal(cached.body.display_config.application_name, name);
      assert.equal(cached.headers['etag'], before.headers['etag']);
      h.identity.deps.environment.invalidate();
      const rebuilt = await h.browser().get('/environment');
      assert.equal(rebuilt.body.display_config.application_name, 'Renamed instance');
      assert.notEqual(rebuilt.headers['etag'], before.headers['etag']);
      assert.equal(
        JSON.stringify(rebuilt.body),
        JSON.stringify(environmentJSON(h.config, h.identity.settings.settings)),
      );
      const stale = await h.app.inject({
        method: 'GET',
        url: '/__clerk/v1/environment',
        headers: { 'if-none-match': String(before.headers['etag']) },
      });
      assert.equal(stale.statusCode, 200, 'the old tag no longer matches');
    } finally {
      config.applicationName = name;
      h.identity.deps.environment.invalidate();
    }
  });
});

it('EnvironmentCache: one build for concurrent readers, none kept after a failure or an invalidate()', async () => {
  let builds = 0;
  let fail = false;
  const cache = new EnvironmentCache(() => {
    builds += 1;
    if (fail) throw new Error('settings unreadable');
    return { build: builds };
  });
  const [a, b] = await Promise.all([cache.get(), cache.get()]);
  assert.equal(builds, 1);
  assert.equal(a, b);
  assert.equal(a.body, '{"build":1}');
  cache.invalidate();
  fail = true;
  await assert.rejects(cache.get(), /settings unreadable/);
  fail = false;
  assert.equal((await cache.get()).body, '{"build":3}', 'the failed build was not kept');
  // A build under way when the settings change is not the one later requests get.
  cache.invalidate();
  const during = cache.get();
  cache.invalidate();
  assert.notEqual(await cache.get(), await during);
});
