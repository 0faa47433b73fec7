import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ClerkClient } from '@clerk/backend';
import { backendApiClient } from './support/backend-api.ts';
import { forEachBackend } from './support/backends.ts';
import { enableBilling } from './support/billing-world.ts';
import { Harness } from './support/harness.ts';

/**
 * Calls every method of every API object of `createClerkClient(...)` (@clerk/backend 2.10.1) once, with
 * made-up ids, and fails on any answer that says the route does not exist (`404 endpoint not found`)
 * for a method not in `UNSERVED` below. A made-up id is a `404 resource_not_found` of the resource, a
 * missing parameter a 4xx of its own: both mean the route is served. `COVERAGE_REPORT=1` prints the
 * status of each call.
 */

/**
 * Methods that still answer 404 because nothing serves their route yet, with why (docs/backend-api.md,
 * "Not served yet"). Keep this list short and shrinking: a method served removes its line.
 */
const UNSERVED: Record<string, string> = {};

type Method = (...args: unknown[]) => Promise<unknown>;

/** A parameter object that answers a made-up id for every `…Id` / `…ID` the SDK reads out of it. */
const isIdKey = (key: string | symbol) => typeof key === 'string' && /(Id|ID|Ids)$/.test(key);
const paramsProxy = (): Record<string, unknown> =>
  new Proxy(
    {},
    { get: (_t, key) => (isIdKey(key) ? 'dummy_000' : undefined), has: (_t, key) => isIdKey(key) },
  );

interface Outcome {
  status: number | 'ok' | 'local';
  missing: boolean;
  detail: string;
}

interface ApiError {
  status?: number;
  errors?: { code: string; message?: string }[];
}

async function callOnce(fn: Method, self: object, args: unknown[]): Promise<Outcome> {
  try {
    await fn.apply(self, args);
    return { status: 'ok', missing: false, detail: '' };
  } catch (err) {
    const apiError = err as ApiError;
    if (typeof apiError.status !== 'number') return { status: 'local', missing: false, detail: String(err) };
    const first = apiError.errors?.[0];
    return {
      status: apiError.status,
      missing: apiError.status === 404 && first?.message === 'endpoint not found',
      detail: `${first?.code ?? ''} ${first?.message ?? ''}`.trim(),
    };
  }
}

/**
 * Ids as strings (`get(id)`), an id and an object (`updateUser(id, { … })`), an object of parameters
 * (`update({ machineId, … })`): the first shape the SDK sends to a served route is the answer.
 */
async function callMethod(fn: Method, self: object): Promise<Outcome> {
  const shapes = [
    ['dummy_000', 'dummy_001', 'dummy_002'],
    ['dummy_000', {}],
    [paramsProxy(), paramsProxy()],
  ];
  let last: Outcome = { status: 'local', missing: false, detail: 'no call' };
  for (const args of shapes) {
    const outcome = await callOnce(fn, self, args);
    if (outcome.status !== 'local' && !outcome.missing) return outcome;
    if (last.status === 'local' || outcome.missing) last = outcome;
  }
  return last;
}

function methodsOf(api: object): string[] {
  return Object.getOwnPropertyNames(Object.getPrototypeOf(api)).filter(
    (name) => name !== 'constructor' && typeof (api as Record<string, unknown>)[name] === 'function',
  );
}

forEachBackend('every method of @clerk/backend 2.10.1 reaches a served route', (backend) => {
  let h: Harness;
  let clerk: ClerkClient;

  before(async () => {
    h = await Harness.start(backend);
    // Billing's routes answer 404 while the instance does not bill (docs/billing.md).
    await enableBilling(h);
    clerk = await backendApiClient(h);
  });
  after(() => h.close());

  it('no method answers the 404 of an unknown route, but the documented exceptions', async () => {
    const missing: string[] = [];
    const report: string[] = [];
    let total = 0;
    for (const [apiName, api] of Object.entries(clerk as unknown as Record<string, object>)) {
      if (!api || typeof api !== 'object') continue;
      for (const name of methodsOf(api)) {
        total += 1;
        const key = `${apiName}.${name}`;
        const outcome = await callMethod((api as Record<string, Method>)[name]!, api);
        report.push(`${key}: ${outcome.status} ${outcome.detail}`);
        if (outcome.missing) missing.push(key);
      }
    }
    if (process.env.COVERAGE_REPORT) console.warn(report.join('\n'));
    assert.ok(total > 130, `the SDK's methods were read (${total})`);
    assert.deepEqual(
      missing.filter((key) => !UNSERVED[key]),
      [],
      `${missing.length} of ${total} methods answer 404 endpoint not found`,
    );
    assert.deepEqual(
      Object.keys(UNSERVED).filter((key) => !missing.includes(key)),
      [],
      'served now: remove from UNSERVED',
    );
  });
});
