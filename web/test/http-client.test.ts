import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHttpClient, type HttpClientOptions } from '../src/lib/http/client.ts';
import { HttpError } from '../src/lib/http/http-error.ts';
import { localizedFetch } from '../src/lib/http/localized-fetch.ts';
import { matchesProtectedUrl } from '../src/lib/http/protected-urls.ts';
import { fetchTranslations } from '../src/lib/i18n/translations.ts';

const ORIGIN = 'https://app.example.test';

interface Sent {
  input: string | URL | Request;
  headers: Headers;
  init: RequestInit | undefined;
}

/** A client on a fake fetch that records what was sent and answers `respond()`. */
function setup(
  overrides: Partial<HttpClientOptions> = {},
  respond: () => Response = () => Response.json({ ok: true }),
) {
  const sent: Sent[] = [];
  const logged: [string, unknown][] = [];
  const client = createHttpClient({
    protectedUrls: ['/api/'],
    getToken: async () => 'tok_123',
    getLanguage: () => undefined,
    origin: ORIGIN,
    logger: (message, error) => logged.push([message, error]),
    fetch: async (input, init) => {
      sent.push({ input, headers: new Headers(init?.headers), init });
      return respond();
    },
    ...overrides,
  });
  return { client, sent, logged };
}

describe('bearer interceptor', () => {
  test('adds the session token to a listed same-origin URL', async () => {
    const { client, sent } = setup();
    await client.request('/api/me');
    assert.equal(sent[0]?.headers.get('Authorization'), 'Bearer tok_123');
    assert.equal(sent[0]?.input, '/api/me', 'the relative path goes to fetch as given');
  });

  test('adds it to an absolute URL on the page origin too', async () => {
    const { client, sent } = setup();
    await client.request(`${ORIGIN}/api/organizations/current`);
    assert.equal(sent[0]?.headers.get('Authorization'), 'Bearer tok_123');
  });

  test('is skipped with no session', async () => {
    const { client, sent } = setup({ getToken: async () => null });
    await client.request('/api/me');
    assert.equal(sent.length, 1, 'the request still goes out');
    assert.equal(sent[0]?.headers.has('Authorization'), false);
  });

  test('is skipped for an unlisted URL, without asking for a token', async () => {
    let asked = 0;
    const { client, sent } = setup({
      getToken: async () => {
        asked += 1;
        return 'tok_123';
      },
    });
    await client.request('/assets/i18n/fr/translations.json');
    await client.request('/apiary');
    assert.equal(sent[0]?.headers.has('Authorization'), false);
    assert.equal(sent[1]?.headers.has('Authorization'), false);
    assert.equal(asked, 0);
  });

  test('is never added for another origin, even with a matching path', async () => {
    const { client, sent } = setup();
    await client.request('https://evil.example.test/api/me');
    await client.request('//evil.example.test/api/me');
    await client.request(new URL('http://app.example.test/api/me'));
    for (const request of sent) assert.equal(request.headers.has('Authorization'), false);
  });

  test("keeps the caller's Authorization header", async () => {
    const { client, sent } = setup();
    await client.request('/api/me', { headers: { Authorization: 'Bearer caller' } });
    await client.request(new Request(`${ORIGIN}/api/me`, { headers: { authorization: 'Basic abc' } }));
    assert.equal(sent[0]?.headers.get('Authorization'), 'Bearer caller');
    assert.equal(sent[1]?.headers.get('Authorization'), 'Basic abc');
  });

  test('keeps the other caller headers and options', async () => {
    const { client, sent } = setup();
    await client.request('/api/me', { method: 'PATCH', headers: { 'Content-Type': 'application/json' } });
    assert.equal(sent[0]?.init?.method, 'PATCH');
    assert.equal(sent[0]?.headers.get('Content-Type'), 'application/json');
  });
});

describe('protected URL patterns', () => {
  test('are path prefixes on the page origin, matched on whole segments', () => {
    const at = (path: string) => new URL(path, ORIGIN);
    assert.equal(matchesProtectedUrl(at('/api/me'), ['/api/'], ORIGIN), true);
    assert.equal(matchesProtectedUrl(at('/api'), ['/api'], ORIGIN), true);
    assert.equal(matchesProtectedUrl(at('/api/me'), ['/api'], ORIGIN), true);
    assert.equal(matchesProtectedUrl(at('/apiary'), ['/api'], ORIGIN), false);
    assert.equal(matchesProtectedUrl(at('/api/../admin'), ['/api/'], ORIGIN), false);
    assert.equal(matchesProtectedUrl(at('/api/me'), ['https://evil.example.test/api/'], ORIGIN), false);
    assert.equal(matchesProtectedUrl(null, ['/api/'], ORIGIN), false);
  });
});

describe('localization interceptor', () => {
  test('sends x-localization FR by default', async () => {
    const { client, sent } = setup();
    await client.request('/api/me');
    await client.request('https://elsewhere.example.test/data');
    assert.equal(sent[0]?.headers.get('x-localization'), 'FR');
    assert.equal(sent[1]?.headers.get('x-localization'), 'FR', 'every request gets it');
  });

  test('sends EN when chosen, uppercased', async () => {
    const { client, sent } = setup({ getLanguage: () => 'en' });
    await client.request('/api/me');
    assert.equal(sent[0]?.headers.get('x-localization'), 'EN');
  });

  test('falls back to FR for an unknown language', async () => {
    const { client, sent } = setup({ getLanguage: () => 'de' });
    await client.request('/api/me');
    assert.equal(sent[0]?.headers.get('x-localization'), 'FR');
  });

  test('a failure is logged and the request goes out unchanged', async () => {
    const failure = new Error('no language');
    const { client, sent, logged } = setup({
      getToken: async () => null,
      getLanguage: () => {
        throw failure;
      },
    });
    const response = await client.request('/api/me', { headers: { 'X-Caller': 'yes' } });
    assert.equal(response.ok, true);
    assert.deepEqual(logged, [['Error in localization interceptor', failure]]);
    assert.equal(sent.length, 1);
    assert.deepEqual([...sent[0]!.headers], [['x-caller', 'yes']]);
  });

  test('a failure does not drop the bearer header added before it', async () => {
    const { client, sent, logged } = setup({
      getLanguage: () => {
        throw new Error('no language');
      },
    });
    await client.request('/api/me');
    assert.equal(logged.length, 1);
    assert.equal(sent[0]?.headers.get('Authorization'), 'Bearer tok_123');
    assert.equal(sent[0]?.headers.has('x-localization'), false);
  });

  test('logs through console.error by default', async (t) => {
    const spy = t.mock.method(console, 'error', () => {});
    const client = createHttpClient({
      protectedUrls: [],
      getToken: async () => null,
      getLanguage: () => {
        throw new Error('boom');
      },
      origin: ORIGIN,
      fetch: async () => new Response(null, { status: 204 }),
    });
    await client.request('/x');
    assert.equal(spy.mock.callCount(), 1);
    assert.equal(spy.mock.calls[0]?.arguments[0], 'Error in localization interceptor');
  });
});

describe("the product's own files (spec §7: translations.json, help .md, app config)", () => {
  const recorder = () => {
    const sent: { input: string | URL | Request; headers: Headers }[] = [];
    const fetch = async (input: string | URL | Request, init?: RequestInit) => {
      sent.push({ input, headers: new Headers(init?.headers) });
      return Response.json({ hello: 'Bonjour' });
    };
    return { sent, fetch };
  };

  test('carry x-localization with the language asked for, and keep the caller headers', async () => {
    const { sent, fetch } = recorder();
    await localizedFetch('EN', { fetch })('/assets/i18n/en/x.md', { headers: { Accept: 'text/markdown' } });
    assert.equal(sent[0]?.input, '/assets/i18n/en/x.md');
    assert.equal(sent[0]?.headers.get('x-localization'), 'EN');
    assert.equal(sent[0]?.headers.get('accept'), 'text/markdown');
    assert.equal(sent[0]?.headers.has('Authorization'), false);
  });

  test('a language source is read when each request is sent', async () => {
    const { sent, fetch } = recorder();
    let language: 'FR' | 'EN' = 'FR';
    const send = localizedFetch(() => language, { fetch });
    await send('/a');
    language = 'EN';
    await send('/b');
    assert.deepEqual(
      sent.map((s) => s.headers.get('x-localization')),
      ['FR', 'EN'],
    );
  });

  test('translations.json: the lowercase path, in the language it asks for', async () => {
    const { sent, fetch } = recorder();
    assert.deepEqual(await fetchTranslations('FR', fetch), { hello: 'Bonjour' });
    assert.equal(sent[0]?.input, '/assets/i18n/fr/translations.json');
    assert.equal(sent[0]?.headers.get('x-localization'), 'FR');
    await fetchTranslations('EN', fetch);
    assert.equal(sent[1]?.input, '/assets/i18n/en/translations.json');
    assert.equal(sent[1]?.headers.get('x-localization'), 'EN');
  });

  test('a failure to add the header is logged as the spec says and the request goes unchanged', async () => {
    const { sent, fetch } = recorder();
    const logged: [string, unknown][] = [];
    const failure = new Error('no language');
    const send = localizedFetch(
      () => {
        throw failure;
      },
      { fetch, logger: (message, error) => logged.push([message, error]) },
    );
    const response = await send('/assets/i18n/fr/translations.json', {
      headers: { Accept: 'application/json' },
    });
    assert.equal(response.ok, true);
    assert.deepEqual(logged, [['Error in localization interceptor', failure]]);
    assert.deepEqual([...sent[0]!.headers], [['accept', 'application/json']]);
  });

  test('the default transport is the global fetch, and failures go to console.error', async (t) => {
    const error = t.mock.method(console, 'error', () => {});
    const global = t.mock.method(globalThis, 'fetch', async () => new Response('# Aide'));
    const response = await localizedFetch(() => {
      throw new Error('boom');
    })('/assets/i18n/fr/aide.md');
    assert.equal(await response.text(), '# Aide');
    assert.equal(global.mock.callCount(), 1);
    assert.equal(new Headers(global.mock.calls[0]?.arguments[1]?.headers).has('x-localization'), false);
    assert.equal(error.mock.calls[0]?.arguments[0], 'Error in localization interceptor');
  });
});

describe('json()', () => {
  test('answers the parsed body and asks for JSON', async () => {
    const { client, sent } = setup({}, () => Response.json({ id: 'org_1' }));
    const body = await client.json<{ id: string }>('/api/organizations/current');
    assert.deepEqual(body, { id: 'org_1' });
    assert.equal(sent[0]?.headers.get('Accept'), 'application/json');
    assert.equal(sent[0]?.headers.get('Authorization'), 'Bearer tok_123');
  });

  test("throws a typed HttpError carrying the server's errors", async () => {
    const errors = [
      { code: 'forbidden', message: 'Admins only.' },
      { code: 'other', message: 'And this.' },
    ];
    const { client } = setup({}, () => Response.json({ errors }, { status: 403 }));
    await assert.rejects(client.json('/api/me'), (error: unknown) => {
      assert.ok(error instanceof HttpError);
      assert.equal(error.status, 403);
      assert.equal(error.code, 'forbidden');
      assert.equal(error.message, 'Admins only.');
      assert.deepEqual(error.errors, errors);
      return true;
    });
  });

  test('a refusal without an error body names the status', async () => {
    const { client } = setup({}, () => new Response('nope', { status: 502 }));
    await assert.rejects(client.json('/api/me'), {
      name: 'HttpError',
      status: 502,
      code: null,
      message: 'The product API answered with HTTP 502.',
    });
  });

  test('an unreachable server is an HttpError with no status; an abort is rethrown', async () => {
    const { client } = setup({
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    await assert.rejects(client.json('/api/me'), { name: 'HttpError', status: null });

    const controller = new AbortController();
    controller.abort();
    const aborting = setup({
      fetch: async (_input, init) => {
        init?.signal?.throwIfAborted();
        return Response.json({});
      },
    });
    await assert.rejects(aborting.client.json('/api/me', { signal: controller.signal }), {
      name: 'AbortError',
    });
  });
});
