import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MutationObserver, QueryObserver, type QueryClient } from '@tanstack/react-query';
import { meQuery } from '../src/features/diagnostics/me-query.ts';
import { helpPageQuery } from '../src/features/help/help-page-query.ts';
import {
  currentOrganizationKey,
  currentOrganizationQuery,
} from '../src/features/organizations/current-organization-query.ts';
import { settingsChange } from '../src/features/settings/settings-change.ts';
import { attachChildOrganization } from '../src/features/vciso/api/attach-child-organization.ts';
import { createChildOrganization } from '../src/features/vciso/api/create-child-organization.ts';
import {
  childOrganizationsQuery,
  hierarchyChange,
  parentOrganizationQuery,
} from '../src/features/vciso/hierarchy-queries.ts';
import { createHttpClient } from '../src/lib/http/client.ts';
import { HttpError } from '../src/lib/http/http-error.ts';
import { createQueryClient, MAX_READ_RETRIES, shouldRetryRead } from '../src/lib/query/query-client.ts';
import type { QueryScope } from '../src/lib/query/query-scope.ts';
import { defaultOrganizationMetadata, MODULE_FLAGS } from '@app/contract';

const ORIGIN = 'https://app.example.test';
const ADA_IN_ACME: QueryScope = { userId: 'user_ada', organizationId: 'org_acme' };
const ADA_IN_GLOBEX: QueryScope = { userId: 'user_ada', organizationId: 'org_globex' };
const BOB_IN_ACME: QueryScope = { userId: 'user_bob', organizationId: 'org_acme' };

type Handler = (request: { method: string; path: string; body: unknown }) => Response;

/**
 * The real request client on a fake product server: `handle` answers each request, and every request
 * is recorded as `METHOD path` so a test can count what actually went out.
 */
function productServer(handle: Handler) {
  const sent: string[] = [];
  const client = createHttpClient({
    protectedUrls: ['/api/'],
    getToken: async () => 'tok',
    getLanguage: () => 'EN',
    origin: ORIGIN,
    logger: () => {},
    fetch: async (input, init) => {
      const method = init?.method ?? 'GET';
      const path = new URL(String(input), ORIGIN).pathname;
      sent.push(`${method} ${path}`);
      // Like a real server, answer after the caller has had a chance to ask again.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : null;
      return handle({ method, path, body });
    },
  });
  return { client, sent, count: (request: string) => sent.filter((s) => s === request).length };
}

const refusal = (status: number, code: string) =>
  Response.json({ errors: [{ code, message: code }] }, { status });

const organization = (id: string, name: string, metadata: Record<string, unknown> = {}) => ({
  id,
  slug: name.toLowerCase(),
  name,
  publicMetadata: { ...defaultOrganizationMetadata(id), uiLanguage: 'EN', ...metadata },
});

const child = (id: string, name: string) => ({
  id,
  name,
  slug: name.toLowerCase(),
  modules: Object.fromEntries(MODULE_FLAGS.map((flag) => [flag, false])),
  hasActiveSubscription: 'NO',
});

const me = (userId: string, orgId: string | null) => ({
  userId,
  sessionId: `sess_${userId}`,
  orgId,
  orgSlug: null,
  orgRole: null,
  orgPermissions: [],
  user: { id: userId, firstName: null, lastName: null, primaryEmailAddress: null },
  actor: null,
});

/** Retries without waiting, so the tests time the logic rather than the back-off. */
const newCache = (): QueryClient => createQueryClient({ retryDelay: 0 });

describe('retry policy', () => {
  test('a read is retried after no answer or a server error, at most twice', () => {
    assert.equal(shouldRetryRead(0, new HttpError('down', null)), true);
    assert.equal(shouldRetryRead(1, new HttpError('down', 503)), true);
    assert.equal(shouldRetryRead(MAX_READ_RETRIES, new HttpError('down', 503)), false);
  });

  test('a refusal (4xx) or a failure of our own is never retried', () => {
    for (const status of [400, 401, 403, 404, 409, 422, 429]) {
      assert.equal(shouldRetryRead(0, new HttpError('refused', status)), false, `HTTP ${status}`);
    }
    assert.equal(shouldRetryRead(0, new Error('changed while loading')), false);
    assert.equal(shouldRetryRead(0, 'not even an error'), false);
  });

  test('GET: a 503 is asked again and its recovery is what the page gets', async () => {
    let calls = 0;
    const server = productServer(() =>
      ++calls === 1 ? refusal(503, 'unavailable') : Response.json(organization('org_acme', 'Acme')),
    );
    const data = await newCache().fetchQuery(currentOrganizationQuery(server.client, ADA_IN_ACME));
    assert.equal(data.name, 'Acme');
    assert.equal(server.count('GET /api/organizations/current'), 2);
  });

  test('GET: a 403 is sent once and fails at once', async () => {
    const server = productServer(() => refusal(403, 'forbidden'));
    await assert.rejects(
      newCache().fetchQuery(childOrganizationsQuery(server.client, ADA_IN_ACME)),
      (error: unknown) => error instanceof HttpError && error.code === 'forbidden',
    );
    assert.equal(server.count('GET /api/organizations/current/children'), 1);
  });

  test('GET: a server that never recovers is asked three times in all, then the failure shows', async () => {
    const server = productServer(() => refusal(500, 'internal'));
    await assert.rejects(newCache().fetchQuery(parentOrganizationQuery(server.client, ADA_IN_ACME)));
    assert.equal(server.count('GET /api/organizations/current/parent'), 1 + MAX_READ_RETRIES);
  });

  test('a write is never retried, even after a server error or no answer', async () => {
    const cache = newCache();
    for (const failure of [() => refusal(503, 'unavailable'), () => Response.error()]) {
      const server = productServer(failure);
      const creation = new MutationObserver(
        cache,
        hierarchyChange(server.client, cache, ADA_IN_ACME, createChildOrganization),
      );
      await assert.rejects(creation.mutate({ name: 'Initech' }), HttpError);
      assert.deepEqual(server.sent, ['POST /api/organizations/current/children']);
    }
  });
});

describe('cache and deduplication', () => {
  test('components asking for the same data at once share one request', async () => {
    const server = productServer(() => Response.json(organization('org_acme', 'Acme')));
    const cache = newCache();
    const query = currentOrganizationQuery(server.client, ADA_IN_ACME);
    const answers = await Promise.all([
      cache.fetchQuery(query),
      cache.fetchQuery(query),
      cache.fetchQuery(query),
    ]);
    assert.equal(server.count('GET /api/organizations/current'), 1);
    assert.ok(answers.every((answer) => answer === answers[0]));
  });

  test('a page opened again soon after is served from the cache', async () => {
    const server = productServer(() => Response.json({ data: [child('org_initech', 'Initech')] }));
    const cache = newCache();
    await cache.fetchQuery(childOrganizationsQuery(server.client, ADA_IN_ACME));
    await cache.fetchQuery(childOrganizationsQuery(server.client, ADA_IN_ACME));
    assert.equal(server.count('GET /api/organizations/current/children'), 1);
  });

  test('/api/me is asked afresh each time the diagnostics page is opened', async () => {
    const server = productServer(() => Response.json(me('user_ada', 'org_acme')));
    const cache = newCache();
    const observe = () => {
      const observer = new QueryObserver(cache, meQuery(server.client, ADA_IN_ACME));
      const unsubscribe = observer.subscribe(() => {});
      return { observer, unsubscribe };
    };
    const first = observe();
    await first.observer.refetch();
    first.unsubscribe();
    const second = observe();
    await new Promise((resolve) => setTimeout(resolve, 20));
    second.unsubscribe();
    assert.equal(server.count('GET /api/me'), 2);
  });

  test('help pages are cached per language: a switch never shows the other language', async () => {
    const cache = newCache();
    await cache.fetchQuery({
      ...helpPageQuery('EN', 'getting-started'),
      queryFn: () => ({ status: 'found' as const, markdown: '# Getting started' }),
    });
    const french = new QueryObserver(cache, helpPageQuery('FR', 'getting-started'));
    assert.equal(french.getCurrentResult().data, undefined);
    assert.equal(cache.getQueryData(helpPageQuery('EN', 'getting-started').queryKey)?.status, 'found');
  });
});

describe('invalidation after a write', () => {
  test('attaching a client organisation reads the list again before the change counts as done', async () => {
    const children = [child('org_initech', 'Initech')];
    const server = productServer(({ method, path }) => {
      if (method === 'PUT') {
        const attached = child(decodeURIComponent(path.split('/').at(-1)!), 'Hooli');
        children.push(attached);
        return Response.json(attached);
      }
      return Response.json({ data: children });
    });
    const cache = newCache();
    const list = new QueryObserver(cache, childOrganizationsQuery(server.client, ADA_IN_ACME));
    const seen: string[][] = [];
    const unsubscribe = list.subscribe((result) => {
      if (result.data) seen.push(result.data.map((c) => c.name));
    });
    await list.refetch();

    const attach = new MutationObserver(
      cache,
      hierarchyChange(server.client, cache, ADA_IN_ACME, attachChildOrganization),
    );
    await attach.mutate('org_hooli');
    unsubscribe();

    assert.deepEqual(server.sent, [
      'GET /api/organizations/current/children',
      'PUT /api/organizations/current/children/org_hooli',
      'GET /api/organizations/current/children',
    ]);
    assert.deepEqual(seen.at(-1), ['Initech', 'Hooli']);
  });

  test("a write invalidates only its own organisation's data, not another tenant's", async () => {
    const server = productServer(({ method }) =>
      method === 'POST' ? Response.json(child('org_new', 'New')) : Response.json({ data: [] }),
    );
    const cache = newCache();
    await cache.fetchQuery(childOrganizationsQuery(server.client, ADA_IN_ACME));
    await cache.fetchQuery(childOrganizationsQuery(server.client, ADA_IN_GLOBEX));
    await new MutationObserver(
      cache,
      hierarchyChange(server.client, cache, ADA_IN_ACME, createChildOrganization),
    ).mutate({ name: 'New' });
    const state = (scope: QueryScope) =>
      cache.getQueryState(childOrganizationsQuery(server.client, scope).queryKey);
    assert.equal(state(ADA_IN_ACME)?.isInvalidated, true);
    assert.equal(state(ADA_IN_GLOBEX)?.isInvalidated, false);
  });

  test('a failed write leaves the cached data as it was', async () => {
    const server = productServer(({ method }) =>
      method === 'PUT' ? refusal(409, 'already_has_parent') : Response.json({ data: [] }),
    );
    const cache = newCache();
    await cache.fetchQuery(childOrganizationsQuery(server.client, ADA_IN_ACME));
    await assert.rejects(
      new MutationObserver(
        cache,
        hierarchyChange(server.client, cache, ADA_IN_ACME, attachChildOrganization),
      ).mutate('org_hooli'),
    );
    const state = cache.getQueryState(childOrganizationsQuery(server.client, ADA_IN_ACME).queryKey);
    assert.equal(state?.isInvalidated, false);
  });

  test('saving the settings puts the answered organisation in the cache at once', async () => {
    const server = productServer(({ method, body }) =>
      method === 'PATCH'
        ? Response.json(
            organization('org_acme', 'Acme', { uiLanguage: (body as { uiLanguage: string }).uiLanguage }),
          )
        : Response.json(organization('org_acme', 'Acme')),
    );
    const cache = newCache();
    await cache.fetchQuery(currentOrganizationQuery(server.client, ADA_IN_ACME));
    await new MutationObserver(cache, settingsChange(server.client, cache, ADA_IN_ACME)).mutate({
      uiLanguage: 'FR',
    });
    const cached = cache.getQueryData(currentOrganizationQuery(server.client, ADA_IN_ACME).queryKey);
    assert.equal(cached?.publicMetadata.uiLanguage, 'FR');
    assert.deepEqual(server.sent, [
      'GET /api/organizations/current',
      'PATCH /api/organizations/current/settings',
    ]);
  });
});

describe('tenant isolation of the cache', () => {
  test("after switching organisation, nothing of the previous one's data is shown", async () => {
    const server = productServer(() => Response.json({ data: [child('org_acme_client', 'Acme client')] }));
    const cache = newCache();
    await cache.fetchQuery(childOrganizationsQuery(server.client, ADA_IN_ACME));
    const switched = new QueryObserver(cache, childOrganizationsQuery(server.client, ADA_IN_GLOBEX));
    const result = switched.getCurrentResult();
    assert.equal(result.data, undefined);
    assert.equal(result.status, 'pending');
  });

  test("another user of the same organisation does not get the first user's answers", async () => {
    const server = productServer(() => Response.json(me('user_ada', 'org_acme')));
    const cache = newCache();
    await cache.fetchQuery(meQuery(server.client, ADA_IN_ACME));
    assert.equal(
      new QueryObserver(cache, meQuery(server.client, BOB_IN_ACME)).getCurrentResult().data,
      undefined,
    );
  });

  test("an answer for another organisation than the key's is refused, not cached under it", async () => {
    // The session switched organisation while the request was in flight: the server answered for Globex.
    const server = productServer(() => Response.json(organization('org_globex', 'Globex')));
    const cache = newCache();
    await assert.rejects(cache.fetchQuery(currentOrganizationQuery(server.client, ADA_IN_ACME)));
    assert.equal(cache.getQueryData(currentOrganizationKey(ADA_IN_ACME)), undefined);
    assert.equal(server.count('GET /api/organizations/current'), 1, 'not retried: it would answer the same');
  });

  test('nothing is asked without an active organisation', async () => {
    const server = productServer(() => Response.json(organization('org_acme', 'Acme')));
    const cache = newCache();
    const noOrganization = { userId: 'user_ada', organizationId: null };
    const observer = new QueryObserver(cache, currentOrganizationQuery(server.client, noOrganization));
    const unsubscribe = observer.subscribe(() => {});
    await new Promise((resolve) => setTimeout(resolve, 20));
    unsubscribe();
    assert.deepEqual(server.sent, []);
  });
});
