import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachBackend } from './support/backends.ts';
import { FAPI, Harness, PUBLIC_URL } from './support/harness.ts';

const ATTRIBUTES = [
  'email_address',
  'password',
  'first_name',
  'last_name',
  'phone_number',
  'username',
  'web3_wallet',
  'authenticator_app',
  'backup_code',
  'passkey',
];
const ATTRIBUTE_FIELDS = [
  'enabled',
  'required',
  'used_for_first_factor',
  'first_factors',
  'used_for_second_factor',
  'second_factors',
  'verifications',
  'verify_at_sign_up',
];

forEachBackend('environment, client bootstrap and routing', (backend) => {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend);
  });
  after(() => h.close());

  it('GET /v1/environment returns the bare environment of an email + password instance', async () => {
    const res = await h.browser().get('/environment');
    assert.equal(res.status, 200);
    const env = res.body;
    assert.equal(env.object, 'environment');
    assert.equal('response' in env, false, 'the environment is not wrapped');
    assert.equal(env.user_settings.sign_up.mode, 'public');
    assert.deepEqual(Object.keys(env.user_settings.attributes).sort(), [...ATTRIBUTES].sort());
    for (const name of ATTRIBUTES) {
      const attr = env.user_settings.attributes[name];
      assert.deepEqual(
        Object.keys(attr).sort(),
        [...ATTRIBUTE_FIELDS].sort(),
        `attribute ${name} has every field`,
      );
      assert.ok(Array.isArray(attr.verifications), `${name}.verifications is an array`);
      assert.ok(Array.isArray(attr.first_factors), `${name}.first_factors is an array`);
    }
    const { email_address, password, phone_number } = env.user_settings.attributes;
    assert.equal(password.used_for_first_factor, false);
    assert.equal(password.enabled, true);
    assert.equal(password.required, true);
    assert.equal(email_address.used_for_first_factor, true);
    assert.deepEqual(email_address.verifications, ['email_code']);
    assert.equal(phone_number.enabled, true, 'development mode sends SMS to the outbox');
    assert.equal(phone_number.required, false);
    assert.deepEqual(phone_number.second_factors, ['phone_code']);
    assert.equal(env.user_settings.password_settings.min_length, 8);
    assert.equal(env.display_config.instance_environment_type, 'development');
    assert.equal(env.display_config.home_url, `${PUBLIC_URL}/`);
    assert.equal(env.commerce_settings, null);
  });

  it('POST /v1/environment?_method=PATCH (development touch) returns the same bare environment', async () => {
    const browser = h.browser();
    const get = await browser.get('/environment');
    const patch = await browser.patch('/environment');
    assert.equal(patch.status, 200);
    assert.equal(patch.body.object, 'environment');
    assert.deepEqual(patch.body, get.body);
  });

  it('GET /v1/client without a cookie is 200 {response: null, client: null} and creates no client', async () => {
    const clientsBefore = await h.count('clients');
    const res = await h.browser().get('/client');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { response: null, client: null });
    assert.equal(res.setCookies.has('__client'), false);
    assert.equal(await h.count('clients'), clientsBefore);
  });

  it('GET /v1/client with an unknown __client cookie is also {response: null, client: null}', async () => {
    const browser = h.browser();
    browser.jar.set('__client', 'not-a-known-token');
    const res = await browser.get('/client');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { response: null, client: null });
  });

  it('PUT /v1/client creates a client, sets the HttpOnly __client cookie, and GET /v1/client returns it', async () => {
    const browser = h.browser();
    const put = await browser.call('PUT', '/client');
    assert.equal(put.status, 200);
    assert.equal(put.body.client, null);
    assert.equal(put.body.response.object, 'client');
    assert.match(put.body.response.id, /^client_/);
    assert.deepEqual(put.body.response.sessions, []);
    assert.equal(put.body.response.sign_in, null);
    assert.equal(put.body.response.sign_up, null);
    const cookie = put.setCookies.get('__client');
    assert.ok(cookie, '__client is set');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.path, FAPI);
    assert.equal(cookie.sameSite, 'Lax');

    const get = await browser.get('/client');
    assert.equal(get.status, 200);
    assert.equal(get.body.client, null);
    assert.equal(get.body.response.id, put.body.response.id);
  });

  it('an unknown path is 404 resource_not_found', async () => {
    const browser = h.browser();
    for (const path of ['/v1/nope', '/v1/client/nope', '/v2/client', '/']) {
      const res = await browser.raw('GET', `${FAPI}${path}`);
      assert.equal(res.status, 404, path);
      assert.equal(res.body.errors[0].code, 'resource_not_found', path);
    }
  });

  it('a known path with the wrong verb is 405 request_method_not_allowed', async () => {
    const browser = h.browser();
    const get = await browser.get('/client/sign_ins');
    assert.equal(get.status, 405);
    assert.equal(get.body.errors[0].code, 'request_method_not_allowed');
    const tunnelled = await browser.raw('POST', `${FAPI}/v1/client?_method=FROB`);
    assert.equal(tunnelled.status, 405);
    assert.equal(tunnelled.body.errors[0].code, 'request_method_not_allowed');
  });

  it('repeated and trailing slashes are tolerated', async () => {
    const browser = h.browser();
    for (const url of [`${FAPI}//v1/client`, `${FAPI}/v1/client/`, `${FAPI}/v1//client//`]) {
      const res = await browser.raw('GET', url);
      assert.equal(res.status, 200, url);
      assert.deepEqual(res.body, { response: null, client: null }, url);
    }
    const env = await browser.raw('GET', `${FAPI}/v1/environment/`);
    assert.equal(env.status, 200);
    assert.equal(env.body.object, 'environment');
  });

  it('a malformed or oversized body is answered in the Clerk error envelope (400 request_body_invalid)', async () => {
    for (const [contentType, payload] of [
      ['application/json', '{"identifier":'],
      ['application/x-www-form-urlencoded', `identifier=${'x'.repeat(1_100_000)}`],
    ] as const) {
      const res = await h.app.inject({
        method: 'POST',
        url: `${FAPI}/v1/client/sign_ins`,
        headers: { 'content-type': contentType },
        payload,
      });
      assert.ok(res.statusCode === 400 || res.statusCode === 413, `${contentType}: ${res.statusCode}`);
      const body = res.json();
      assert.ok(Array.isArray(body.errors), `${contentType}: ${res.body}`);
      assert.equal(body.errors[0].code, 'request_body_invalid');
    }
  });

  it('a path segment that decodes to a malformed escape is 404 resource_not_found, not a 500', async () => {
    const res = await h.browser().raw('GET', `${FAPI}/v1/client/sign_ups/%25E0%25A4%25A`);
    assert.equal(res.status, 404, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].code, 'resource_not_found');
  });

  it('serves the default avatar from the FAPI path', async () => {
    const res = await h.app.inject({ method: 'GET', url: `${FAPI}/v1/avatars/avatar_placeholder.svg` });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'image/svg+xml');
    assert.match(res.body, /^<svg /);
  });
});
