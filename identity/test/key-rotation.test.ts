import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { forEachBackend, type Store } from './support/backends.ts';
import { cli, cliStore } from './support/cli.ts';
import { PASSWORD, signUp, type SignedIn } from './support/flows.ts';
import { BAPI, Clock, Harness, uniqueEmail, type Browser } from './support/harness.ts';
import { enrolTotp, passwordUntilSecondFactor, totpCode, type Enrolled } from './support/second-factors.ts';

const kidOf = (jwt: string) => decodeProtectedHeader(jwt).kid;

forEachBackend('identity CLI: key rotation', (backend) => {
  let store: Store;
  let env: NodeJS.ProcessEnv;
  let dispose: () => Promise<void>;
  let h: Harness | null = null;
  const clock = new Clock();
  let secretKey = 'sk_live_testsecretkey0000000000000000000000000';
  let email: string;
  let enrolled: Enrolled;
  let work: string;

  const start = async () => (h = await Harness.start(backend, { store, clock, config: { secretKey } }));
  const stop = async () => {
    await h?.close();
    h = null;
  };
  /** The command line on the instance: PGlite's directory is free only while its server is stopped. */
  const withServerStopped = async <T>(fn: () => Promise<T>): Promise<T> => {
    await stop();
    try {
      return await fn();
    } finally {
      await start();
    }
  };
  const jwksNow = async (): Promise<JSONWebKeySet> => (await h!.bapi('/v1/jwks')).json();
  const token = async (browser: Browser, signedIn: SignedIn): Promise<string> => {
    const res = await browser.post(`/client/sessions/${signedIn.sessionId}/tokens`, {});
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.jwt;
  };
  /** The Backend API's verdict on a session token (POST /v1/sessions/:id/verify). */
  const verified = async (sessionId: string, jwt: string, key = secretKey) => {
    const res = await h!.app.inject({
      method: 'POST',
      url: `${BAPI}/v1/sessions/${sessionId}/verify`,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ token: jwt }),
    });
    return res.statusCode;
  };

  before(async () => {
    ({ store, env, dispose } = await cliStore(backend));
    work = mkdtempSync(join(tmpdir(), 'identity-keys-'));
    await start();
    env = { ...env, IDENTITY_SECRET_KEY: secretKey };
    email = uniqueEmail();
    const browser = h!.browser();
    await signUp(h!, browser, email);
    enrolled = await enrolTotp(h!, browser);
  });
  after(async () => {
    await stop();
    await dispose();
    rmSync(work, { recursive: true, force: true });
  });

  it('a new signing key is published first, signs after the grace, the old one verifies until retired', async () => {
    const browser = h!.browser();
    const first = await passwordAndTotp(browser);
    const oldKid = kidOf(await token(browser, first));

    const rotated = await withServerStopped(() =>
      cli(['keys', 'rotate', '--activate-after', '120', '--keep-old', '600'], env),
    );
    assert.equal(rotated.status, 0, rotated.err);
    const newKid = rotated.out.trim();
    assert.match(newKid, /^ins_/);
    assert.match(rotated.err, new RegExp(`Published ${newKid}; it signs from .*leave the JWKS at`));

    // Published at once, not signing yet: the JWKS has both, tokens still carry the old kid.
    const browser2 = h!.browser();
    const signedIn = await passwordAndTotp(browser2);
    assert.deepEqual(
      (await jwksNow()).keys.map((k) => k.kid),
      [oldKid, newKid],
    );
    const beforeSwitch = await token(browser2, signedIn);
    assert.equal(kidOf(beforeSwitch), oldKid);

    // After the grace period the new key signs; the old key's last token still verifies until it expires.
    const signsFrom = new Date(rotated.err.match(/it signs from (\S+)\./)![1]!);
    clock.set(new Date(signsFrom.getTime() - 10_000));
    const lastOld = await token(browser2, signedIn);
    assert.equal(kidOf(lastOld), oldKid);
    clock.set(new Date(signsFrom.getTime() + 5_000));
    const firstNew = await token(browser2, signedIn);
    assert.equal(kidOf(firstNew), newKid);
    const jwks = await jwksNow();
    assert.deepEqual(
      jwks.keys.map((k) => k.kid),
      [newKid, oldKid],
    );
    const local = createLocalJWKSet(jwks);
    for (const jwt of [lastOld, firstNew]) {
      await jwtVerify(jwt, local, { currentDate: clock.now });
      assert.equal(await verified(signedIn.sessionId, jwt), 200);
    }

    // Past --keep-old the old key leaves the JWKS and its tokens no longer verify.
    clock.advance(600);
    await h!.identity.deps.signingKeys.reload();
    assert.deepEqual(
      (await jwksNow()).keys.map((k) => k.kid),
      [newKid],
    );
    const stale = await token(browser2, signedIn);
    assert.equal(kidOf(stale), newKid);
    assert.equal(await verified(signedIn.sessionId, stale), 200);

    const listed = await withServerStopped(() => cli(['keys', 'list'], env));
    assert.equal(listed.status, 0, listed.err);
    assert.match(listed.out, new RegExp(`${newKid}  signs from .*  newest`));
  });

  it('a running server publishes a key rotated elsewhere on its next read of the keys', async () => {
    if (backend.name !== 'postgres') return;
    const rotated = await cli(['keys', 'rotate', '--activate-after', '0', '--keep-old', '3600'], env);
    assert.equal(rotated.status, 0, rotated.err);
    const kid = rotated.out.trim();
    assert.equal(
      (await jwksNow()).keys.some((k) => k.kid === kid),
      false,
    );
    await h!.identity.deps.signingKeys.reload();
    assert.equal(
      (await jwksNow()).keys.some((k) => k.kid === kid),
      true,
    );
  });

  it('keys rotate refuses a retention shorter than a token, and a malformed command line', async () => {
    const short = await withServerStopped(() => cli(['keys', 'rotate', '--keep-old', '10'], env));
    assert.equal(short.status, 1);
    assert.match(short.err, /--keep-old must be at least the session token lifetime \(60 s\)/);
    for (const argv of [
      ['keys'],
      ['keys', 'drop'],
      ['keys', 'rotate', '--activate-after', '-5'],
      ['keys', 'rotate', '--activate-after', 'soon'],
      ['keys', 'rotate', '--key-out', 'x'],
      ['keys', 'rotate', '--secret-key', '--keep-old', '60'],
      ['keys', 'list', '--secret-key'],
    ]) {
      assert.equal((await cli(argv, env)).status, 2, argv.join(' '));
    }
  });

  it('the instance secret key rotates: TOTP secrets re-sealed, the old key refused by the Backend API', async () => {
    const keyOut = join(work, 'new-secret-key');
    const withoutOut = await withServerStopped(() => cli(['keys', 'rotate', '--secret-key'], env));
    assert.equal(withoutOut.status, 1);
    assert.match(withoutOut.err, /give --key-out <file>/);

    const wrong = await withServerStopped(() =>
      cli(['keys', 'rotate', '--secret-key', '--key-out', keyOut], {
        ...env,
        IDENTITY_SECRET_KEY: 'sk_live_anotherkey00000000000000000000000000',
      }),
    );
    assert.equal(wrong.status, 1);
    assert.match(wrong.err, /is not the one this database was last started with; nothing was changed/);
    assert.equal(existsSync(keyOut), false);

    // A JWT template with a key of its own, sealed under the instance secret key too.
    const hsSecret = 'a-template-signing-secret-of-32-bytes!!';
    const template = await h!.app.inject({
      method: 'POST',
      url: `${BAPI}/v1/jwt_templates`,
      headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        name: 'own-key',
        claims: { uid: '{{user.id}}' },
        custom_signing_key: true,
        signing_algorithm: 'HS256',
        signing_key: hsSecret,
      }),
    });
    assert.equal(template.statusCode, 200, template.body);

    const oldKey = secretKey;
    const rotated = await withServerStopped(async () => {
      const res = await cli(['keys', 'rotate', '--secret-key', '--key-out', keyOut], env);
      secretKey = existsSync(keyOut) ? readFileSync(keyOut, 'utf8').trim() : secretKey;
      return res;
    });
    assert.equal(rotated.status, 0, rotated.err);
    assert.match(
      rotated.err,
      /Re-sealed 1 TOTP secrets, 0 API key secrets, 1 JWT template keys and 0 provider tokens/,
    );
    assert.equal(rotated.out, keyOut);
    assert.match(secretKey, /^sk_live_[0-9A-Za-z]{40}$/);
    assert.notEqual(secretKey, oldKey);
    assert.equal(rotated.err.includes(secretKey), false, 'the new key is never printed');

    // The server started with the new key: the TOTP code still passes, the old key is refused.
    const browser = h!.browser();
    const signedIn = await passwordAndTotp(browser);
    assert.equal((await h!.bapi('/v1/jwks', oldKey)).statusCode, 401);
    // The template's own key opened under the new secret key: its token verifies with that key.
    const minted = await browser.post(`/client/sessions/${signedIn.sessionId}/tokens/own-key`, {});
    assert.equal(minted.status, 200, JSON.stringify(minted.body));
    const { payload } = await jwtVerify(minted.body.jwt, new TextEncoder().encode(hsSecret), {
      currentDate: clock.now,
    });
    assert.equal(payload.uid, signedIn.userId);
    assert.equal((await h!.bapi('/v1/jwks', secretKey)).statusCode, 200);

    const again = await withServerStopped(() =>
      cli(['keys', 'rotate', '--secret-key', '--key-out', keyOut], {
        ...env,
        IDENTITY_SECRET_KEY: secretKey,
      }),
    );
    assert.equal(again.status, 1);
    assert.match(again.err, /exists already/);
  });

  /** Password, then the authenticator's code of the next period (each code is good once). */
  async function passwordAndTotp(browser: Browser): Promise<SignedIn> {
    const first = await passwordUntilSecondFactor(browser, email, PASSWORD);
    clock.advance(30);
    const done = await browser.post(`/client/sign_ins/${first.body.response.id}/attempt_second_factor`, {
      strategy: 'totp',
      code: totpCode(enrolled.secret, clock.now),
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.response.status, 'complete');
    const session = done.body.client.sessions.find(
      (s: { id: string }) => s.id === done.body.response.created_session_id,
    );
    return {
      userId: session.user.id,
      sessionId: session.id,
      jwt: session.last_active_token.jwt,
      client: done.body.client,
    };
  }
});
