import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { BAPI, CLERK_QUERY, FAPI, Harness, PUBLIC_URL } from './support/harness.ts';

const KIB = 1024;
const query = new URLSearchParams(CLERK_QUERY).toString();
/** JSON nested `depth` deep and never closed: only a reader that counts before parsing calls it deep. */
const deepUnclosed = (depth: number) => `{"a":${'['.repeat(depth)}`;
/** A body streamed in pieces, so it goes without Content-Length (chunked). */
const chunked = (text: string) =>
  Readable.from([Buffer.from(text.slice(0, 1000)), Buffer.from(text.slice(1000))]);

/**
 * Bodies the Frontend and Backend APIs refuse before or while reading them, never after: larger than the
 * route takes (by Content-Length before a byte is read, chunked at the same limit) or nested deeper than
 * MAX_JSON_DEPTH, counted before JSON.parse (issue #11, items 5 and 11).
 */
forEachBackend('input limits', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());

  const fapi = (
    url: string,
    payload: string | Readable,
    type = 'application/x-www-form-urlencoded',
    extra: Record<string, string> = {},
  ) =>
    h.app.inject({
      method: 'POST',
      url: `${FAPI}/v1${url}?${query}`,
      headers: { origin: PUBLIC_URL, 'content-type': type, ...extra },
      payload,
    });
  const bapi = (url: string, payload: string | Readable, key: string | null = h.identity.secretKey) =>
    h.app.inject({
      method: 'POST',
      url: `${BAPI}${url}`,
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      payload,
    });
  const codeOf = (res: { json(): { errors: { code: string; long_message: string }[] } }) =>
    res.json().errors[0]!;

  it('a Frontend API form over 256 KiB is 413 request_body_invalid, by Content-Length and chunked', async () => {
    const form = `identifier=${'a'.repeat(300 * KIB)}`;
    for (const payload of [form, chunked(form)]) {
      const res = await fapi('/client/sign_ins', payload);
      assert.equal(res.statusCode, 413);
      assert.equal(codeOf(res).code, 'request_body_invalid');
    }
    assert.equal(await h.count('sign_ins'), 0);
  });

  it('an upload-sized body to a route that takes no upload is refused before it is read', async () => {
    // 2 MB of octet-stream: within the image routes' limit, far over this route's.
    const res = await fapi('/client/sign_ins', 'x'.repeat(2_000_000), 'application/octet-stream');
    assert.equal(res.statusCode, 413);
    // Chunked, it is refused by its type at once instead of being buffered up to the upload limit.
    const streamed = await fapi(
      '/client/sign_ins',
      chunked('x'.repeat(300 * KIB)),
      'application/octet-stream',
    );
    assert.equal(streamed.statusCode, 400);
    assert.equal(codeOf(streamed).code, 'request_body_invalid');
    const multipart = await fapi(
      '/client/sign_ins',
      chunked('x'.repeat(300 * KIB)),
      'multipart/form-data; boundary=x',
    );
    assert.equal(multipart.statusCode, 400);
  });

  it('the image routes still take a body of several megabytes, and refuse one over their limit', async () => {
    // Refused as an image (not as too large): the size is fine for the route, so the body was read.
    const res = await fapi('/me/profile_image', 'x'.repeat(5_000_000), 'application/octet-stream');
    assert.notEqual(res.statusCode, 413);
    const over = await fapi('/me/profile_image', 'x'.repeat(15_000_000), 'application/octet-stream');
    assert.equal(over.statusCode, 413);
    assert.equal(codeOf(over).code, 'request_body_invalid');
  });

  it('Frontend API JSON nested too deep is refused before JSON.parse', async () => {
    const res = await fapi('/client/sign_ins', deepUnclosed(100), 'application/json');
    assert.equal(res.statusCode, 400);
    assert.equal(codeOf(res).code, 'request_body_invalid');
    assert.match(codeOf(res).long_message, /nested deeper than 64 levels/);
  });

  it('Backend API JSON nested too deep is refused before JSON.parse; over 1 MiB is 413', async () => {
    const deep = await bapi('/v1/organizations', deepUnclosed(100));
    assert.equal(deep.statusCode, 400);
    assert.match(codeOf(deep).long_message, /nested deeper than 64 levels/);
    const big = JSON.stringify({ name: 'x'.repeat(1100 * KIB) });
    for (const payload of [big, chunked(big)]) {
      const res = await bapi('/v1/organizations', payload);
      assert.equal(res.statusCode, 413);
      assert.equal(codeOf(res).code, 'request_body_invalid');
    }
    // Without the secret key nothing is read at all.
    const anonymous = await bapi('/v1/organizations', deepUnclosed(100), null);
    assert.equal(anonymous.statusCode, 401);
    assert.equal(await h.count('organizations'), 0);
  });

  it('a NUL or control character or an overlong id in an image route is 404 in Clerk envelope', async () => {
    for (const id of ['%00', 'img_%00', '%01x', `img_${'a'.repeat(300)}`, 'a%7F']) {
      for (const kind of ['users', 'organizations']) {
        const res = await h.app.inject({ method: 'GET', url: `${FAPI}/v1/images/${kind}/${id}` });
        assert.equal(res.statusCode, 404, `${kind}/${id}: ${res.body}`);
        assert.equal(codeOf(res).code, 'resource_not_found');
      }
    }
  });
});
