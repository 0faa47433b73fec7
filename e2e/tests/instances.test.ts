// run-tests: alone (several server processes and a PostgreSQL cluster of its own, with readiness deadlines)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { bapi, FapiClient, productApi, testModeEmail, type WireResponse } from '../support/fapi-client.ts';
import {
  privatePostgresUnavailable,
  startPrivatePostgres,
  type PrivatePostgres,
} from '../support/private-postgres.ts';
import { SHARED_SECRET_KEY, spawnServer, stopAll, type ServerProcess } from '../support/processes.ts';
import { BACKEND_HEADER, startRoundRobin, type Backend, type RoundRobin } from '../support/round-robin.ts';
import {
  assertClerkError,
  assertOk,
  attemptEmailCode,
  createSignUp,
  mintToken,
  prepareEmailCode,
  signInWithPassword,
  testModeSignUp,
  WIRE_PASSWORD,
} from '../support/wire-flows.ts';

/** Small limits, so that the test reaches them while each process alone stays under them. */
const SIGN_IN_LIMIT_PER_IDENTIFIER = 4;
const LOCKOUT_AFTER = 3;

const servedBy = (res: WireResponse) => res.headers.get(BACKEND_HEADER);

/** Polls one process's development outbox (in the shared database) for the newest code mailed to `to`. */
async function codeFromOutbox(origin: string, to: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await fetch(`${origin}/__dev/mail?to=${encodeURIComponent(to)}`);
    assert.equal(res.status, 200);
    const [mail] = (await res.json()) as { text: string }[];
    const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no code mailed to ${to} within ${timeoutMs} ms`);
}

describe(
  'two server processes on one PostgreSQL database behind a round-robin',
  {
    skip: privatePostgresUnavailable() ?? false,
  },
  () => {
    let pg: PrivatePostgres | undefined;
    let proxy: RoundRobin | undefined;
    const processes: ServerProcess[] = [];
    const backends: Backend[] = [];
    /** The process named `name`. */
    const server = (name: string) => {
      const index = backends.findIndex((b) => b.name === name);
      assert.ok(index >= 0, `no backend ${name}`);
      return processes[index]!;
    };
    const other = (name: string | null) => (name === 'A' ? 'B' : 'A');

    before(async () => {
      pg = await startPrivatePostgres();
      proxy = await startRoundRobin(() => backends);
      const env = {
        TRUST_PROXY: 'true',
        IDENTITY_RATE_LIMIT_SIGN_IN_PER_IDENTIFIER: String(SIGN_IN_LIMIT_PER_IDENTIFIER),
        IDENTITY_LOCKOUT_MAX_ATTEMPTS: String(LOCKOUT_AFTER),
      };
      // Both start at once on the empty database: migrations and the first signing key race on purpose.
      const started = await Promise.allSettled(
        ['A', 'B'].map(() => spawnServer({ publicUrl: proxy!.origin, databaseUrl: pg!.url, env })),
      );
      for (const s of started) if (s.status === 'fulfilled') processes.push(s.value);
      const failed = started.find((s) => s.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
      backends.push({ name: 'A', origin: processes[0]!.origin }, { name: 'B', origin: processes[1]!.origin });
    });

    after(async () => {
      await stopAll(processes);
      await proxy?.close();
      await pg?.destroy();
    });

    test(
      'sign-up, sign-in and token refresh alternate between the two processes and succeed',
      {
        timeout: 120_000,
      },
      async () => {
        const browser = new FapiClient(proxy!.origin);
        const email = `instances-${Date.now()}@example.com`;
        assertOk(await browser.get('/environment'), 'environment');

        // Sign-up: the code is sent by one process and checked by the other.
        const { id, res: created } = await createSignUp(browser, email);
        const prepared = await prepareEmailCode(browser, id);
        assert.notEqual(servedBy(prepared), servedBy(created));
        // The outbox is a table of the shared database: the process that did not send the mail shows it.
        const code = await codeFromOutbox(server(other(servedBy(prepared))).origin, email);
        const { session: signedUp, res: attempted } = await attemptEmailCode(browser, id, code);
        assert.equal(servedBy(attempted), other(servedBy(prepared)));

        // Sign-in with the password, from another browser: identifier on one process, password on the other.
        const second = new FapiClient(proxy!.origin);
        const signedIn = await signInWithPassword(second, email);
        assert.equal(signedIn.session.userId, signedUp.userId);
        assert.notEqual(servedBy(signedIn.attempted), servedBy(signedIn.created));

        // Token refresh: consecutive refreshes land on A and B in turn, all for the same session.
        const minted: { jwt: string; by: string }[] = [];
        for (let i = 0; i < 4; i++) {
          const { jwt, res } = await mintToken(second, signedIn.session.sessionId);
          minted.push({ jwt, by: servedBy(res)! });
        }
        assert.deepEqual(
          minted.map((m) => m.by),
          minted[0]!.by === 'A' ? ['A', 'B', 'A', 'B'] : ['B', 'A', 'B', 'A'],
        );
        // One signing key, kept in the database: both publish it, and a token minted by one process is
        // accepted by the other's product API (which verifies it against its own Backend API).
        const [jwksA, jwksB] = await Promise.all(
          ['A', 'B'].map(async (n) => (await bapi(server(n).origin, SHARED_SECRET_KEY, 'GET', '/jwks')).body),
        );
        assert.deepEqual(jwksA, jwksB);
        for (const { jwt, by } of minted) {
          assert.equal(decodeProtectedHeader(jwt).kid, jwksA.keys[0].kid);
          assert.equal(decodeJwt(jwt).sid, signedIn.session.sessionId);
          const me = await productApi(server(other(by)).origin, '/me', jwt);
          assert.equal(me.status, 200, JSON.stringify(me.body));
          assert.equal(me.body.userId, signedUp.userId);
          assert.equal(me.body.user.primaryEmailAddress, email);
        }
        // And through the round-robin, as the web app calls it.
        const viaProxy = await productApi(proxy!.origin, '/me', minted[3]!.jwt);
        assert.equal(viaProxy.status, 200, JSON.stringify(viaProxy.body));
      },
    );

    test(
      'the sign-in rate limit per identifier counts the attempts of both processes',
      {
        timeout: 120_000,
      },
      async () => {
        const email = testModeEmail('limited');
        await testModeSignUp(new FapiClient(proxy!.origin), email);
        const perBackend = new Map<string, number>();
        // Each attempt from its own browser and address: only the identifier is common to them.
        for (let i = 1; i <= SIGN_IN_LIMIT_PER_IDENTIFIER; i++) {
          const res = await new FapiClient(proxy!.origin).post('/client/sign_ins', { identifier: email });
          assertOk(res, `sign-in ${i}`);
          perBackend.set(servedBy(res)!, (perBackend.get(servedBy(res)!) ?? 0) + 1);
        }
        // Both took part, and neither saw the limit on its own.
        assert.deepEqual([...perBackend.keys()].sort(), ['A', 'B']);
        for (const n of perBackend.values()) assert.ok(n < SIGN_IN_LIMIT_PER_IDENTIFIER);
        for (let i = 0; i < 2; i++) {
          // One more on each process: both refuse it.
          const refused = await new FapiClient(proxy!.origin).post('/client/sign_ins', { identifier: email });
          assertClerkError(refused, 429, 'too_many_requests');
          assert.ok(Number(refused.headers.get('retry-after')) > 0);
        }
      },
    );

    test('the lockout counts the failed passwords of both processes', { timeout: 120_000 }, async () => {
      const email = testModeEmail('locked');
      const owner = await testModeSignUp(new FapiClient(proxy!.origin), email);
      const browser = new FapiClient(proxy!.origin);
      const created = await browser.post('/client/sign_ins', { identifier: email });
      assertOk(created, 'create sign-in');
      const attempt = (password: string) =>
        browser.post(`/client/sign_ins/${created.body.response.id}/attempt_first_factor`, {
          strategy: 'password',
          password,
        });
      const failures = new Map<string, number>();
      for (let i = 1; i <= LOCKOUT_AFTER; i++) {
        const res = await attempt(`wrong password ${i}`);
        assertClerkError(res, 422, 'form_password_incorrect');
        failures.set(servedBy(res)!, (failures.get(servedBy(res)!) ?? 0) + 1);
      }
      assert.deepEqual([...failures.keys()].sort(), ['A', 'B']);
      for (const n of failures.values()) assert.ok(n < LOCKOUT_AFTER);
      // The right password is refused on either process now.
      for (let i = 0; i < 2; i++) {
        const res = await attempt(WIRE_PASSWORD);
        assertClerkError(res, 403, 'user_locked');
      }
      for (const name of ['A', 'B']) {
        const user = await bapi(server(name).origin, SHARED_SECRET_KEY, 'GET', `/users/${owner.userId}`);
        assert.equal(user.status, 200);
        assert.equal(user.body.locked, true);
      }
    });
  },
);
