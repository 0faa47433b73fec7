import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parsePublishableKey } from '@clerk/shared/keys';
import { identityConfigFromEnv } from '../src/config.ts';
import { publishableKeyFor } from '../src/instance/instance-keys.ts';
import { forEachBackend } from './support/backends.ts';
import { Harness } from './support/harness.ts';

describe('instance keys', () => {
  it('production keys by default: pk_live_ on clerk.<public host>', () => {
    const config = identityConfigFromEnv({ PUBLIC_URL: 'http://localhost:3000' });
    assert.equal(config.instanceKeys, 'production');
    assert.equal(config.frontendApiHost, 'clerk.localhost:3000');
  });

  it('development keys: pk_test_ on a Clerk development host, so clerk-js asks for a dev-browser token', () => {
    const config = identityConfigFromEnv({
      PUBLIC_URL: 'http://localhost:3000',
      IDENTITY_KEYS: 'development',
    });
    assert.equal(config.instanceKeys, 'development');
    assert.equal(config.frontendApiHost, 'localhost-3000.clerk.accounts.dev');
    const parsed = parsePublishableKey(publishableKeyFor(config.frontendApiHost, config.instanceKeys));
    assert.equal(parsed?.instanceType, 'development');
    assert.equal(parsed?.frontendApi, 'localhost-3000.clerk.accounts.dev');
    assert.throws(() => identityConfigFromEnv({ IDENTITY_KEYS: 'staging' }), /IDENTITY_KEYS/);
  });
});

forEachBackend('development-browser tokens', (backend) => {
  let production: Harness;
  let development: Harness;
  before(async () => {
    production = await Harness.start(backend);
    development = await production.twin({ instanceKeys: 'development' });
  });
  after(async () => {
    await development.close();
    await production.close();
  });

  it('with development keys, POST /v1/dev_browser returns a bare {id} that identifies a client through __clerk_db_jwt', async () => {
    const created = await development.browser().post('/dev_browser');
    assert.equal(created.status, 200);
    assert.deepEqual(Object.keys(created.body), ['id']);
    assert.equal(typeof created.body.id, 'string');
    const res = await development.browser().get('/client', { __clerk_db_jwt: created.body.id });
    assert.equal(res.status, 200);
    assert.equal(res.body.response.object, 'client');
    assert.match(res.body.response.id, /^client_/);
  });

  it('with production keys, no dev-browser token is handed out and a client token in the URL is ignored', async () => {
    const owner = production.browser();
    assert.equal((await owner.call('PUT', '/client')).status, 200);
    const token = owner.jar.get('__client')!;
    const viaUrl = await production.browser().get('/client', { __clerk_db_jwt: token });
    assert.deepEqual(viaUrl.body, { response: null, client: null });
    const created = await production.browser().post('/dev_browser');
    assert.equal(created.status, 404);
    assert.equal(created.body.errors[0].code, 'resource_not_found');
  });
});
