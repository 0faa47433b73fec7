import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { serverConfigFromEnv } from '../src/config.ts';
import {
  sessionToken,
  signUpWithOrganization,
  startEmbeddedServer,
  type EmbeddedServer,
} from './support/embedded-server.ts';

const PRODUCTION = { IDENTITY_MODE: 'production', SMTP_URL: 'smtp://127.0.0.1:1' };

describe('where the server listens', () => {
  it('development listens on loopback by default, production everywhere; HOST decides either way', () => {
    assert.equal(serverConfigFromEnv({}).host, 'localhost');
    assert.equal(serverConfigFromEnv({ ...PRODUCTION }).host, '0.0.0.0');
    assert.equal(serverConfigFromEnv({ HOST: '0.0.0.0' }).host, '0.0.0.0');
    assert.equal(serverConfigFromEnv({ ...PRODUCTION, HOST: '10.1.2.3' }).host, '10.1.2.3');
  });

  it('hosted mode honours TRUST_PROXY, and refuses a malformed one at start', () => {
    const hosted = {
      CLERK_PUBLISHABLE_KEY: 'pk_test_Y2xlcmsuZXhhbXBsZS5jb20k',
      CLERK_SECRET_KEY: 'sk_test_x',
    };
    const config = serverConfigFromEnv({ ...hosted, TRUST_PROXY: '10.0.0.0/8' });
    assert.equal(config.identity, 'hosted');
    assert.deepEqual(config.identity === 'hosted' && config.trustProxy, ['10.0.0.0/8']);
    assert.throws(() => serverConfigFromEnv({ ...hosted, TRUST_PROXY: 'yes' }), /TRUST_PROXY/);
    assert.throws(() => serverConfigFromEnv({ TRUST_PROXY: 'yes' }), /TRUST_PROXY/);
  });

  it('on the default loopback host the product API still verifies tokens through its own Backend API', async () => {
    const server = await startEmbeddedServer({ env: { HOST: '' } });
    try {
      const user = await signUpWithOrganization(server, 'loopback', 'Loopback Org');
      const res = await server.api(
        await sessionToken(user, user.organizationId),
        'GET',
        '/api/organizations/current',
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
    } finally {
      await server.stop();
    }
  });
});

describe('the development outbox answers clients on this machine only', () => {
  let server: EmbeddedServer;
  before(async () => {
    server = await startEmbeddedServer({ env: { TRUST_PROXY: '1' } });
  });
  after(() => server.stop());

  const get = (url: string, remoteAddress: string, headers: Record<string, string> = {}) =>
    server.app.fastify.inject({ method: 'GET', url, remoteAddress, headers });

  it('loopback clients read it (IPv4 and IPv6)', async () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      assert.equal((await get('/__dev/mail', address)).statusCode, 200, address);
      assert.equal((await get('/__dev/sms.html', address)).statusCode, 200, address);
    }
  });

  it('anyone else gets exactly the answer of an unknown path', async () => {
    // One request id for all: it is in the envelope (clerk_trace_id), the rest must be the same.
    const id = { 'x-request-id': 'same-request-id-for-each' };
    const unknown = await get('/__dev/nothing-here', '203.0.113.5', id);
    assert.equal(unknown.statusCode, 404);
    for (const url of [
      '/__dev/mail',
      '/__dev/mail.html',
      '/__dev/sms',
      '/__dev/sms.html',
      '/__dev/mail?to=a@b.c',
    ]) {
      const res = await get(url, '203.0.113.5', id);
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.body, unknown.body, url);
    }
  });

  it('a client forwarded by a proxy on this machine is refused, trusted or not, even claiming loopback', async () => {
    assert.equal(
      (await get('/__dev/mail', '127.0.0.1', { 'x-forwarded-for': '203.0.113.5' })).statusCode,
      404,
    );
    const spoof = { 'x-forwarded-for': '127.0.0.1, 203.0.113.5' };
    assert.equal((await get('/__dev/mail', '127.0.0.1', spoof)).statusCode, 404);
    assert.equal((await get('/__dev/mail', '127.0.0.1', { 'x-real-ip': '203.0.113.5' })).statusCode, 404);
    assert.equal((await get('/__dev/mail', '127.0.0.1', { forwarded: 'for=203.0.113.5' })).statusCode, 404);
    const remoteClaimingLoopback = { 'x-forwarded-for': '127.0.0.1' };
    assert.equal((await get('/__dev/mail', '203.0.113.5', remoteClaimingLoopback)).statusCode, 404);
  });

  it('IDENTITY_DEV_OUTBOX_PUBLIC=true opens it to every client', async () => {
    const open = await startEmbeddedServer({ env: { IDENTITY_DEV_OUTBOX_PUBLIC: 'true' } });
    try {
      const res = await open.app.fastify.inject({
        method: 'GET',
        url: '/__dev/mail',
        remoteAddress: '203.0.113.5',
      });
      assert.equal(res.statusCode, 200);
    } finally {
      await open.stop();
    }
  });
});
