import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { identityConfigFromEnv } from '../src/config.ts';
import { forEachBackend } from './support/backends.ts';
import { Harness, uniqueEmail, type Browser } from './support/harness.ts';

const PROXY = '10.0.0.1';
const spoofed = () => `198.18.${randomBytes(1)[0]}.${(randomBytes(1)[0]! % 250) + 1}`;

/** A browser behind the proxy at `PROXY`: the proxy appends the address it saw to the client's header. */
function behindProxy(h: Harness, forwardedFor: () => string): { signIn(): Promise<number> } {
  return {
    async signIn() {
      const browser: Browser = h.browser({ ip: PROXY, headers: { 'x-forwarded-for': forwardedFor() } });
      return (await browser.post('/client/sign_ins', { identifier: uniqueEmail('nobody') })).status;
    },
  };
}

/** A harness behind proxies as `TRUST_PROXY` describes them, started before and closed after the suite. */
function harnessBehind(backend: Parameters<typeof Harness.start>[0], TRUST_PROXY: string): () => Harness {
  let h: Harness;
  before(async () => {
    h = await Harness.start(backend, {
      config: {
        trustProxy: identityConfigFromEnv({ TRUST_PROXY }).trustProxy,
        rateLimits: {
          signInPerIpPerMinute: 3,
          signInPerIdentifierPerMinute: 100,
          codeAttemptsPerIpPerMinute: 30,
        },
      },
    });
  });
  after(() => h.close());
  return () => h;
}

describe('TRUST_PROXY parsing', () => {
  const parse = (TRUST_PROXY: string | undefined) => identityConfigFromEnv({ TRUST_PROXY }).trustProxy;

  it('is off unless set; true is one hop; a count is that many hops; a list names the proxies', () => {
    assert.equal(parse(undefined), false);
    assert.equal(parse('false'), false);
    assert.equal(parse('true'), 1);
    assert.equal(parse('2'), 2);
    assert.deepEqual(parse('127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback'), [
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses a malformed value at start, naming the variable', () => {
    for (const bad of ['yes', '10.0.0.0/33', '10.0.0/8', 'proxy.example.com', '1.2.3.4/8/8', '-1']) {
      assert.throws(() => parse(bad), /^Error: TRUST_PROXY: /, bad);
    }
  });
});

forEachBackend('per-IP limits behind trusted proxies (X-Forwarded-For read from the right)', (backend) => {
  describe('TRUST_PROXY=1', () => {
    const harness = harnessBehind(backend, '1');

    it('counts the address the proxy saw, whatever the client wrote on the left', async () => {
      const client = behindProxy(harness(), () => `${spoofed()}, 203.0.113.7`);
      for (let i = 0; i < 3; i++) assert.equal(await client.signIn(), 422);
      assert.equal(await client.signIn(), 429, 'a new left-most address every time changes nothing');
      const other = behindProxy(harness(), () => `${spoofed()}, 203.0.113.8`);
      assert.equal(await other.signIn(), 422, 'another client behind the same proxy has its own count');
    });
  });

  describe('TRUST_PROXY=true (one hop)', () => {
    const harness = harnessBehind(backend, 'true');

    it('is the single reverse proxy: the right-most entry is the client', async () => {
      const client = behindProxy(harness(), () => `${spoofed()}, ${spoofed()}, 203.0.113.9`);
      for (let i = 0; i < 3; i++) assert.equal(await client.signIn(), 422);
      assert.equal(await client.signIn(), 429);
    });
  });

  describe('TRUST_PROXY=<list of proxies>', () => {
    const harness = harnessBehind(backend, '10.0.0.0/8');

    it('skips only the listed proxies, from the right', async () => {
      // Two proxies of the list (10.0.0.2 appended by the first, then 10.0.0.1 connects).
      const client = behindProxy(harness(), () => `${spoofed()}, 203.0.113.10, 10.0.0.2`);
      for (let i = 0; i < 3; i++) assert.equal(await client.signIn(), 422);
      assert.equal(await client.signIn(), 429);
      assert.equal(await behindProxy(harness(), () => `203.0.113.11, 10.0.0.2`).signIn(), 422);
    });

    it('a client that is not a listed proxy is counted by its own address, its header ignored', async () => {
      const direct = async () => {
        const browser = harness().browser({ ip: '192.0.2.20', headers: { 'x-forwarded-for': spoofed() } });
        return (await browser.post('/client/sign_ins', { identifier: uniqueEmail('nobody') })).status;
      };
      for (let i = 0; i < 3; i++) assert.equal(await direct(), 422);
      assert.equal(await direct(), 429);
    });
  });
});
