// Pure functions (configuration, keys): no storage is involved, so these run once, not per back end.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getCookieSuffix, parsePublishableKey } from '@clerk/shared/keys';
import { identityConfigFromEnv } from '../src/config.ts';
import { cookieSuffixOf } from '../src/identity.ts';
import { publishableKeyFor } from '../src/instance/instance-keys.ts';

describe('configuration and instance keys', () => {
  it('derives the frontend API host from PUBLIC_URL', () => {
    const config = identityConfigFromEnv({ PUBLIC_URL: 'https://app.example.com/' });
    assert.equal(config.publicUrl, 'https://app.example.com');
    assert.equal(config.frontendApiHost, 'clerk.app.example.com');
    assert.equal(config.fapiPath, '/__clerk');
    assert.equal(config.sessionTokenTtlSeconds, 60);
    assert.equal(config.codeTtlSeconds, 600);
    assert.equal(config.maxCodeAttempts, 5);
  });

  it('shortens the session-token lifetime for tests only (NODE_ENV=test), within 15-60 s', () => {
    const short = { IDENTITY_TEST_SESSION_TOKEN_TTL_SECONDS: '20' };
    assert.equal(identityConfigFromEnv(short).sessionTokenTtlSeconds, 60);
    assert.equal(identityConfigFromEnv({ ...short, NODE_ENV: 'production' }).sessionTokenTtlSeconds, 60);
    assert.equal(identityConfigFromEnv({ ...short, NODE_ENV: 'test' }).sessionTokenTtlSeconds, 20);
    for (const bad of ['5', '61', 'soon'])
      assert.throws(
        () => identityConfigFromEnv({ IDENTITY_TEST_SESSION_TOKEN_TTL_SECONDS: bad, NODE_ENV: 'test' }),
        /IDENTITY_TEST_SESSION_TOKEN_TTL_SECONDS/,
      );
  });

  it('reads ALLOWED_ORIGINS as origins and refuses a malformed entry at start', () => {
    const config = identityConfigFromEnv({
      ALLOWED_ORIGINS: ' https://app.example.com/ ,http://localhost:5173',
    });
    assert.deepEqual(config.allowedOrigins, ['https://app.example.com', 'http://localhost:5173']);
    for (const bad of [
      'https://localhost:3000.evil.test',
      'example.com',
      'javascript:alert(1)',
      'file:///etc',
    ]) {
      assert.throws(() => identityConfigFromEnv({ ALLOWED_ORIGINS: bad }), /ALLOWED_ORIGINS/);
    }
  });

  it('chooses the mode from IDENTITY_MODE, else NODE_ENV', () => {
    assert.equal(identityConfigFromEnv({}).mode, 'development');
    assert.equal(identityConfigFromEnv({ NODE_ENV: 'production' }).mode, 'production');
    assert.equal(
      identityConfigFromEnv({ NODE_ENV: 'production', IDENTITY_MODE: 'development' }).mode,
      'development',
    );
    assert.equal(identityConfigFromEnv({ IDENTITY_MODE: 'production' }).mode, 'production');
  });

  it('normalises a publicUrl override the same way as PUBLIC_URL', () => {
    const config = identityConfigFromEnv({}, { publicUrl: 'http://localhost:3000/' });
    assert.equal(config.publicUrl, 'http://localhost:3000');
  });

  it('the publishable key is a pk_live_ key that @clerk/shared parses to the frontend API host', () => {
    const pk = publishableKeyFor('clerk.localhost:3000');
    assert.match(pk, /^pk_live_/);
    const parsed = parsePublishableKey(pk);
    assert.equal(parsed?.frontendApi, 'clerk.localhost:3000');
    assert.equal(parsed?.instanceType, 'production');
    assert.throws(() => publishableKeyFor('localhost:3000'), /must contain a dot/);
  });

  it("the cookie suffix matches @clerk/shared's getCookieSuffix", async () => {
    for (const host of ['clerk.localhost:3000', 'clerk.app.example.com', '127.0.0.1:4000']) {
      const pk = publishableKeyFor(host);
      assert.equal(cookieSuffixOf(pk), await getCookieSuffix(pk));
    }
  });
});
